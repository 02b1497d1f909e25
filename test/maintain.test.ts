import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {maintain} from '../src/app/maintain.js'
import {renderCard, validateFrontmatter} from '../src/domain/card/format.js'
import {renderBody} from '../src/domain/card/sections.js'
import {initRepo, type Repo, snapshot, templateRepo} from './helpers.js'

function plant(repo: Repo, id: string, over: Record<string, unknown> = {}, rule = `Rule of ${id}.`): string {
  const fm = validateFrontmatter({
    schema: 'cairn/card@1',
    id,
    type: 'guideline',
    status: 'active',
    title: `Title ${id}`,
    summary: `Summary of ${id}.`,
    created: '2026-10-01T00:00:00Z',
    updated: '2026-11-01T00:00:00Z',
    approved: {by: 'tester', at: '2026-10-02T00:00:00Z'},
    ...over,
  })
  const body = renderBody(
    {problem: fm.summary, use_when: [], ignore_when: [], policy: 'may', risk: 'low', rule, evidence: '-'},
    'en',
  )
  const rel = `.cairn/cards/${fm.type}/${id}.md`
  repo.write(rel, renderCard({...fm, body}))
  return rel
}

const planted = templateRepo(async repo => {
  await init(repo.ctx())
  repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('core_budget: 8000', 'core_budget: 320'))
  plant(repo, 'core-budget-card-alpha', {load: 'core'}, 'a'.repeat(120))
  plant(repo, 'core-budget-card-bravo', {load: 'core'}, 'b'.repeat(170))
  plant(repo, 'core-budget-card-charlie', {load: 'core'}, 'c'.repeat(70))
  for (const n of ['one', 'two', 'three']) plant(repo, `stale-guideline-card-${n}`, {updated: '2026-01-01T00:00:00Z'})
  plant(repo, 'keyword-twin-card-early', {keywords: ['cache', 'index'], updated: '2026-11-01T00:00:00Z'})
  plant(repo, 'keyword-twin-card-middle', {keywords: ['index', 'Cache'], updated: '2026-11-10T00:00:00Z'})
  plant(repo, 'keyword-twin-card-latest', {keywords: ['cache', 'index'], updated: '2026-11-20T00:00:00Z'})
  plant(repo, 'deprecated-guideline-card', {status: 'deprecated'})
  plant(repo, 'broken-link-holder-card', {links: ['missing-target-card-id']})
  plant(repo, 'protected-stale-card-kept', {updated: '2025-01-01T00:00:00Z', protected: true})
  repo.write(
    '.cairn/.local/events.jsonl',
    `${JSON.stringify({event: 'card_shown', card: 'core-budget-card-alpha'})}\nnot json\n`,
  )
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'planted store')
})

async function plantedStore() {
  return {repo: await planted(), keep: '.cairn/cards/guideline/protected-stale-card-kept.md'}
}

const EXPECTED_ACTIONS = [
  ['archive', 'deprecated-guideline-card', ['deprecated']],
  ['archive', 'keyword-twin-card-early', ['duplicate-keywords']],
  ['archive', 'keyword-twin-card-middle', ['duplicate-keywords']],
  ['archive', 'stale-guideline-card-one', ['stale']],
  ['archive', 'stale-guideline-card-three', ['stale']],
  ['archive', 'stale-guideline-card-two', ['stale']],
  ['demote', 'core-budget-card-bravo', ['core-over-budget']],
]

