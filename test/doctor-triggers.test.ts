import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {doctor} from '../src/app/doctor.js'
import {modify} from '../src/app/modify.js'
import {cli, initRepo, type Repo} from './helpers.js'

interface OldCardOptions {
  id: string
  type: string
  status: string
  title: string
  summary: string
  recall?: string
  rule?: string
}

/** A card as a cairn from before derived triggers wrote it (cairn/card@1). */
const oldCard = ({id, type, status, title, summary, recall = '', rule = 'Append hook arrays.'}: OldCardOptions) =>
  `---\nschema: cairn/card@1\nid: ${id}\ntype: ${type}\nstatus: ${status}\ntitle: ${title}\nsummary: ${summary}\n${recall}` +
  `created: 2026-11-01T00:00:00Z\nupdated: 2026-11-01T00:00:00Z\n---\n## Rule\n\n\`\`\`text\n${rule}\n\`\`\`\n`

const ACTIVE = '.cairn/cards/pitfall/deepmerge-array-replace-trap.md'
const PENDING = '.cairn/pending/guideline/resolve-merge-conflicts-first.md'
const VAGUE = '.cairn/cards/guideline/fix-the-code-properly.md'

async function olderStore(): Promise<Repo> {
  const repo = await initRepo()
  repo.write(
    ACTIVE,
    oldCard({
      id: 'deepmerge-array-replace-trap',
      type: 'pitfall',
      status: 'active',
      title: 'deepMerge replaces arrays',
      summary: 'When merging hook config, deepMerge replaces arrays; append and dedupe instead.',
      recall: 'recall: {policy: should} # tuned by hand\n',
    }),
  )
  repo.write(
    PENDING,
    oldCard({
      id: 'resolve-merge-conflicts-first',
      type: 'guideline',
      status: 'draft',
      title: '合并冲突必须先解决再提交',
      summary: '合并时出现冲突，要先解决冲突再提交。',
    }),
  )
  repo.write(
    VAGUE,
    oldCard({
      id: 'fix-the-code-properly',
      type: 'guideline',
      status: 'active',
      title: 'Fix the code',
      summary: 'Update the file and add a test.',
      recall: '',
      rule: 'Do it right.',
    }),
  )
  repo.write(
    '.cairn/cards/pitfall/quote-shell-variables-always.md',
    oldCard({
      id: 'quote-shell-variables-always',
      type: 'pitfall',
      status: 'active',
      title: 'Quote shell variables',
      summary: 'Unquoted variables split on spaces.',
      recall: 'recall: {triggers: [quote $VAR]}\n',
    }),
  )
  repo.write(
    '.cairn/cards/pitfall/old-deprecated-lesson-here.md',
    oldCard({
      id: 'old-deprecated-lesson-here',
      type: 'pitfall',
      status: 'deprecated',
      title: 'Tabs in YAML files',
      summary: 'YAML refuses tab indentation.',
    }),
  )
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'cards from an older cairn')
  return repo
}

const DERIVED_ACTIVE = (text: string) =>
  text
    .replace('schema: cairn/card@1', 'schema: cairn/card@2')
    .replace(
      'recall: {policy: should} # tuned by hand',
      'recall: {policy: should, derived_triggers: [deepMerge, replaces arrays, merging hook config]} # tuned by hand',
    )
// An older cairn's pending card said status: draft; the rewrite names it pending, which needs cairn/card@5.
const DERIVED_PENDING = (text: string) =>
  text
    .replace('schema: cairn/card@1', 'schema: cairn/card@5')
    .replace('status: draft', 'status: pending')
    .replace(
      'summary: 合并时出现冲突，要先解决冲突再提交。\n',
      'summary: 合并时出现冲突，要先解决冲突再提交。\nrecall:\n  derived_triggers: [合并冲突, 提交, 出现冲突, 解决冲突]\n',
    )

const triggerChecks = (r: Awaited<ReturnType<typeof doctor>>) => r.checks.filter(c => c.check === 'triggers')
const doctorCommits = (repo: Repo) =>
  repo.git('log', '--format=%s', '--grep=Cairn-Op: doctor').trim().split('\n').filter(Boolean)

