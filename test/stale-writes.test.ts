import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {doctor} from '../src/app/doctor.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {stale} from '../src/app/stale.js'
import {verify} from '../src/app/verify.js'
import {parseCard} from '../src/domain/card/format.js'
import {card, cli, type Repo, templateRepo} from './helpers.js'

const IDS = ['parse-config-defaults-trap', 'retry-budget-worker-queue', 'ledger-rounding-half-even']
const file = (id: string) => `.cairn/cards/pitfall/${id}.md`

/** Three active cards citing src/a.ts, each naming parseConfig; src/a.ts deleted since the tag base. */
const three = templateRepo(async repo => {
  repo.write('src/a.ts', 'export function parseConfig() {}\n')
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'code')
  await init(repo.ctx())
  await propose(repo.ctx(), {
    records: {
      data: IDS.map(slug => card({slug, summary: `Call \`parseConfig\` first (${slug}).`, edit_paths: ['src/a.ts']})),
      label: 'cards',
    },
  })
  await approve(repo.ctx(), {all: true})
  repo.git('tag', 'base')
  repo.git('rm', '-q', 'src/a.ts')
  repo.git('commit', '-qm', 'delete')
})

const verifiedAt = (repo: Repo, id: string) => parseCard(repo.read(file(id)), file(id)).evidence.verified_commit

describe('cairn verify writes', () => {
  it('happy: one commit touching only the named cards; --all-fresh leaves the stale ones and lists them', async () => {
    const repo = await three()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await verify(repo.ctx(), {allFresh: true})
    expect(r.verified).toEqual([])
    expect(r.skipped.map(s => s.id)).toEqual(IDS.slice().sort())
    expect(r.commit).toBeNull()
    const one = await verify(repo.ctx(), {ids: [IDS[0], IDS[1]]})
    expect(repo.git('show', '--name-only', '--format=%s', 'HEAD').trim().split('\n')).toEqual([
      'cairn(verify): 2 cards',
      '',
      file(IDS[0]),
      file(IDS[1]),
    ])
    expect(one.commit).toBe(repo.git('rev-parse', 'HEAD').trim())
    expect([verifiedAt(repo, IDS[0]), verifiedAt(repo, IDS[1])]).toEqual([head, head])
    expect((await stale(repo.ctx(), {since: 'base'})).cards.map(c => c.id)).toEqual([IDS[2]])
  })

  it('concurrent: three verify processes at once each land one commit, and no confirmation is lost', async () => {
    const repo = await three()
    const runs = await Promise.all(IDS.map(id => cli(['verify', id], {cwd: repo.dir, env: repo.env})))
    expect(runs.map(r => [r.code, r.stderr])).toEqual(IDS.map(() => [0, '']))
    expect(repo.git('log', '--format=%s', '-3').trim().split('\n').sort()).toEqual(
      IDS.map(id => `cairn(verify): ${id}`).sort(),
    )
    for (const id of IDS) expect(verifiedAt(repo, id)).toMatch(/^[0-9a-f]{40}$/)
    expect(repo.git('status', '--porcelain')).toBe('')
    expect((await stale(repo.ctx(), {since: 'base'})).cards).toEqual([])
  })

  for (const point of ['after-journal', 'before-add', 'before-commit', 'during-commit']) {
    it(`killed at ${point}: the next write rolls back or finishes, and the store is as before or as after`, async () => {
      const repo = await three()
      const before = IDS.map(id => repo.read(file(id)))
      const killed = await cli(['verify', ...IDS], {cwd: repo.dir, env: {...repo.env, CAIRN_TEST_CRASH: point}})
      expect(killed.code).toBe(-1)
      const ctx = repo.ctx()
      await verify(ctx, {ids: [IDS[0]]})
      expect(ctx.warnings).toEqual([expect.stringMatching(/^(rolled back|finished) an interrupted cairn verify/)])
      expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
      const after = IDS.map(id => repo.read(file(id)))
      // Rolled back: only IDS[0] changed since; finished: all three carry a confirmation.
      const finished = after[2] !== before[2]
      if (!finished) expect(after.slice(1)).toEqual(before.slice(1))
      else for (const id of IDS) expect(verifiedAt(repo, id)).toMatch(/^[0-9a-f]{40}$/)
      expect(fs.existsSync(path.join(repo.dir, '.git/cairn-journal.json'))).toBe(false)
    })
  }
})

/**
 * The three cards as an older cairn wrote them (no evidence block, no proposer, @2: they have derived triggers), src/a.ts
 * back.
 */
function olderCards(repo: Repo): string {
  for (const id of IDS) {
    const text = repo.read(file(id))
    repo.write(
      file(id),
      text
        .replace(/^schema: cairn\/card@4$/m, 'schema: cairn/card@2')
        .replace(/^evidence:\n(?: {2}.*\n)+/m, '')
        .replace(/^ {2}(?:proposed_by|client|via|session):.*\n/gm, ''),
    )
  }
  repo.write('src/a.ts', 'export function parseConfig() {}\n')
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'older cards, code back')
  return repo.git('rev-parse', 'HEAD').trim()
}

describe('doctor and cards older than evidence', () => {
  it('reports active cards naming code with no evidence; --fix records it in one commit, confirmed at their last commit', async () => {
    const repo = await three()
    const last = olderCards(repo)
    const checked = await doctor(repo.ctx())
    const evidence = checked.checks.filter(c => c.check === 'evidence')
    expect(evidence).toEqual([
      {
        store: 'project',
        check: 'evidence',
        status: 'warning',
        detail: `3 active card(s) name code the repository holds but record no evidence (${IDS.slice().sort().join(', ')}): cairn stale cannot tell when that code goes`,
        fix: 'run "cairn doctor --fix" to record it (those cards become cairn/card@3)',
      },
    ])
    const fixed = await doctor(repo.ctx(), {fix: true})
    expect(fixed.fixed).toEqual([
      expect.stringMatching(/^recorded the evidence of 3 card\(s\) \(commit [0-9a-f]{12}\)$/),
    ])
    for (const id of IDS) {
      const c = parseCard(repo.read(file(id)), file(id))
      expect([c.schema, c.evidence.symbols, c.evidence.verified_commit]).toEqual([
        'cairn/card@3',
        ['parseConfig'],
        last,
      ])
    }
    expect((await doctor(repo.ctx())).checks.find(c => c.check === 'evidence')?.status).toBe('ok')
  })

  it("--fix records a symbol the card's last commit held though HEAD no longer does, so cairn stale then says it went", async () => {
    const repo = await three()
    const last = olderCards(repo)
    repo.write('src/a.ts', 'export function loadConfig() {}\n')
    repo.git('commit', '-qam', 'renamed the function')
    await doctor(repo.ctx(), {fix: true})
    const c = parseCard(repo.read(file(IDS[0])), file(IDS[0]))
    expect(c.evidence.symbols).toEqual(['parseConfig'])
    expect(c.evidence.verified_commit).toBe(last)
    expect(c.evidence.verified_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect((await stale(repo.ctx())).cards.map(s => s.why)).toEqual(
      IDS.map(() => ['parseConfig is no longer found in the repository']),
    )
  })
})
