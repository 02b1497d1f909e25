import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {ciCommand} from '../src/app/ci-command.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {parseCiCommand} from '../src/domain/ci/command.js'
import {card, cli, refusal, type Repo, snapshot, templateRepo} from './helpers.js'

const TRAP = 'deepmerge-array-replace-trap'
const BROWSER = 'browser-validation-user-path'
const ON_MAIN = 'stale-pending-card-on-main'
const USAGE = [
  '',
  'Commands:',
  '- `/cairn approve <id> [<id> ...]` or `/cairn approve all`',
  '- `/cairn reject <id> <reason>`',
  '- `/cairn defer <id> <YYYY-MM-DD>`',
  '- `/cairn verify <id> [<id> ...]` (an active card is still true)',
  '- `/cairn archive <id> [<id> ...]`',
  '- `/cairn modify <id> <field>=<value> ...` (fields as `cairn review modify --set` takes them)',
]

const branch = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx(), {fields: card({slug: ON_MAIN, title: 'On main', summary: 'Proposed before the branch.'})})
  repo.git('checkout', '-q', '-b', 'feature')
  await propose(repo.ctx(), {fields: card()})
  await propose(repo.ctx(), {
    fields: card({slug: BROWSER, type: 'guideline', title: 'Validate in a browser', summary: 'Use a real browser.'}),
  })
})

interface Vars {
  comment?: string
  label?: string
  association?: string
  actor?: string
  /** What the cairn comment recorded and when, as cairn-approve.yml reads it; by default a review of HEAD written before the command. */
  seen?: Record<string, string | undefined>
}

const head = (repo: Repo) => repo.git('rev-parse', 'HEAD').trim()
const REVIEWED_AT = '2026-11-29T10:00:00Z'
const COMMENTED_AT = '2026-11-29T10:05:00Z'

/** The environment the cairn-approve workflow gives the command: a review of HEAD, read before the command was written. */
function seenEnv(repo: Repo, label = false): Record<string, string> {
  const sha = head(repo)
  return label
    ? {CAIRN_REVIEWED: sha, CAIRN_REVIEW_UPDATED_AT: REVIEWED_AT, CAIRN_LABEL_HEAD: sha}
    : {CAIRN_REVIEWED: sha, CAIRN_REVIEW_UPDATED_AT: REVIEWED_AT, CAIRN_COMMENT_CREATED_AT: COMMENTED_AT}
}

function run(repo: Repo, vars: Vars) {
  const env = {
    ...repo.env,
    CAIRN_COMMENT: vars.comment,
    CAIRN_LABEL: vars.label,
    CAIRN_ASSOCIATION: vars.association ?? 'MEMBER',
    CAIRN_ACTOR: vars.actor ?? 'octocat',
    ...seenEnv(repo, !!vars.label),
    ...vars.seen,
  }
  return ciCommand(repo.ctx({env}), {since: 'main'})
}
const commitsSince = (repo: Repo, sha: string) => Number(repo.git('rev-list', '--count', `${sha}..HEAD`).trim())
const exists = (repo: Repo, rel: string) => fs.existsSync(path.join(repo.dir, rel))

