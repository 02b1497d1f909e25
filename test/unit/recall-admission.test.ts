import {describe, expect, it} from 'vitest'
import {renderLightIndex} from '../../src/recall/match/render.js'
import {buildRegistry} from '../../src/recall/match/signals.js'
import {doc, ids, run} from './recall-fixtures.js'

const commit = doc({
  id: 'git-commit-scope-check',
  title: '提交前隔离无关改动',
  summary: 'Before a commit, check git status and stage only the task files.',
  recall: {policy: 'must', triggers: ['git status', '提交范围', 'staged diff'], topics: ['git']},
  criteria: {use_when: ['commit scope'], ignore_when: ['只读分析']},
  rule: 'NEVER-IN-INDEX: the full rule text',
})

/** 1,000 cards about other things, sharing ordinary words with real prompts. */
const unrelated = Array.from({length: 1000}, (_, i) =>
  doc({
    id: `unrelated-card-number-${String(i).padStart(4, '0')}`,
    title: `Status report ${i} for the release notes`,
    summary: `When writing status report ${i}, keep the diff of the notes small and run the spell check before release.`,
    recall: {triggers: [`report ${i}`, `notes template ${i % 7}`], topics: ['docs', i % 2 ? 'git' : 'status']},
    criteria: {use_when: [`writing report ${i}`]},
  }),
)

describe('admission', () => {
  it('is independent of library size: 1,000 unrelated cards change no admission decision', () => {
    const prompts = [
      'Before commit, run git status and keep the staged diff clean',
      '检查提交范围再提交',
      'show me the git log',
      'write the status report for the release',
    ]
    for (const prompt of prompts) {
      const alone = run([commit], prompt).considered[0]
      const crowded = run([commit, ...unrelated], prompt).considered.find(c => c.doc.id === commit.id)!
      expect(crowded.admitted, prompt).toBe(alone.admitted)
      expect(crowded.evidence.score, prompt).toBe(alone.evidence.score)
    }
    expect(run([commit], prompts[0]).considered[0].admitted).toBe(true)
    expect(run([commit], prompts[2]).considered[0].admitted).toBe(false)
  })

  it('returns nothing when unsure: a single shared topic word or a half-matched phrase is not enough', () => {
    expect(ids(run([commit], 'Write a tomato soup recipe'))).toEqual([])
    expect(ids(run([commit], 'research git hosting providers'))).toEqual([])
    const c = run([commit], 'research git hosting providers').considered[0]
    expect(c.verdict).toMatch(/below the admission threshold/)
  })

  it('an exact trigger admits; scattered words count less; words in a mention span count nothing', () => {
    expect(run([commit], 'run git status first').considered[0].evidence.matches[0]).toMatchObject({
      exact: true,
      score: 1,
    })
    expect(run([commit], 'check the status of git').considered[0].evidence.score).toBeLessThan(1)
    expect(ids(run([commit], 'this is not a git status question, it is about cooking'))).toEqual([])
  })

  it('a near miss on ignore_when counts against a card; the exact phrase excludes it', () => {
    const card = doc({
      id: 'payroll-cutoff-lock',
      recall: {triggers: ['lock approved time entries']},
      criteria: {ignore_when: ['draft timesheet review']},
    })
    const clean = run([card], 'lock approved time entries after cutoff').considered[0]
    const near = run([card], 'lock approved time entries after the review of each draft timesheet').considered[0]
    const exact = run([card], 'lock approved time entries; draft timesheet review later').considered[0]
    expect(clean.evidence.penalty).toBe(0)
    expect(near.evidence.penalty).toBeGreaterThan(0)
    expect(near.evidence.nearMiss?.text).toBe('draft timesheet review')
    expect(near.evidence.score).toBeLessThan(clean.evidence.score)
    expect(exact.verdict).toBe('excluded by ignore_when')
  })

  it("a near miss is judged on the ignore phrase's own words, not the card's subject", () => {
    const invoice = doc({
      id: 'invoice-ledger-csv-export',
      recall: {triggers: ['invoice ledger export', 'download invoice CSV']},
      criteria: {ignore_when: ['invoice dashboard only']},
    })
    expect(run([invoice], "Export this month's invoices as CSV for finance").considered[0].evidence.penalty).toBe(0)
    const near = run([invoice], 'Export the invoice totals shown on the dashboard').considered[0].evidence
    expect(near.nearMiss).toMatchObject({text: 'invoice dashboard only', coverage: 1, score: 1})
  })

  it('a short query is answered when every word of it is in a card', () => {
    expect(ids(run([commit, ...unrelated.slice(0, 20)], 'staged diff'))).toEqual(['git-commit-scope-check'])
  })
})

