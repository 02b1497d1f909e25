import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {ciCommand} from '../src/app/ci-command.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {card, type Repo, templateRepo} from './helpers.js'
import {ghStubBin, type GhState} from './workflow-runner.js'

/** review.approvers: codeowners (cairn ci command as cairn-approve.yml runs it), against the base branch `main`. */

const PAY = 'payments-idempotency-keys'
const BROAD = 'commit-messages-say-why'
const UI = 'buttons-use-design-tokens'
const ACTIVE = 'ui-strings-get-translated'
const CODEOWNERS = `# Default owner
*                 @maint
/src/payments/    @payer @acme/payments
/.cairn/          @lead
`

const branch = templateRepo(async repo => {
  repo.write('src/payments/charge.ts', 'export const charge = 1\n')
  repo.write('src/ui/button.ts', 'export const button = 1\n')
  repo.write('.github/CODEOWNERS', CODEOWNERS)
  await init(repo.ctx())
  const config = repo.read('.cairn/config.yaml')
  repo.write('.cairn/config.yaml', config.replace('approvers: writers', 'approvers: codeowners'))
  await propose(repo.ctx(), {
    fields: card({slug: ACTIVE, title: 'UI strings are translated', summary: 'Wrap every string.'}),
    phrases: {},
  })
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'code owners')
  await approve(repo.ctx(), {ids: [ACTIVE], store: 'project'})
  repo.git('checkout', '-q', '-b', 'feature')
  const narrow = (slug: string, title: string, paths: string[]) =>
    propose(repo.ctx(), {fields: card({slug, title, summary: `${title}.`, relevance_paths: paths})})
  await narrow(PAY, 'Payments take idempotency keys', ['src/payments/**'])
  await narrow(UI, 'Buttons use the design tokens', ['src/ui/*.ts'])
  await propose(repo.ctx(), {
    fields: card({
      slug: BROAD,
      type: 'guideline',
      title: 'Write the why',
      summary: 'Say why.',
      relevance_scope: 'broad',
    }),
  })
})

interface Vars {
  comment?: string
  label?: string
  actor: string
  /** The gh stub's state (the organisation's teams); by default @acme/payments, visible, with treasurer in it. */
  gh?: Partial<GhState>
}

const head = (repo: Repo) => repo.git('rev-parse', 'HEAD').trim()

async function run(repo: Repo, vars: Vars) {
  const state = path.join(repo.home, 'gh-state.json')
  const gh = {repository: 'acme/widgets', teams: {'acme/payments': ['treasurer']}, ...vars.gh}
  fs.writeFileSync(state, JSON.stringify(gh))
  const sha = head(repo)
  const env = {
    ...repo.env,
    // Only the stub answers `gh api`: never the network.
    PATH: `${ghStubBin(repo.home)}${path.delimiter}${repo.env.PATH}`,
    GH_STUB_STATE: state,
    GH_STUB_LOG: path.join(repo.home, 'gh-log.jsonl'),
    CAIRN_COMMENT: vars.comment,
    CAIRN_LABEL: vars.label,
    CAIRN_ASSOCIATION: 'MEMBER',
    CAIRN_ACTOR: vars.actor,
    CAIRN_REVIEWED: sha,
    CAIRN_REVIEW_UPDATED_AT: '2026-11-29T10:00:00Z',
    ...(vars.label ? {CAIRN_LABEL_HEAD: sha} : {CAIRN_COMMENT_CREATED_AT: '2026-11-29T10:05:00Z'}),
  }
  return ciCommand(repo.ctx({env}), {since: 'main'})
}