describe('parseCiCommand', () => {
  it('reads the first /cairn line (leading spaces allowed) and ignores the rest of the comment', () => {
    expect(parseCiCommand({comment: `Looks good.\n   /cairn approve ${TRAP}\n/cairn reject ${TRAP} no`})).toEqual({
      kind: 'approve',
      ids: [TRAP],
      all: false,
    })
    expect(parseCiCommand({comment: `/cairn approve ${TRAP} ${BROWSER} ${TRAP}`})).toEqual({
      kind: 'approve',
      ids: [TRAP, BROWSER],
      all: false,
    })
    expect(parseCiCommand({comment: `/cairn reject ${TRAP}   already   covered `})).toEqual({
      kind: 'reject',
      id: TRAP,
      reason: 'already   covered',
    })
    expect(parseCiCommand({comment: 'no command here\n/cairnish approve all'})).toEqual({kind: 'none'})
    expect(parseCiCommand({label: 'cairn:approve', comment: 'ignored'})).toEqual({kind: 'approve', ids: [], all: true})
    expect(parseCiCommand({label: 'bug'})).toEqual({kind: 'none'})
  })

  it('refuses what is not a command, quoting it inert', () => {
    expect(parseCiCommand({comment: '/cairn'})).toEqual({kind: 'failed', reason: '`/cairn` needs a command'})
    expect(parseCiCommand({comment: '/cairn merge <img src=x> @org/team'})).toEqual({
      kind: 'failed',
      reason: '`merge` is not a cairn command',
    })
    expect(parseCiCommand({comment: '/cairn approve <b>x</b>'})).toEqual({
      kind: 'failed',
      reason: '`<b>x</b>` is not a card id (ids are kebab-case, e.g. deepmerge-array-replace-trap)',
    })
    expect(parseCiCommand({comment: '/cairn approve https://evil.example/`x`'})).toEqual({
      kind: 'failed',
      reason: '`` https://evil.example/`x` `` is not a card id (ids are kebab-case, e.g. deepmerge-array-replace-trap)',
    })
    expect(parseCiCommand({comment: `/cairn approve all ${TRAP}`})).toEqual({
      kind: 'failed',
      reason: 'give ids or `all`, not both',
    })
    expect(parseCiCommand({comment: `/cairn reject ${TRAP}`})).toEqual({
      kind: 'failed',
      reason: '`/cairn reject` needs a reason after the id: it goes into the commit message',
    })
    expect(parseCiCommand({comment: `/cairn defer ${TRAP} 2026-12-31 extra`})).toEqual({
      kind: 'failed',
      reason: '`2026-12-31 extra` is not a date; give one date as YYYY-MM-DD',
    })
    expect(parseCiCommand({comment: `/cairn defer ${TRAP} @admin`})).toEqual({
      kind: 'failed',
      reason: '`@admin` is not a date; give one date as YYYY-MM-DD',
    })
  })
})