describe('partial evidence', () => {
  const migration = doc({
    id: 'db-migration-compatible-release',
    title: 'Migrations stay compatible with the running release',
    summary: 'Expand first, contract in a later release.',
    recall: {triggers: ['database migration', 'rename column']},
    criteria: {use_when: ['writing a migration']},
  })

  it('adds up across phrases: half of two different phrases admits, half of one does not', () => {
    const two = run([migration], 'Add a migration that renames users.fullname').considered[0]
    // Half of "database migration" and half of "rename column": 0.8 · 0.5^1.5 each; "writing a
    // migration" holds "migration" again, which counts once.
    expect(two.evidence.matches.filter(m => m.score > 0).map(m => [m.text, m.score])).toEqual([
      ['database migration', 0.283],
      ['rename column', 0.283],
    ])
    expect(two.admitted).toBe(true)
    expect(run([migration], 'Add a migration for the users table').considered[0].admitted).toBe(false)
  })

  it('a phrase held in part only through common words ("add", "version") is no evidence', () => {
    const pin = doc({
      id: 'dependency-pin-exact-version',
      title: 'Pin dependencies to an exact version',
      summary: 'Caret ranges let a minor release break the build.',
      recall: {triggers: ['add dependency', 'version range']},
    })
    const c = run([pin], 'Convert the fibonacci to an iterative version and add a comment').considered[0]
    expect(c.evidence.score).toBe(0)
    expect(c.evidence.matches.filter(m => m.coverage === 0.5).map(m => m.text)).toEqual([
      'add dependency',
      'version range',
    ])
    // A word that says something about the card still counts in part.
    expect(run([pin], 'add a dependency on zod').considered[0].admitted).toBe(true)
  })

  it('a derived trigger of one word supports, but never admits on its own', () => {
    const utc = doc({
      schema: 'cairn/card@2',
      id: 'timezone-store-utc-always',
      title: 'Store timestamps in UTC and convert for display',
      summary: 'Convert to local time only when displaying.',
      recall: {derived_triggers: ['convert', 'store timestamps']},
    })
    const lone = run([utc], 'Convert the callback code to async/await').considered[0]
    expect(lone.evidence.matches[0]).toMatchObject({text: 'convert', exact: true, score: 0.45})
    expect(lone.admitted).toBe(false)
    expect(run([utc], 'store timestamps for orders').considered[0].admitted).toBe(true)
  })
})

describe('neighbours', () => {
  const push = doc({
    id: 'git-force-push-shared-branch',
    title: 'Never force-push a shared branch',
    summary: 'Use --force-with-lease on your own branch after a rebase.',
    recall: {triggers: ['push rejected after rebase', 'git push --force']},
  })
  const conflict = doc({
    id: 'merge-conflict-resolve-first',
    title: 'Resolve merge conflicts before committing',
    summary: 'Never commit conflict markers.',
    recall: {aliases: {en: ['git conflict', 'rebase conflict'], zh: []}},
  })
  const prompt = 'I rebased onto main and now git push gets rejected'

  it('a card whose every matching word also backs a stronger selected card is dropped', () => {
    const r = run([push, conflict], prompt)
    expect(ids(r)).toEqual(['git-force-push-shared-branch'])
    const c = r.considered.find(x => x.doc.id === conflict.id)!
    expect([c.admitted, c.selected]).toEqual([true, false])
    expect(c.evidence.terms.every(t => r.selected[0].evidence.terms.includes(t))).toBe(true)
    expect(c.verdict).toBe(
      'admitted, but every prompt word behind it also backs git-force-push-shared-branch, which matched more strongly',
    )
    // Alone, or with a word of its own in the prompt, it is selected.
    expect(ids(run([conflict], prompt))).toEqual([conflict.id])
    expect(ids(run([push, conflict], `${prompt}, and there is a conflict in package.json`))).toEqual([
      push.id,
      conflict.id,
    ])
  })

  it('a must card is never dropped as a neighbour', () => {
    const must = doc({
      id: 'merge-conflict-resolve-first',
      title: 'Resolve merge conflicts before committing',
      summary: 'Never commit conflict markers.',
      recall: {policy: 'must', aliases: {en: ['git conflict', 'rebase conflict'], zh: []}},
    })
    expect(ids(run([push, must], prompt)).sort()).toEqual([push.id, must.id].sort())
  })
})

