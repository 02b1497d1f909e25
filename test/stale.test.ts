import {describe, expect, it} from 'vitest'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {stale} from '../src/app/stale.js'
import {verify} from '../src/app/verify.js'
import {parseCard} from '../src/domain/card/format.js'
import {card, refusal, type Repo, templateRepo} from './helpers.js'
import {init} from '../src/app/init.js'
import {maintain} from '../src/app/maintain.js'
import {modify} from '../src/app/modify.js'
import {renderMaintain} from '../src/cli/render-lifecycle.js'

const ID = 'parse-config-defaults-trap'
const FILE = `.cairn/cards/pitfall/${ID}.md`
const A = [
  "import {readFileSync} from 'node:fs'",
  '',
  'export function parseConfig(text: string) {',
  '  const data = JSON.parse(text)',
  '  return {...DEFAULTS, ...data}',
  '}',
  '',
  'const DEFAULTS = {retries: 3, timeout: 1000}',
  'export const load = (file: string) => parseConfig(readFileSync(file, "utf8"))',
  'export const VERSION = 1',
  'export const NAME = "config"',
  'export const KINDS = ["json", "yaml"]',
  'export const isKind = (k: string) => KINDS.includes(k)',
  'export const describe = () => `${NAME} v${VERSION}`',
  '',
].join('\n')

/** A store with one active card citing src/a.ts and parseConfig, at a commit tagged base. */
const based = templateRepo(async repo => {
  repo.write('src/a.ts', A)
  repo.write('src/other.ts', 'export const other = 1\n')
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'code')
  await init(repo.ctx())
  await propose(repo.ctx(), {
    fields: card({
      slug: ID,
      title: 'parseConfig drops nested defaults',
      summary: 'When loading config, `parseConfig` in src/a.ts spreads DEFAULTS shallowly; merge nested keys by hand.',
      edit_paths: ['src/a.ts'],
    }),
  })
  await approve(repo.ctx(), {ids: [ID]})
  repo.git('tag', 'base')
})

function commit(repo: Repo, message: string, change: () => void): void {
  change()
  repo.git('add', '-A')
  repo.git('commit', '-qm', message)
}

const reasons = async (repo: Repo) =>
  (await stale(repo.ctx(), {since: 'base'})).cards.map(c => ({id: c.id, reasons: c.reasons}))