describe('doctor and cards without triggers', () => {
  it('reports each active or pending card with no triggers, naming the file; --fix derives them in one commit', async () => {
    const repo = await olderStore()
    const before = {active: repo.read(ACTIVE), pending: repo.read(PENDING), vague: repo.read(VAGUE)}
    const own = (id: string) => `cairn review modify ${id} --set triggers=<phrase>,<phrase>`
    const warning = (file: string, fix: string) => ({
      store: 'project',
      check: 'triggers',
      status: 'warning',
      detail: `${file} has no triggers and no derived triggers: no prompt finds it by its words`,
      fix,
    })
    const report = await doctor(repo.ctx())
    expect(report.healthy).toBe(true)
    expect(triggerChecks(report)).toEqual([
      warning(
        PENDING,
        `run "cairn doctor --fix" to derive them, or give your own: ${own('resolve-merge-conflicts-first')}`,
      ),
      warning(VAGUE, `give triggers: ${own('fix-the-code-properly')}`),
      warning(
        ACTIVE,
        `run "cairn doctor --fix" to derive them, or give your own: ${own('deepmerge-array-replace-trap')}`,
      ),
    ])
    const head = repo.git('rev-parse', 'HEAD').trim()
    const fixed = await doctor(repo.ctx(), {fix: true})
    expect(fixed.fixed).toEqual([
      expect.stringMatching(/^derived triggers for 2 card\(s\) in the project store \(commit [0-9a-f]{12}\)$/),
    ])
    expect(repo.read(ACTIVE)).toBe(DERIVED_ACTIVE(before.active))
    expect(repo.read(PENDING)).toBe(DERIVED_PENDING(before.pending))
    expect(repo.read(VAGUE)).toBe(before.vague)
    expect(repo.git('log', '--format=%s%n%b', `${head}..HEAD`).trim().split('\n').filter(Boolean)).toEqual([
      'cairn(doctor): derive triggers for 2 cards',
      'Cairn-Op: doctor',
      'Cairn-Card: resolve-merge-conflicts-first',
      'Cairn-Card: deepmerge-array-replace-trap',
      'Cairn-Actor: tester',
      'Cairn-Format: 1',
    ])
    expect(triggerChecks(fixed)).toEqual([warning(VAGUE, `give triggers: ${own('fix-the-code-properly')}`)])
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
    const derivedAt = repo.git('rev-parse', 'HEAD').trim()
    const again = await doctor(repo.ctx(), {fix: true})
    expect(again.fixed).toEqual([])
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(derivedAt)
  })

  it('two doctor --fix at once: the cards are derived once, in one commit', async () => {
    const repo = await olderStore()
    const before = {active: repo.read(ACTIVE), pending: repo.read(PENDING)}
    const [a, b] = await Promise.all([doctor(repo.ctx(), {fix: true}), doctor(repo.ctx(), {fix: true})])
    expect([...a.fixed, ...b.fixed].filter(f => f.startsWith('derived triggers for 2 card(s)'))).toHaveLength(1)
    expect(doctorCommits(repo)).toEqual(['cairn(doctor): derive triggers for 2 cards'])
    expect(repo.read(ACTIVE)).toBe(DERIVED_ACTIVE(before.active))
    expect(repo.read(PENDING)).toBe(DERIVED_PENDING(before.pending))
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
  })

  it("doctor --fix racing a person who gives triggers: the person's triggers win and no derived ones stay", async () => {
    const repo = await olderStore()
    await Promise.all([
      doctor(repo.ctx(), {fix: true}),
      modify(repo.ctx(), {id: 'deepmerge-array-replace-trap', sets: ['triggers=deepMerge hook arrays']}),
    ])
    const text = repo.read(ACTIVE)
    expect(text).toMatch(/^---\nschema: cairn\/card@1\n/)
    expect(text).toContain('recall: {policy: should, triggers: [deepMerge hook arrays]} # tuned by hand\n')
    expect(text).not.toContain('derived_triggers')
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
  })

  for (const point of ['rename:1', 'before-commit']) {
    it(`doctor --fix killed at ${point}: the next doctor --fix rolls it back, then derives once`, async () => {
      const repo = await olderStore()
      const before = {active: repo.read(ACTIVE), pending: repo.read(PENDING)}
      const killed = await cli(['doctor', '--fix'], {cwd: repo.dir, env: {...repo.env, CAIRN_TEST_CRASH: point}})
      expect(killed.code).toBe(-1)
      expect(fs.existsSync(path.join(repo.dir, '.git/cairn-journal.json'))).toBe(true)
      const fixed = await doctor(repo.ctx(), {fix: true})
      expect(fixed.fixed).toEqual([
        expect.stringContaining('rolled back an interrupted cairn doctor in the project store'),
        expect.stringMatching(/^derived triggers for 2 card\(s\) in the project store/),
      ])
      expect(doctorCommits(repo)).toEqual(['cairn(doctor): derive triggers for 2 cards'])
      expect(repo.read(ACTIVE)).toBe(DERIVED_ACTIVE(before.active))
      expect(repo.read(PENDING)).toBe(DERIVED_PENDING(before.pending))
      expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
    })
  }

  it('a temp file an interrupted write left is removed under the lock: two doctor --fix report it once', async () => {
    const repo = await olderStore()
    const temp = '.cairn/pending/guideline/.resolve-merge-conflicts-first.md.cairn-tmp-1-abcd'
    repo.write(temp, 'x')
    const [a, b] = await Promise.all([doctor(repo.ctx(), {fix: true}), doctor(repo.ctx(), {fix: true})])
    expect([...a.fixed, ...b.fixed].filter(f => f.startsWith('removed'))).toEqual([
      'removed 1 temp file(s) an interrupted write left in the project store',
    ])
    expect(fs.existsSync(path.join(repo.dir, temp))).toBe(false)
  })
})