describe('cairn ci command', () => {
  it('approves one card as the commenter, in one commit, and replies with the short sha', async () => {
    const repo = await branch()
    const before = head(repo)
    const r = await run(repo, {comment: `Thanks!\n/cairn approve ${TRAP}`})
    expect(commitsSince(repo, before)).toBe(1)
    expect(r).toEqual({
      action: 'approve',
      ids: [TRAP],
      commit: head(repo),
      reply: `Approved \`${TRAP}\` for octocat in commit \`${head(repo).slice(0, 7)}\`.`,
    })
    expect(repo.read(`.cairn/cards/pitfall/${TRAP}.md`)).toContain(
      'approved:\n  by: octocat\n  at: 2026-11-29T10:00:00Z\n',
    )
    expect(repo.git('log', '-1', '--format=%s%n%b')).toContain('Cairn-Actor: octocat')
    expect(exists(repo, `.cairn/pending/guideline/${BROWSER}.md`)).toBe(true)
  })

  it('approve all (and the cairn:approve label) approve the cards the branch adds, not the one on main, in one commit', async () => {
    for (const vars of [{comment: '/cairn approve all'}, {label: 'cairn:approve', association: 'OWNER'}]) {
      const repo = await branch()
      const before = head(repo)
      const r = await run(repo, vars)
      expect(r).toEqual({
        action: 'approve',
        ids: [BROWSER, TRAP],
        commit: head(repo),
        reply: `Approved \`${BROWSER}\`, \`${TRAP}\` for octocat in commit \`${head(repo).slice(0, 7)}\`.`,
      })
      expect(commitsSince(repo, before)).toBe(1)
      expect(repo.git('status', '--porcelain')).toBe('')
      expect([
        exists(repo, `.cairn/cards/pitfall/${TRAP}.md`),
        exists(repo, `.cairn/cards/guideline/${BROWSER}.md`),
      ]).toEqual([true, true])
      expect(exists(repo, `.cairn/pending/pitfall/${ON_MAIN}.md`)).toBe(true)
      const again = await run(repo, vars)
      expect(again).toEqual({
        action: 'approve',
        ids: [],
        commit: null,
        reply: 'Nothing to approve: every pending card this pull request adds has a decision.',
      })
      expect(commitsSince(repo, before)).toBe(1)
    }
  })

  it('rejects with the reason in the commit message, and in a code span in the reply', async () => {
    const repo = await branch()
    const r = await run(repo, {comment: `/cairn reject ${TRAP} covered by <config-merge-rules> @alice`})
    expect(r).toEqual({
      action: 'reject',
      ids: [TRAP],
      commit: head(repo),
      reply: `Rejected \`${TRAP}\` for octocat in commit \`${head(repo).slice(0, 7)}\`. Reason: \`covered by <config-merge-rules> @alice\``,
    })
    expect(exists(repo, `.cairn/pending/pitfall/${TRAP}.md`)).toBe(false)
    expect(repo.git('log', '-1', '--format=%b')).toContain('Reason: covered by <config-merge-rules> @alice\n')
  })

  it('a reason that would render as a link, image, HTML or mention is quoted back in a code span', async () => {
    // Backslash escapes stopped none of GitHub's autolinks: a bare URL or www. name became a link.
    const reasons: [string, string][] = [
      ['dup of https://evil.example/login', '`dup of https://evil.example/login`'],
      ['see www.evil.example and admin@evil.example', '`see www.evil.example and admin@evil.example`'],
      ['see [the fix](https://evil.example/approve)', '`see [the fix](https://evil.example/approve)`'],
      ['![tracker](https://evil.example/p.png)', '`![tracker](https://evil.example/p.png)`'],
      ['<img src=x onerror=alert(1)> <!-- hidden -->', '`<img src=x onerror=alert(1)> <!-- hidden -->`'],
      ['ask @acme/security-team and @octocat', '`ask @acme/security-team and @octocat`'],
      ['use `npm test`, not ``` fences', '````use `npm test`, not ``` fences````'],
    ]
    for (const [reason, quoted] of reasons) {
      const repo = await branch()
      const r = await run(repo, {comment: `/cairn reject ${TRAP} ${reason}`})
      const done = `Rejected \`${TRAP}\` for octocat in commit \`${head(repo).slice(0, 7)}\`.`
      expect(r.reply).toBe(`${done} Reason: ${quoted}`)
      expect(repo.git('log', '-1', '--format=%b')).toContain(`Reason: ${reason}\n`)
    }
  })

  it('an error that quotes a file the branch added is quoted back in a code span', async () => {
    const repo = await branch()
    repo.git('mv', `.cairn/pending/pitfall/${TRAP}.md`, '.cairn/pending/pitfall/see www.evil.example @octocat.md')
    repo.git('commit', '-qm', 'a card file named like a link')
    const r = await run(repo, {comment: '/cairn approve all'})
    const error =
      '"see www.evil.example @octocat" is not a valid card id: ids are kebab-case slugs of lowercase letters, ' +
      'digits and single hyphens. Fix: pass the id as "cairn list" shows it.'
    const reply = [`Nothing happened: \`${error}\`.`, ...USAGE].join('\n')
    expect(r).toEqual({action: 'failed', ids: [], commit: null, reply})
  })

  it('defers to a date', async () => {
    const repo = await branch()
    const r = await run(repo, {comment: `/cairn defer ${TRAP} 2026-12-31`})
    expect(r).toEqual({
      action: 'defer',
      ids: [TRAP],
      commit: head(repo),
      reply: `Deferred \`${TRAP}\` until 2026-12-31 for octocat in commit \`${head(repo).slice(0, 7)}\`.`,
    })
    expect(repo.read(`.cairn/pending/pitfall/${TRAP}.md`)).toContain('deferred_until: 2026-12-31T00:00:00Z\n')
    // A deferred card has a decision: "all" leaves it alone.
    expect((await run(repo, {comment: '/cairn approve all'})).ids).toEqual([BROWSER])
  })

  it('a bad date, an unknown id, an injection-shaped body: failed, with the reason and the commands; nothing written', async () => {
    const repo = await branch()
    const before = snapshot(repo)
    const cases: [string, string][] = [
      [`/cairn defer ${TRAP} 2026-02-30`, 'Nothing happened: `2026-02-30` is not a date; give one date as YYYY-MM-DD.'],
      [
        '/cairn approve no-such-card-anywhere-here',
        'Nothing happened: no pending card with the id `no-such-card-anywhere-here`.',
      ],
      [
        `/cairn reject ${ON_MAIN.replace('stale', 'fresh')} dup`,
        `Nothing happened: no pending card with the id \`${ON_MAIN.replace('stale', 'fresh')}\`.`,
      ],
      [
        '/cairn approve x $(touch pwned)',
        'Nothing happened: `$(touch` is not a card id (ids are kebab-case, e.g. deepmerge-array-replace-trap).',
      ],
      [
        '/cairn approve $(touch pwned) `touch pwned`',
        'Nothing happened: `$(touch` is not a card id (ids are kebab-case, e.g. deepmerge-array-replace-trap).',
      ],
    ]
    for (const [comment, first] of cases) {
      expect(await run(repo, {comment})).toEqual({
        action: 'failed',
        ids: [],
        commit: null,
        reply: [first, ...USAGE].join('\n'),
      })
    }
    expect(snapshot(repo)).toEqual(before)
    expect(exists(repo, 'pwned')).toBe(false)
  })

  it('an author without write access is refused, saying why; no /cairn line is no action at all', async () => {
    const repo = await branch()
    const before = snapshot(repo)
    expect(await run(repo, {comment: '/cairn approve all', association: 'NONE'})).toEqual({
      action: 'refused',
      ids: [],
      commit: null,
      reply:
        "Nothing happened: only a repository owner, member or collaborator can run `/cairn` commands, and this author's association is `NONE`.",
    })
    expect((await run(repo, {comment: '/cairn approve all', association: 'CONTRIBUTOR'})).action).toBe('refused')
    expect((await run(repo, {label: 'cairn:approve', association: ''})).reply).toContain(
      "this author's association is not known.",
    )
    expect(await run(repo, {comment: 'LGTM, ship it'})).toEqual({action: 'none', ids: [], commit: null, reply: ''})
    expect(await run(repo, {comment: undefined})).toEqual({action: 'none', ids: [], commit: null, reply: ''})
    expect(snapshot(repo)).toEqual(before)
  })
})