describe('cairn stale --since', () => {
  it('propose wrote the evidence: the cited symbol the code holds, and the commit it was confirmed at', async () => {
    const repo = await based()
    const c = parseCard(repo.read(FILE), FILE)
    // Evidence needs @3; who proposed it, @4.
    expect(c.schema).toBe('cairn/card@4')
    expect(c.provenance.recent_paths).toEqual(['src/a.ts'])
    // DEFAULTS is a word the code holds too, but not shaped like code outside a code span; src/a.ts is already cited.
    expect(c.evidence.symbols).toEqual(['parseConfig'])
    expect(c.evidence.paths).toEqual([])
    // HEAD when it was proposed: the commit before the propose commit (and the approve commit, which is base).
    expect(c.evidence.verified_commit).toBe(repo.git('rev-parse', 'base~2').trim())
    expect(c.evidence.verified_at).toBe('2026-11-29T10:00:00Z')
  })

  it('a rename lists the card with the new name', async () => {
    const repo = await based()
    commit(repo, 'rename', () => repo.git('mv', 'src/a.ts', 'src/config.ts'))
    expect(await reasons(repo)).toEqual([{id: ID, reasons: [{kind: 'renamed', path: 'src/a.ts', to: 'src/config.ts'}]}])
  })

  it('a deletion lists the file and the symbol that went with it', async () => {
    const repo = await based()
    commit(repo, 'delete', () => repo.git('rm', '-q', 'src/a.ts'))
    expect(await reasons(repo)).toEqual([
      {
        id: ID,
        reasons: [
          {kind: 'deleted', path: 'src/a.ts'},
          {kind: 'symbol', symbol: 'parseConfig'},
        ],
      },
    ])
    const r = await stale(repo.ctx(), {since: 'base'})
    expect(r.cards[0].why).toEqual(['src/a.ts was deleted', 'parseConfig is no longer found in the repository'])
    expect(r.cards[0].commands).toEqual([`cairn verify ${ID}`, `cairn review modify ${ID}`, `cairn archive ${ID}`])
  })

  it('removing the function lists the symbol; a symbol still found elsewhere is not listed', async () => {
    const repo = await based()
    const without = A.replace(/export function parseConfig[^]*?\n}\n/, 'export const parse = JSON.parse\n').replace(
      'parseConfig(readFileSync',
      'parse(readFileSync',
    )
    commit(repo, 'remove parseConfig', () => repo.write('src/a.ts', without))
    expect(await reasons(repo)).toEqual([{id: ID, reasons: [{kind: 'symbol', symbol: 'parseConfig'}]}])
    commit(repo, 'parseConfig elsewhere', () => repo.write('src/b.ts', 'export const parseConfig = 1\n'))
    expect(await reasons(repo)).toEqual([])
  })

  it('rewriting most of the file lists it with how much changed', async () => {
    const repo = await based()
    // Only parseConfig itself and the blank lines are kept: 8 of the 14 lines change.
    const rewritten = A.split('\n')
      .map((l, i) => (i > 1 && i < 6 ? l : l ? `// ${l} (rewritten)` : l))
      .join('\n')
    commit(repo, 'rewrite', () => repo.write('src/a.ts', rewritten))
    expect(await reasons(repo)).toEqual([
      {id: ID, reasons: [{kind: 'rewritten', path: 'src/a.ts', changed: 8, lines: 14}]},
    ])
  })

  it('an unrelated change lists nothing, and a small edit of the cited file lists nothing', async () => {
    const repo = await based()
    commit(repo, 'other', () => repo.write('src/other.ts', 'export const other = 2\nexport const more = 3\n'))
    commit(repo, 'small', () => repo.write('src/a.ts', A.replace('retries: 3', 'retries: 5')))
    expect(await reasons(repo)).toEqual([])
  })

  it('cairn verify clears the card: its evidence counts from the confirmation', async () => {
    const repo = await based()
    commit(repo, 'delete', () => repo.git('rm', '-q', 'src/a.ts'))
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await verify(repo.ctx(), {ids: [ID]})
    expect(r).toMatchObject({
      verified: [ID],
      verified_commit: head,
      updated: [{id: ID, why: ['src/a.ts was deleted', 'parseConfig is no longer found in the repository']}],
    })
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe(`cairn(verify): ${ID}`)
    expect(repo.git('show', '--name-only', '--format=', 'HEAD').trim()).toBe(FILE)
    // Confirmed as it is: what went is no longer its evidence, so neither stale nor the hook's note names it again.
    const c = parseCard(repo.read(FILE), FILE)
    expect(c.evidence).toEqual({paths: [], symbols: [], verified_at: '2026-11-29T10:00:00Z', verified_commit: head})
    expect(c.provenance.recent_paths).toEqual([])
    expect(await reasons(repo)).toEqual([])
    expect((await stale(repo.ctx())).cards).toEqual([])
  })

  it('cairn verify records a renamed file or folder under its new name, in every path field that cites it', async () => {
    const repo = await based()
    await modify(repo.ctx(), {id: ID, sets: ['paths=src/**,src/a.ts']})
    commit(repo, 'rename', () => repo.git('mv', 'src/a.ts', 'src/config.ts'))
    const r = await verify(repo.ctx(), {ids: [ID]})
    expect(r.updated).toEqual([{id: ID, why: ['src/a.ts was renamed to src/config.ts']}])
    const c = parseCard(repo.read(FILE), FILE)
    expect([c.provenance.recent_paths, c.scope.paths, c.evidence.symbols]).toEqual([
      ['src/config.ts'],
      ['src/**', 'src/config.ts'],
      ['parseConfig'],
    ])
  })

  it('a folder a glob cites, renamed, lists the card with the glob under the new folder', async () => {
    const repo = await based()
    await modify(repo.ctx(), {id: ID, sets: ['paths=src/**/*.ts']})
    commit(repo, 'rename folder', () => repo.git('mv', 'src', 'lib'))
    const r = await stale(repo.ctx(), {since: 'HEAD~1'})
    expect(r.cards.map(c => c.why)).toEqual([
      ['src/**/*.ts was renamed to lib/**/*.ts', 'src/a.ts was renamed to lib/a.ts'],
    ])
  })

  it('verify --all-fresh confirms the untouched cards once the code moved, and only then', async () => {
    const repo = await based()
    // Confirmed at propose; only cairn's own commits since: nothing to confirm.
    expect(await verify(repo.ctx(), {allFresh: true})).toMatchObject({verified: [], skipped: [], commit: null})
    commit(repo, 'other', () => repo.write('src/other.ts', 'export const other = 2\n'))
    const moved = await verify(repo.ctx(), {allFresh: true})
    expect(moved).toMatchObject({verified: [ID], skipped: []})
    expect(moved.commit).toBe(repo.git('rev-parse', 'HEAD').trim())
    expect(await verify(repo.ctx(), {allFresh: true})).toMatchObject({verified: [], commit: null})
    commit(repo, 'delete', () => repo.git('rm', '-q', 'src/a.ts'))
    const held = await verify(repo.ctx(), {allFresh: true})
    expect(held.verified).toEqual([])
    expect(held.skipped).toEqual([
      {id: ID, why: ['src/a.ts was deleted', 'parseConfig is no longer found in the repository']},
    ])
  })

  it('an unknown ref exits 4, and verify refuses what it cannot confirm', async () => {
    const repo = await based()
    expect((await refusal(() => stale(repo.ctx(), {since: 'no-such-branch'}))).code).toBe('not_found')
    expect((await refusal(() => verify(repo.ctx(), {ids: ['no-such-card-here']}))).code).toBe('not_found')
    expect((await refusal(() => verify(repo.ctx(), {ids: ['../etc/passwd']}))).code).toBe('usage')
    expect((await refusal(() => verify(repo.ctx(), {}))).code).toBe('usage')
    await propose(repo.ctx(), {fields: card({slug: 'pending-card-not-active'})})
    const pending = await refusal(() => verify(repo.ctx(), {ids: ['pending-card-not-active']}))
    expect([pending.code, pending.message]).toEqual([
      'invalid_transition',
      '"pending-card-not-active" is pending, and approving it confirms it. Fix: run "cairn review approve pending-card-not-active".',
    ])
  })
})