const ghCalls = (repo: Repo) =>
  fs
    .readFileSync(path.join(repo.home, 'gh-log.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => (JSON.parse(l) as {argv: string[]}).argv.join(' '))

const LEAD =
  "Nothing happened: `review.approvers` is `codeowners`, so only a card's code owners (by `.github/CODEOWNERS` on `main`)"
const PAY_OWNERS = `- \`${PAY}\`: one of \`@payer\`, \`@acme/payments\` (owning \`src/payments/charge.ts\`).`
const UI_OWNERS = `- \`${UI}\`: one of \`@maint\` (owning \`src/ui/button.ts\`).`
const BROAD_OWNERS = `- \`${BROAD}\`: one of \`@lead\` (owning \`.cairn/cards/guideline/${BROAD}.md\`).`

describe('review.approvers: codeowners', () => {
  it("a commenter who does not own the card's paths is refused, naming who may; an owner is obeyed", async () => {
    const repo = await branch()
    const before = head(repo)
    expect(await run(repo, {comment: `/cairn approve ${PAY}`, actor: 'octocat'})).toEqual({
      action: 'refused',
      ids: [],
      commit: null,
      reply: `${LEAD} may approve it, and octocat is not one of them for:\n${PAY_OWNERS}`,
    })
    expect(head(repo)).toBe(before)
    expect(repo.git('status', '--porcelain')).toBe('')
    // octocat is not @payer, and the team is visible and octocat not in it.
    expect(ghCalls(repo)).toEqual(['api orgs/acme/teams/payments/memberships/octocat', 'api orgs/acme/teams/payments'])

    const r = await run(repo, {comment: `/cairn approve ${PAY}`, actor: 'Payer'})
    expect(r).toMatchObject({action: 'approve', ids: [PAY], commit: head(repo)})
    expect(repo.read(`.cairn/cards/pitfall/${PAY}.md`)).toContain('approved:\n  by: Payer\n')
  })

  it('ids are all or nothing: one card the commenter does not own refuses the command', async () => {
    const repo = await branch()
    const before = head(repo)
    const r = await run(repo, {comment: `/cairn approve ${PAY} ${UI}`, actor: 'payer'})
    expect(r.reply).toBe(`${LEAD} may approve it, and payer is not one of them for:\n${UI_OWNERS}`)
    expect(head(repo)).toBe(before)
  })

  it('approve all approves the cards the commenter owns and lists the rest with who may approve them', async () => {
    const repo = await branch()
    const r = await run(repo, {comment: '/cairn approve all', actor: 'maint'})
    expect(r).toEqual({
      action: 'approve',
      ids: [UI],
      commit: head(repo),
      reply: [
        `Approved \`${UI}\` for maint in commit \`${head(repo).slice(0, 7)}\`.`,
        '',
        'Left for their code owners (`review.approvers: codeowners`, by `.github/CODEOWNERS` on `main`):',
        BROAD_OWNERS,
        PAY_OWNERS,
      ].join('\n'),
    })
    // The label is approve all, as the person who added it.
    const labelled = await run(repo, {label: 'cairn:approve', actor: 'lead'})
    expect(labelled).toMatchObject({action: 'approve', ids: [BROAD]})
    expect(labelled.reply.split('\n').slice(2)).toEqual([
      'Left for their code owners (`review.approvers: codeowners`, by `.github/CODEOWNERS` on `main`):',
      PAY_OWNERS,
    ])
    const none = await run(repo, {comment: '/cairn approve all', actor: 'octocat'})
    expect(none).toMatchObject({action: 'refused', commit: null})
    expect(none.reply).toBe(`${LEAD} may approve it, and octocat is not one of them for:\n${PAY_OWNERS}`)
  })

  it('a member of an owning team is obeyed; a team the token cannot read is said, with the way out', async () => {
    const repo = await branch()
    const before = head(repo)
    for (const gh of [{teamsForbidden: true}, {teams: {}}]) {
      const r = await run(repo, {comment: `/cairn reject ${PAY} not now`, actor: 'treasurer', gh})
      expect(r.action).toBe('refused')
      expect(r.reply.split('\n')[0]).toBe(
        `${LEAD} may reject it, and cairn cannot tell that treasurer is one of them for:`,
      )
      expect(r.reply.split('\n').slice(1)).toEqual([
        `- \`${PAY}\`: one of \`@payer\`, \`@acme/payments\` (owning \`src/payments/charge.ts\`); cairn could not ` +
          'check `@acme/payments` (see below).',
        '',
        'cairn could not tell whether `treasurer` is in `@acme/payments`: the token it has cannot read that team (a ' +
          "workflow's own token cannot read an organisation's teams). Give the workflow a token that can (organisation " +
          'permission Members: read) as the `CAIRN_TEAMS_TOKEN` secret, or name the owners by login in CODEOWNERS.',
      ])
    }
    expect(head(repo)).toBe(before)
    const r = await run(repo, {comment: `/cairn reject ${PAY} not now`, actor: 'treasurer'})
    expect(r).toMatchObject({action: 'reject', ids: [PAY], commit: head(repo)})
  })

  it('verify, modify and archive of an active card follow the same owners', async () => {
    const repo = await branch()
    const before = head(repo)
    // The active card is broad: its file's owner under .cairn/ decides.
    const r = await run(repo, {comment: `/cairn archive ${ACTIVE}`, actor: 'maint'})
    expect(r.reply).toBe(
      `${LEAD} may archive it, and maint is not one of them for:\n` +
        `- \`${ACTIVE}\`: one of \`@lead\` (owning \`.cairn/cards/pitfall/${ACTIVE}.md\`).`,
    )
    const modify = await run(repo, {comment: `/cairn modify ${ACTIVE} title=Translate UI strings`, actor: 'maint'})
    expect(modify.reply.split('\n')[0]).toBe(`${LEAD} may modify it, and maint is not one of them for:`)
    expect(head(repo)).toBe(before)
    expect(await run(repo, {comment: `/cairn verify ${ACTIVE}`, actor: 'lead'})).toMatchObject({action: 'verify'})
  })

  it('the base governs: the branch can change neither review.approvers nor CODEOWNERS for itself', async () => {
    const repo = await branch()
    const config = repo.read('.cairn/config.yaml')
    repo.write('.cairn/config.yaml', config.replace('approvers: codeowners', 'approvers: writers'))
    repo.write('.github/CODEOWNERS', '* @octocat\n')
    repo.git('commit', '-qam', 'let me approve')
    const before = head(repo)
    const r = await run(repo, {comment: `/cairn approve ${PAY}`, actor: 'octocat'})
    expect(r.reply).toBe(`${LEAD} may approve it, and octocat is not one of them for:\n${PAY_OWNERS}`)
    expect(head(repo)).toBe(before)
  })

  it('codeowners with no CODEOWNERS on the base refuses every command, saying what to add', async () => {
    const repo = await branch()
    repo.git('checkout', '-q', 'main')
    repo.git('rm', '-q', '.github/CODEOWNERS')
    repo.git('commit', '-qm', 'no owners')
    repo.git('checkout', '-q', 'feature')
    const r = await run(repo, {comment: `/cairn approve ${PAY}`, actor: 'payer'})
    expect(r).toEqual({
      action: 'refused',
      ids: [],
      commit: null,
      reply:
        'Nothing happened: `review.approvers` is `codeowners` on `main`, but it has no CODEOWNERS file ' +
        '(`.github/CODEOWNERS`, `CODEOWNERS`, `docs/CODEOWNERS`). Add one there, or set `review.approvers: writers`.',
    })
  })

  it('a CODEOWNERS GitHub would not load (a link) refuses every command, naming it', async () => {
    const repo = await branch()
    repo.git('checkout', '-q', 'main')
    fs.rmSync(path.join(repo.dir, '.github/CODEOWNERS'))
    fs.symlinkSync('../README.md', path.join(repo.dir, '.github/CODEOWNERS'))
    repo.git('commit', '-qam', 'owners by link')
    repo.git('checkout', '-q', 'feature')
    const r = await run(repo, {comment: `/cairn approve ${PAY}`, actor: 'payer'})
    expect(r).toMatchObject({action: 'refused', commit: null})
    expect(r.reply).toBe(
      "Nothing happened: the base branch's settings cannot say who may decide: `.github/CODEOWNERS at main: (file): " +
        'is a symbolic link; cairn reads CODEOWNERS only as a regular file. Fix: replace it with a regular file on ' +
        'that branch.`.',
    )
  })

  it('with review.approvers: writers on the base (the default) any writer decides, and GitHub is not asked', async () => {
    const repo = await branch()
    repo.git('checkout', '-q', 'main')
    const config = repo.read('.cairn/config.yaml')
    repo.write('.cairn/config.yaml', config.replace('approvers: codeowners', 'approvers: writers'))
    repo.git('commit', '-qam', 'writers approve')
    repo.git('checkout', '-q', 'feature')
    const r = await run(repo, {comment: '/cairn approve all', actor: 'octocat'})
    expect(r.action).toBe('approve')
    expect([...r.ids].sort()).toEqual([UI, BROAD, PAY].sort())
    expect(fs.existsSync(path.join(repo.home, 'gh-log.jsonl'))).toBe(false)
  })
})