describe('cairn ci command acts only on the commit its author saw reviewed', () => {
  const AGAIN = 'Review the cards in the cairn comment again, then comment again.'
  const short = (sha: string) => `\`${sha.slice(0, 7)}\``

  it('a review of another commit, or one written in the same second as the command or after it: refused, nothing written', async () => {
    const repo = await branch()
    const before = snapshot(repo)
    const older = repo.git('rev-parse', 'HEAD~1').trim()
    const refused = (detail: string) => ({
      action: 'refused',
      ids: [],
      commit: null,
      reply: `Nothing happened: the branch changed since the review you answered (${detail}). ${AGAIN}`,
    })
    expect(await run(repo, {comment: '/cairn approve all', seen: {CAIRN_REVIEWED: older}})).toEqual(
      refused(`the review shows ${short(older)}, the branch is at ${short(head(repo))}`),
    )
    for (const at of [COMMENTED_AT, '2026-11-29T10:05:01Z', 'not a date']) {
      expect(await run(repo, {comment: `/cairn reject ${TRAP} dup`, seen: {CAIRN_REVIEW_UPDATED_AT: at}})).toEqual(
        refused('the cairn comment was updated after your command was written'),
      )
    }
    // The label: the head it was added at must be the head, and the reviewed one.
    expect(await run(repo, {label: 'cairn:approve', seen: {CAIRN_LABEL_HEAD: older}})).toEqual(
      refused(`the label was added at ${short(older)}, the branch is at ${short(head(repo))}`),
    )
    expect(await run(repo, {comment: `/cairn defer ${TRAP} 2026-12-31`, seen: {CAIRN_REVIEWED: ''}})).toEqual({
      action: 'refused',
      ids: [],
      commit: null,
      reply:
        'Nothing happened: the cairn comment does not say which commit it reviewed (there is none yet, or an older cairn ' +
        'wrote it). Wait for the cairn review check to post it, or run it again, review the cards, then comment again.',
    })
    expect(snapshot(repo)).toEqual(before)
    // Reviewed a second before the command, of this head: it acts.
    expect(
      (await run(repo, {comment: '/cairn approve all', seen: {CAIRN_REVIEW_UPDATED_AT: '2026-11-29T10:04:59Z'}}))
        .action,
    ).toBe('approve')
  })

  it('a workflow that does not say what was reviewed is an error (exit 2), not a reply; nothing written', async () => {
    const repo = await branch()
    const before = snapshot(repo)
    const cases: [Vars, string][] = [
      [{comment: '/cairn approve all', seen: {CAIRN_REVIEWED: undefined}}, 'CAIRN_REVIEWED must be set: '],
      [
        {comment: '/cairn approve all', seen: {CAIRN_COMMENT_CREATED_AT: undefined}},
        'CAIRN_REVIEW_UPDATED_AT and CAIRN_COMMENT_CREATED_AT must be set: ',
      ],
      [{label: 'cairn:approve', seen: {CAIRN_LABEL_HEAD: ''}}, 'CAIRN_LABEL_HEAD must be set: '],
      [
        {comment: '/cairn approve all', seen: {CAIRN_REVIEWED: '`main`'}},
        'CAIRN_REVIEWED "`main`" is not a commit sha',
      ],
    ]
    for (const [vars, message] of cases) {
      const e = await refusal(() => run(repo, vars))
      expect([e.exitCode, e.message.startsWith(message)]).toEqual([2, true])
    }
    expect((await refusal(() => run(repo, cases[0][0]))).message).toBe(
      'CAIRN_REVIEWED must be set: cairn acts only on the commit the review showed. ' +
        'Fix: the cairn-approve.yml that "cairn ci install" writes sets them; run it again, with --force to replace a workflow ' +
        'you edited, and commit the workflow.',
    )
    expect(snapshot(repo)).toEqual(before)
  })
})