describe('cairn stale without --since, and maintain', () => {
  it('compares each card with its last confirmation, and lists a card not confirmed for verify_days', async () => {
    const repo = await based()
    commit(repo, 'delete', () => repo.git('rm', '-q', 'src/a.ts'))
    const r = await stale(repo.ctx())
    expect(r.base).toBeNull()
    expect(r.cards.map(c => [c.id, c.why])).toEqual([
      [ID, ['src/a.ts was deleted', 'parseConfig is no longer found in the repository']],
    ])
    await verify(repo.ctx(), {ids: [ID]})
    expect((await stale(repo.ctx())).cards).toEqual([])
    // 181 days after the confirmation, past maintain.verify_days (180).
    const late = (await stale(repo.ctx({now: '2027-05-29T10:00:00Z'}))).cards
    expect(late.map(c => c.why)).toEqual([['not confirmed for 181 days']])
    expect(late[0].reasons).toEqual([{kind: 'unverified', days: 181, since: '2026-11-29T10:00:00Z'}])
  })

  it('maintain demotes a core card whose evidence broke, and archives one whose evidence is all gone after the grace days', async () => {
    const repo = await based()
    await modify(repo.ctx(), {id: ID, sets: ['load=core']})
    commit(repo, 'delete', () => repo.git('rm', '-q', 'src/a.ts'))
    const soon = await maintain(repo.ctx(), {dryRun: true})
    expect(soon.actions).toEqual([
      {
        action: 'demote',
        id: ID,
        path: FILE,
        reasons: ['evidence-broken'],
        detail: `may be stale: src/a.ts was deleted; parseConfig is no longer found in the repository; cairn verify ${ID} confirms it`,
      },
    ])
    expect(renderMaintain(soon)).toContain(
      `stale: 1 card(s) may be stale (${ID}); "cairn stale" lists why, "cairn verify ID" confirms one`,
    )
    const later = await maintain(repo.ctx({now: '2027-01-15T00:00:00Z'}), {dryRun: true})
    expect(later.actions.map(a => [a.action, a.id, a.reasons])).toEqual([['archive', ID, ['evidence-gone']]])
    // A file that is still there keeps the card: only part of its evidence is gone.
    repo.write('src/a.ts', 'export const kept = 1\n')
    commit(repo, 'back', () => {})
    const partly = await maintain(repo.ctx({now: '2027-01-15T00:00:00Z'}), {dryRun: true})
    expect(partly.actions.map(a => [a.action, a.id, a.reasons])).toEqual([['demote', ID, ['evidence-broken']]])
  })
})