describe('maintain', () => {
  it('--dry-run plans exactly and writes nothing', async () => {
    const {repo} = await plantedStore()
    const before = snapshot(repo)
    const plan = await maintain(repo.ctx(), {dryRun: true})
    expect(plan.actions.map(a => [a.action, a.id, a.reasons])).toEqual(EXPECTED_ACTIONS)
    expect(plan.reports).toEqual([
      {
        problem: 'broken-link',
        id: 'broken-link-holder-card',
        path: '.cairn/cards/guideline/broken-link-holder-card.md',
        detail: '[[missing-target-card-id]] does not resolve; fix the link or create the card',
      },
    ])
    expect(plan.skipped).toEqual([{id: 'protected-stale-card-kept', reasons: ['stale'], detail: 'protected: true'}])
    const coreOf = (n: number) =>
      `### Title core-budget-card-${['alpha', 'bravo', 'charlie'][n]} (core-budget-card-${['alpha', 'bravo', 'charlie'][n]})\n`
        .length +
      [120, 170, 70][n] +
      1
    expect(plan.core).toEqual({budget: 320, before: coreOf(0) + coreOf(1) + coreOf(2), after: coreOf(0) + coreOf(2)})
    expect(plan.marker).toBe('untouched')
    expect(snapshot(repo)).toEqual(before)
    expect(fs.existsSync(path.join(repo.dir, '.cairn/.local/.pending-fix'))).toBe(false)
  })

  it('without flags writes the pending-fix marker; --apply carries out the plan in one commit and clears it', async () => {
    const {repo, keep} = await plantedStore()
    const kept = repo.read(keep)
    expect((await maintain(repo.ctx())).marker).toBe('written')
    expect(JSON.parse(repo.read('.cairn/.local/.pending-fix'))).toEqual({
      at: '2026-11-29T10:00:00Z',
      actions: 7,
      reports: 1,
      fix: 'cairn maintain --apply',
    })
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await maintain(repo.ctx(), {apply: true})
    expect(r.actions.map(a => [a.action, a.id, a.reasons])).toEqual(EXPECTED_ACTIONS)
    expect(r.archive).toBe('20261129T100000Z')
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
    const changed = repo
      .git('show', '--name-status', '--format=', 'HEAD')
      .trim()
      .split('\n')
      .map(l => l.split('\t').slice(1).join(' -> '))
    expect(changed.sort()).toEqual(
      [
        '.cairn/cards/guideline/core-budget-card-bravo.md',
        ...EXPECTED_ACTIONS.filter(a => a[0] === 'archive').map(
          a => `.cairn/cards/guideline/${a[1]}.md -> .cairn/archive/20261129T100000Z/cards/guideline/${a[1]}.md`,
        ),
      ].sort(),
    )
    expect(repo.read('.cairn/cards/guideline/core-budget-card-bravo.md')).toContain('\nload: recall\n')
    expect(repo.read(keep)).toBe(kept)
    expect(fs.existsSync(path.join(repo.dir, '.cairn/.local/.pending-fix'))).toBe(false)
    expect(repo.git('status', '--porcelain')).toBe('')
    const again = await maintain(repo.ctx(), {dryRun: true})
    expect(again.actions).toEqual([])
  })

  it('a card without updated is judged by its last commit time', async () => {
    const repo = await initRepo()
    plant(repo, 'undated-old-guideline-card', {updated: null})
    plant(repo, 'undated-new-guideline-card', {updated: null})
    repo.git('add', '.cairn/cards/guideline/undated-old-guideline-card.md')
    execFileSync('git', ['commit', '-qm', 'old card'], {
      cwd: repo.dir,
      env: {...repo.env, GIT_COMMITTER_DATE: '2025-01-01T00:00:00Z', GIT_AUTHOR_DATE: '2025-01-01T00:00:00Z'},
    })
    repo.git('add', '-A')
    execFileSync('git', ['commit', '-qm', 'new card'], {
      cwd: repo.dir,
      env: {...repo.env, GIT_COMMITTER_DATE: '2026-11-01T00:00:00Z', GIT_AUTHOR_DATE: '2026-11-01T00:00:00Z'},
    })
    const plan = await maintain(repo.ctx(), {dryRun: true})
    expect(plan.actions.map(a => [a.id, a.reasons, a.detail])).toEqual([
      ['undated-old-guideline-card', ['stale'], 'not updated for 697 days (stale after 180)'],
    ])
  })
})
