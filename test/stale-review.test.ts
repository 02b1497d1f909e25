import {describe, expect, it} from 'vitest'
import {ciCommand} from '../src/app/ci-command.js'
import {ciReview} from '../src/app/ci-review.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {parseCiCommand} from '../src/domain/ci/command.js'
import {card, type Repo, templateRepo} from './helpers.js'

const ID = 'parse-config-defaults-trap'
const OTHER = 'retry-budget-worker-queue'

/** main: two active cards, one citing src/a.ts and parseConfig; a branch "feature" that deletes src/a.ts. */
const pr = templateRepo(async repo => {
  repo.write('src/a.ts', 'export function parseConfig() {}\n')
  repo.write('src/b.ts', 'export const b = 1\n')
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'code')
  await init(repo.ctx())
  await propose(repo.ctx(), {
    records: {
      data: [
        card({slug: ID, summary: 'Call `parseConfig` before reading the file.', edit_paths: ['src/a.ts']}),
        card({slug: OTHER, summary: 'The queue worker retries three times.', source_sessions: ['s2']}),
      ],
      label: 'cards',
    },
  })
  await approve(repo.ctx(), {all: true})
  repo.git('checkout', '-qb', 'feature')
})

function change(repo: Repo, message: string, fn: () => void): void {
  fn()
  repo.git('add', '-A')
  repo.git('commit', '-qm', message)
}

function requireFresh(repo: Repo): void {
  repo.git('checkout', '-q', 'main')
  change(repo, 'require fresh', () =>
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('require_fresh: false', 'require_fresh: true'),
    ),
  )
  repo.git('checkout', '-q', 'feature')
  repo.git('merge', '-q', 'main')
}

const seen = (repo: Repo) => ({
  CAIRN_REVIEWED: repo.git('rev-parse', 'HEAD').trim(),
  CAIRN_REVIEW_UPDATED_AT: '2026-11-29T10:00:00Z',
  CAIRN_COMMENT_CREATED_AT: '2026-11-29T10:05:00Z',
  CAIRN_ASSOCIATION: 'MEMBER',
  CAIRN_ACTOR: 'octocat',
})
const command = (repo: Repo, comment: string) =>
  ciCommand(repo.ctx({env: {...repo.env, ...seen(repo), CAIRN_COMMENT: comment}}), {since: 'main'})