describe('what confirms a card, and what does not', () => {
  it('a modify of load or triggers confirms nothing; a modify of its evidence does', async () => {
    const repo = await based()
    commit(repo, 'delete', () => repo.git('rm', '-q', 'src/a.ts'))
    await modify(repo.ctx(), {id: ID, sets: ['load=core', 'triggers=nested config defaults']})
    expect((await stale(repo.ctx())).cards.map(c => c.id)).toEqual([ID])
    expect((await reasons(repo)).map(r => r.id)).toEqual([ID])
    repo.write('src/b.ts', 'export function parseSettings() {}\n')
    commit(repo, 'b', () => {})
    await modify(repo.ctx(), {id: ID, sets: ['symbols=parseSettings', 'evidence_paths=src/b.ts']})
    expect((await stale(repo.ctx())).cards.map(c => c.id)).toEqual([])
    expect(await reasons(repo)).toEqual([])
  })

  it('refuses evidence the repository does not hold, naming each, and writes nothing', async () => {
    const repo = await based()
    const before = repo.read(FILE)
    const e = await refusal(() =>
      modify(repo.ctx(), {id: ID, sets: ['evidence_paths=src/aa.ts', 'symbols=parseConfg']}),
    )
    expect(e.code).toBe('validation')
    expect(e.message.split('\n').slice(1)).toEqual([
      `  - ${FILE}: evidence_paths: src/aa.ts is not in the working tree. Fix: cite a file or folder the repository holds (check the spelling).`,
      `  - ${FILE}: symbols: parseConfg is in none of the repository's files. Fix: cite a symbol the code holds (check the spelling and case).`,
    ])
    expect(repo.read(FILE)).toBe(before)
  })

  it('warns about a card it cannot read, an empty ref is a usage error, and a personal card is not confirmed', async () => {
    const repo = await based()
    repo.write('.cairn/cards/pitfall/broken-yaml-card-here.md', '---\nschema: [oops\n---\n')
    const ctx = repo.ctx()
    await stale(ctx)
    expect(ctx.warnings).toEqual([
      'left out 1 card file(s) that could not be read (.cairn/cards/pitfall/broken-yaml-card-here.md); "cairn lint" explains',
    ])
    expect((await refusal(() => stale(repo.ctx(), {since: ''}))).code).toBe('usage')
    await propose(repo.ctx(), {fields: card({slug: 'personal-indent-style-card', layer: 'personal'})})
    const personal = await refusal(() => verify(repo.ctx(), {ids: ['personal-indent-style-card']}))
    expect([personal.code, personal.message]).toEqual([
      'invalid_transition',
      '"personal-indent-style-card" is a personal card: cards are confirmed against a repository\'s code, so only project cards are. Fix: confirm project cards only.',
    ])
  })
})

describe('review findings', () => {
  it('a symbol only found inside a longer cited symbol is still found', async () => {
    const repo = await based()
    repo.write('src/keys.ts', 'export const key = cfg.review.require_fresh\n')
    commit(repo, 'keys', () => {})
    await modify(repo.ctx(), {id: ID, sets: ['symbols=review.require_fresh,require_fresh,parseConfig']})
    commit(repo, 'touch keys', () => repo.write('src/keys.ts', 'export const key = cfg.review.require_fresh // read\n'))
    expect((await stale(repo.ctx())).cards).toEqual([])
  })

  it('verify --all-fresh refreshes a card that is only overdue, though the code has not moved', async () => {
    const repo = await based()
    const late = '2027-06-01T10:00:00Z'
    expect((await stale(repo.ctx({now: late}))).cards.map(c => c.id)).toEqual([ID])
    expect((await verify(repo.ctx({now: late}), {allFresh: true})).verified).toEqual([ID])
    expect((await stale(repo.ctx({now: late}))).cards).toEqual([])
  })

  it('an evidence path that leaves the repository is refused for what it is, never looked up', async () => {
    const repo = await based()
    const e = await refusal(() => modify(repo.ctx(), {id: ID, sets: ['evidence_paths=../../etc/nonexistent']}))
    expect(e.message).toContain(
      'evidence_paths: ../../etc/nonexistent has a ".." segment, which leaves the repository. Fix: give a path relative',
    )
  })
})

describe('a cited file too big to be source', () => {
  it('is never read to count its lines: rewriting it reports nothing, while a small one is reported', async () => {
    const repo = await based()
    const big = 'x'.repeat(99) + '\n'
    commit(repo, 'data', () => repo.write('src/data.txt', big.repeat(50_000)))
    await modify(repo.ctx(), {id: ID, sets: ['evidence_paths=src/data.txt']})
    repo.git('tag', 'cited')
    commit(repo, 'rewrite the data', () => repo.write('src/data.txt', 'y'.repeat(99).concat('\n').repeat(50_000)))
    expect((await stale(repo.ctx(), {since: 'cited'})).cards).toEqual([])
    commit(repo, 'rewrite a.ts', () => repo.write('src/a.ts', A.replace(/export /g, '// export ')))
    expect((await stale(repo.ctx(), {since: 'cited'})).cards.map(c => c.reasons.map(r => r.kind))).toEqual([
      ['rewritten'],
    ])
  })
})