describe('cairn ci command (CLI)', () => {
  it('reads the environment, exits 0 for failed and refused, runs no shell', async () => {
    const repo = await branch()
    const env = (vars: Record<string, string>) => ({
      ...repo.env,
      CAIRN_ASSOCIATION: 'MEMBER',
      CAIRN_ACTOR: 'octocat',
      ...seenEnv(repo),
      ...vars,
    })
    const bad = await cli(['ci', 'command', '--since', 'main', '--json'], {
      cwd: repo.dir,
      env: env({CAIRN_COMMENT: '/cairn approve x $(touch pwned)'}),
    })
    expect(bad.code).toBe(0)
    expect(bad.json().data.action).toBe('failed')
    const refused = await cli(['ci', 'command', '--since', 'main'], {
      cwd: repo.dir,
      env: env({CAIRN_COMMENT: '/cairn approve all', CAIRN_ASSOCIATION: 'NONE'}),
    })
    expect(refused.code).toBe(0)
    expect(refused.stdout).toMatch(/^Nothing happened: only a repository owner/)
    expect(exists(repo, 'pwned')).toBe(false)
    const unknownRef = await cli(['ci', 'command', '--since', 'nope'], {
      cwd: repo.dir,
      env: env({CAIRN_COMMENT: '/cairn approve all'}),
    })
    expect(unknownRef.code).toBe(4)
  })

  it('two approve-all runs at once: one commit, no error', async () => {
    const repo = await branch()
    const before = head(repo)
    const env = {
      ...repo.env,
      CAIRN_COMMENT: '/cairn approve all',
      CAIRN_ASSOCIATION: 'COLLABORATOR',
      CAIRN_ACTOR: 'octocat',
      ...seenEnv(repo),
    }
    const both = await Promise.all(
      [0, 1].map(() => cli(['ci', 'command', '--since', 'main', '--json'], {cwd: repo.dir, env})),
    )
    expect(both.map(r => r.code)).toEqual([0, 0])
    const data = both.map(r => r.json().data).sort((a, b) => b.ids.length - a.ids.length)
    expect(data[0]).toMatchObject({action: 'approve', ids: [BROWSER, TRAP], commit: head(repo)})
    // The second finds nothing left to approve, or (when it looks after the first has committed) a branch
    // that is no longer the reviewed commit; either way it writes nothing.
    const moved =
      `Nothing happened: the branch changed since the review you answered (the review shows \`${before.slice(0, 7)}\`, ` +
      `the branch is at \`${head(repo).slice(0, 7)}\`). Review the cards in the cairn comment again, then comment again.`
    expect([
      {
        action: 'approve',
        ids: [],
        commit: null,
        reply: 'Nothing to approve: every pending card this pull request adds has a decision.',
      },
      {action: 'refused', ids: [], commit: null, reply: moved},
    ]).toContainEqual(data[1])
    expect(commitsSince(repo, before)).toBe(1)
    expect(repo.git('status', '--porcelain')).toBe('')
  })
})