describe('ci review: cards a pull request may make stale', () => {
  it('a pull request that deletes a cited file gets the section with the card, why, and the three commands', async () => {
    const repo = await pr()
    change(repo, 'delete a', () => repo.git('rm', '-q', 'src/a.ts'))
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect([r.needed, r.check.ok, r.stale.map(c => c.id)]).toEqual([true, true, [ID]])
    const section = r.comment.slice(r.comment.indexOf('### Cards this change may make stale'))
    expect(section.split('\n').slice(0, 8)).toEqual([
      '### Cards this change may make stale',
      '',
      'These active cards cite files or symbols this pull request deletes, renames or rewrites. For each, comment one of:',
      '',
      `- \`${ID}\`: \`deepMerge replaces arrays\``,
      '  - `src/a.ts was deleted`',
      '  - `parseConfig is no longer found in the repository`',
      `  - still true (a renamed file is then cited by its new name): \`/cairn verify ${ID}\` · needs a change: \`/cairn modify ${ID} <field>=<value>\` · no longer applies: \`/cairn archive ${ID}\``,
    ])
  })

  it('after a rename, /cairn verify records the new name where the card cited the old one', async () => {
    const repo = await pr()
    change(repo, 'rename a', () => repo.git('mv', 'src/a.ts', 'src/config.ts'))
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.stale.map(c => c.why)).toEqual([['src/a.ts was renamed to src/config.ts']])
    expect((await command(repo, `/cairn verify ${ID}`)).action).toBe('verify')
    expect(repo.read(`.cairn/cards/pitfall/${ID}.md`)).toContain('recent_paths: [src/config.ts]')
    expect((await ciReview(repo.ctx(), {since: 'main'})).stale).toEqual([])
  })

  it('a pull request that touches no evidence and not .cairn/ needs no comment', async () => {
    const repo = await pr()
    change(repo, 'edit b', () => repo.write('src/b.ts', 'export const b = 2\n'))
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect([r.needed, r.check.ok, r.stale]).toEqual([false, true, []])
  })

  it('with review.require_fresh the check fails until the card is verified, and /cairn verify clears it', async () => {
    const repo = await pr()
    requireFresh(repo)
    change(repo, 'delete a', () => repo.git('rm', '-q', 'src/a.ts'))
    const failing = await ciReview(repo.ctx(), {since: 'main'})
    expect(failing.check).toEqual({
      ok: false,
      problems: [
        `${ID}: may be stale (src/a.ts was deleted; parseConfig is no longer found in the repository); verify, modify or archive it (review.require_fresh is on)`,
      ],
    })
    const before = repo.git('rev-parse', 'HEAD').trim()
    const done = await command(repo, `/cairn verify ${ID}`)
    expect(done).toMatchObject({action: 'verify', ids: [ID]})
    expect(done.reply).toMatch(new RegExp(`^Confirmed \`${ID}\` for octocat in commit \`[0-9a-f]{7}\`\\.$`))
    expect(repo.git('rev-list', '--count', `${before}..HEAD`).trim()).toBe('1')
    const passing = await ciReview(repo.ctx(), {since: 'main'})
    expect([passing.check.ok, passing.stale, passing.needed]).toEqual([true, [], true])
    expect(passing.comment).not.toContain('may make stale')
  })

  it('a change of the card that does not touch what it cites (load, triggers) does not clear it', async () => {
    const repo = await pr()
    change(repo, 'delete a', () => repo.git('rm', '-q', 'src/a.ts'))
    const r = await command(repo, `/cairn modify ${ID} load=core triggers=nested config defaults`)
    expect(r.action).toBe('modify')
    expect((await ciReview(repo.ctx(), {since: 'main'})).stale.map(c => c.id)).toEqual([ID])
  })

  it('/cairn modify and /cairn archive clear it too; a pending or unknown id is refused with the reason', async () => {
    const repo = await pr()
    requireFresh(repo)
    change(repo, 'rename a', () => repo.git('mv', 'src/a.ts', 'src/config.ts'))
    const modified = await command(repo, `/cairn modify ${ID} evidence_paths=src/config.ts`)
    expect(modified.action).toBe('modify')
    expect((await ciReview(repo.ctx(), {since: 'main'})).check.ok).toBe(true)
    const unknown = await command(repo, '/cairn archive no-such-card-here')
    expect(unknown.action).toBe('failed')
    expect(unknown.reply.split('\n')[0]).toBe('Nothing happened: no active card with the id `no-such-card-here`.')
    const archived = await command(repo, `/cairn archive ${OTHER}`)
    expect(archived).toMatchObject({action: 'archive', ids: [OTHER]})
  })
})

describe('parseCiCommand: verify, archive, modify', () => {
  it('reads ids, and modify sets whose values may hold spaces', () => {
    expect(parseCiCommand({comment: `/cairn verify ${ID} ${OTHER} ${ID}`})).toEqual({kind: 'verify', ids: [ID, OTHER]})
    expect(parseCiCommand({comment: `/cairn archive ${ID}`})).toEqual({kind: 'archive', ids: [ID]})
    expect(parseCiCommand({comment: `/cairn modify ${ID} triggers=deep merge,stop hook load=core`})).toEqual({
      kind: 'modify',
      id: ID,
      sets: ['triggers=deep merge,stop hook', 'load=core'],
    })
    expect(parseCiCommand({comment: '/cairn verify'})).toEqual({
      kind: 'failed',
      reason: '`/cairn verify` needs the ids of the cards',
    })
    expect(parseCiCommand({comment: `/cairn modify ${ID}`})).toEqual({
      kind: 'failed',
      reason: '`/cairn modify` needs the id and at least one `field=value`',
    })
    expect(parseCiCommand({comment: `/cairn modify ${ID} oops load=core`})).toEqual({
      kind: 'failed',
      reason: '`oops` is not `field=value`',
    })
    expect(parseCiCommand({comment: '/cairn verify ../../etc'}).kind).toBe('failed')
  })
})
