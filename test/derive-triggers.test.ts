import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {importOme} from '../src/app/import-ome.js'
import {modify} from '../src/app/modify.js'
import {propose} from '../src/app/propose.js'
import {recall} from '../src/app/recall.js'
import {approve} from '../src/app/review.js'
import {card, initRepo, refusal} from './helpers.js'

const PENDING = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
const DERIVED = '  triggers: []\n  derived_triggers: [deepMerge, replaces arrays, merging hook config]\n  topics: []\n'

describe('derived triggers at propose', () => {
  it('a card proposed with title and summary only gets derived triggers (a pending card is cairn/card@5)', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {fields: card()})
    const text = repo.read(PENDING)
    expect(text).toMatch(/^---\nschema: cairn\/card@5\n/)
    expect(text).toContain(`recall:\n  policy: may\n  risk: medium\n  confidence: medium\n${DERIVED}`)
  })

  it('a Chinese card derives Chinese phrases', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {
      fields: card({
        slug: 'resolve-merge-conflicts-first',
        type: 'guideline',
        title: '合并冲突必须先解决再提交',
        summary: '合并时出现冲突，要先解决冲突再提交，否则会丢失改动。',
      }),
    })
    expect(repo.read('.cairn/pending/guideline/resolve-merge-conflicts-first.md')).toContain(
      '  derived_triggers: [合并冲突, 提交, 出现冲突, 解决冲突, 丢失改动]\n',
    )
  })

  it('a card with human triggers, from --trigger or the input file, never gets derived ones', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {fields: card(), phrases: {triggers: ['deepMerge hook arrays']}})
    const flagged = repo.read(PENDING)
    expect(flagged).toMatch(/^---\nschema: cairn\/card@5\n/)
    expect(flagged).toContain('  triggers: [deepMerge hook arrays]\n  topics: []\n')
    expect(flagged).not.toContain('derived_triggers')
    const file = path.join(path.dirname(repo.dir), 'card.json')
    fs.writeFileSync(
      file,
      JSON.stringify(card({slug: 'hook-arrays-lost-on-merge', recall: {triggers: ['hooks vanish']}})),
    )
    await propose(repo.ctx(), {file})
    const fromFile = repo.read('.cairn/pending/pitfall/hook-arrays-lost-on-merge.md')
    expect(fromFile).toMatch(/^---\nschema: cairn\/card@5\n/)
    expect(fromFile).not.toContain('derived_triggers')
  })

  it("refuses derived_triggers in proposal input: they are cairn's, triggers are the proposer's", async () => {
    const repo = await initRepo()
    const file = path.join(path.dirname(repo.dir), 'card.json')
    fs.writeFileSync(file, JSON.stringify(card({recall: {derived_triggers: ['x y']}})))
    await expect(propose(repo.ctx(), {file})).rejects.toThrow('recall.derived_triggers: unknown field')
  })
})

describe('derived triggers at OME import', () => {
  it('an imported card without triggers gets derived ones; one with triggers keeps only its own', async () => {
    const repo = await initRepo()
    const file = path.join(path.dirname(repo.dir), 'ome.json')
    fs.writeFileSync(
      file,
      JSON.stringify([
        {
          id: 'no-trigger-card',
          title: 'Use path.join for Windows paths',
          summary: 'String concatenation breaks on Windows backslashes.',
        },
        {
          id: 'own-trigger-card',
          title: 'Quote shell variables',
          summary: 'Unquoted variables split on spaces.',
          recall: {triggers: ['quote $VAR']},
        },
      ]),
    )
    await importOme(repo.ctx(), {path: file})
    const derived = repo.read('.cairn/pending/guideline/no-trigger-card.md')
    expect(derived).toMatch(/^---\nschema: cairn\/card@5\n/)
    expect(derived).toContain(
      '  triggers: []\n  derived_triggers: [path.join, windows paths, concatenation breaks, windows backslashes]\n',
    )
    const own = repo.read('.cairn/pending/guideline/own-trigger-card.md')
    expect(own).toMatch(/^---\nschema: cairn\/card@5\n/)
    expect(own).not.toContain('derived_triggers')
  })
})

describe('review modify takes over from derived triggers', () => {
  it('--set triggers=... replaces them: the derived ones go, in one commit', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {fields: card()})
    const head = repo.git('rev-parse', 'HEAD').trim()
    const before = repo.read(PENDING)
    const r = await modify(repo.ctx(), {
      id: 'deepmerge-array-replace-trap',
      sets: ['triggers=deepMerge hook arrays， stop hook vanished,'],
    })
    expect(r.changed).toEqual(['triggers'])
    expect(repo.read(PENDING)).toBe(
      before.replace(DERIVED, '  triggers: [deepMerge hook arrays, stop hook vanished]\n  topics: []\n'),
    )
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('--set derived_triggers= clears them alone; a value is refused with the fix', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {fields: card()})
    const before = repo.read(PENDING)
    const e = await refusal(() =>
      modify(repo.ctx(), {id: 'deepmerge-array-replace-trap', sets: ['derived_triggers=x y']}),
    )
    expect(e.exitCode).toBe(6)
    expect(e.data).toEqual({
      issues: [
        {
          file: PENDING,
          field: 'derived_triggers',
          message: 'can only be cleared: cairn derives them',
          fix: 'give your phrases with --set triggers=<phrase>,<phrase>',
        },
      ],
    })
    expect(repo.read(PENDING)).toBe(before)
    await modify(repo.ctx(), {id: 'deepmerge-array-replace-trap', sets: ['derived_triggers=']})
    expect(repo.read(PENDING)).toBe(before.replace(DERIVED, '  triggers: []\n  topics: []\n'))
  })

  it('an empty --set triggers= keeps the derived ones', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {fields: card()})
    const before = repo.read(PENDING)
    await modify(repo.ctx(), {id: 'deepmerge-array-replace-trap', sets: ['triggers=']})
    expect(repo.read(PENDING)).toBe(before)
  })
})

describe('the matcher reads derived triggers as triggers', () => {
  it('a Chinese card proposed with title and summary only is recalled by a prompt with extra words, through its derived triggers', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {
      fields: card({
        slug: 'resolve-merge-conflicts-first',
        type: 'guideline',
        title: '合并冲突必须先解决再提交',
        summary: '合并时出现冲突，要先解决冲突再提交，否则会丢失改动。',
      }),
    })
    await approve(repo.ctx(), {ids: ['resolve-merge-conflicts-first']})
    const ids = async (prompt: string) => (await recall(repo.ctx(), {prompt})).cards.map(c => c.id)
    expect(await ids('怎么处理合并冲突')).toEqual(['resolve-merge-conflicts-first'])
    // The same card without them: the prompt no longer finds it.
    await modify(repo.ctx(), {id: 'resolve-merge-conflicts-first', sets: ['derived_triggers=']})
    expect(await ids('怎么处理合并冲突')).toEqual([])
  })
})