describe('selection', () => {
  const card = (id: string, policy: string, trigger: string) => doc({id, recall: {policy, triggers: [trigger]}})
  const many = [
    card('card-alpha-policy-should', 'should', 'deploy'),
    card('card-bravo-policy-should', 'should', 'deploy staging'),
    card('card-charlie-policy-may', 'may', 'deploy the app'),
    card('card-delta-policy-must', 'must', 'deploy'),
    card('card-echo-policy-must', 'must', 'app'),
  ]

  it('at most max_cards, but an admitted must card is never crowded out', () => {
    const r = run(many, 'deploy the app to staging', {maxCards: 2})
    expect(ids(r).sort()).toEqual(['card-delta-policy-must', 'card-echo-policy-must'])
    const three = run(many, 'deploy the app to staging', {maxCards: 3})
    expect(three.selected).toHaveLength(3)
    expect(three.considered.filter(c => c.admitted && !c.selected).map(c => c.verdict)).toEqual([
      'admitted, but over max_cards (3)',
      'admitted, but over max_cards (3)',
    ])
  })
})

describe('light index', () => {
  const registry = buildRegistry()
  it('gives title, id, summary, scope, criteria, why, and the show command, never the rule', () => {
    const r = run([commit], 'Before commit, run git status')
    const text = renderLightIndex(r.selected, registry, 2400)
    expect(text).toContain('提交前隔离无关改动 (git-commit-scope-check) [must]')
    expect(text).toContain('Before a commit, check git status and stage only the task files.')
    expect(text).toContain('Scope: global')
    expect(text).toContain('Use when: commit scope | Ignore when: 只读分析')
    expect(text).toContain('Why: "git status" (trigger)')
    expect(text).toContain('Full rule: cairn show git-commit-scope-check --section rule')
    expect(text).not.toContain('NEVER-IN-INDEX')
  })

  it('stays within the character budget, shrinking entries before dropping any, must cards last', () => {
    const cards = Array.from({length: 4}, (_, i) =>
      doc({
        id: `budget-card-number-${i}`,
        summary: 'x'.repeat(300),
        recall: {policy: i === 3 ? 'must' : 'should', triggers: ['deploy']},
        criteria: {use_when: ['deploy', 'ship', 'release'], ignore_when: ['docs only']},
      }),
    )
    const r = run(cards, 'deploy now')
    for (const budget of [2400, 900, 400, 200]) {
      const text = renderLightIndex(r.selected, registry, budget)
      expect(text.length, String(budget)).toBeLessThanOrEqual(budget)
      expect(text, String(budget)).toContain('budget-card-number-3')
    }
    expect(renderLightIndex(r.selected, registry, 900).match(/cairn show/g)).toHaveLength(4)
    expect(renderLightIndex([], registry, 2400)).toBe('')
  })
})

describe('phrases without content', () => {
  it('a trigger of stop words only admits nothing', () => {
    const vague = doc({id: 'vague-trigger-only-card', recall: {triggers: ['do it', 'the']}})
    expect(ids(run([vague], 'do it the way the docs say'))).toEqual([])
  })
})
