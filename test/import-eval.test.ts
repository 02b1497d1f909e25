import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {evalRecall} from '../src/app/eval-recall.js'
import {importOme} from '../src/app/import-ome.js'
import {show} from '../src/app/show.js'
import {renderCard} from '../src/domain/card/format.js'
import {omeToCard} from '../src/domain/ome.js'
import {createContext} from '../src/context.js'
import {cli, FIXED_NOW, initRepo, refusal, ROOT, sandboxEnv, tempDir} from './helpers.js'
import {OME_CARDS} from './recall-helpers.js'

const SUITES = path.resolve(ROOT, '..', 'shared', 'evals', 'ome')

describe('cairn import ome', () => {
  it('creates pending drafts in one commit; OME ids are kept, keyed by path and id, and unknown fields reported', async () => {
    const repo = await initRepo()
    const file = path.join(path.dirname(repo.dir), 'ome.json')
    const browser = {...OME_CARDS[0], criteria: {...OME_CARDS[0].criteria, intent_modes: {include: ['execute']}}}
    fs.writeFileSync(file, JSON.stringify({experiences: [browser, OME_CARDS[2]]}, null, 2))
    const head = repo.git('rev-parse', 'HEAD').trim()
    const out = await importOme(repo.ctx(), {path: file})
    expect(out.cards.map(c => [c.id, c.type, c.outcome, c.path, `${c.source}:${c.line}`])).toEqual([
      ['browser-validation', 'guideline', 'created', '.cairn/pending/guideline/browser-validation.md', '../ome.json:4'],
      [
        'release-tarball-smoke-test',
        'guideline',
        'created',
        '.cairn/pending/guideline/release-tarball-smoke-test.md',
        '../ome.json:49',
      ],
    ])
    const lines = fs.readFileSync(file, 'utf8').split('\n')
    expect([lines[3], lines[48]].map(l => l.trim())).toEqual([
      '"id": "browser-validation",',
      '"id": "release-tarball-smoke-test",',
    ])
    expect(out.failed).toEqual([])
    expect(out.warnings).toContain(
      'browser-validation: dropped OME fields cairn has no place for: criteria.intent_modes',
    )
    expect(out.warnings.some((w: string) => w.startsWith('browser-validation: OME id kept as is'))).toBe(true)
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
    expect(repo.git('log', '-1', '--format=%B')).toContain('Cairn-Op: import')
    const card = repo.read('.cairn/pending/guideline/browser-validation.md')
    expect(card).toContain('language: zh')
    // The headings are cairn's words: the store's language (en here), whatever the card's text is written in.
    expect(card).toContain('## Rule')
    expect(card).not.toContain('## 完整规则')
    expect(card).toContain('status: pending')
    expect(card).toContain('source_sessions: [import:../ome.json#browser-validation]')
    expect(card).toContain('proposed_reason: imported from ../ome.json line 4 (cairn import ome)')
    expect(card).toContain('recent_paths: []')
    expect((await show(repo.ctx(), {id: 'browser-validation', section: 'rule'})).text).toBe(
      'Open the real page, follow the user path, check the console.',
    )
    const again = await importOme(repo.ctx(), {path: file})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([
      ['browser-validation', 'skipped'],
      ['release-tarball-smoke-test', 'skipped'],
    ])
    expect(again.commit).toBeNull()
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
  })

  it('--activate writes active, approved cards under cards/; a Markdown OME card keeps its body; a second run skips', async () => {
    const repo = await initRepo()
    const md = path.join(path.dirname(repo.dir), 'card.md')
    fs.writeFileSync(
      md,
      '---\nschema: ome-card\nid: zh-markdown-ome-card\nstatus: active\ntitle: 中文卡片\ncategory: 测试\nsummary: 一个中文 OME 卡片。\nrecall:\n  policy: must\n  aliases:\n    zh-CN: [中文别名]\n    mixed: [mixed 别名, plain alias]\nscope:\n  level: global\nlanguage: zh\n---\n\n## 这张卡解决什么问题\n\n问题。\n\n## 完整规则\n\n```text\n完整的规则。\n```\n',
    )
    const first = await importOme(repo.ctx(), {path: md, activate: true})
    expect(first.cards.map(c => [c.id, c.outcome, c.path, c.line])).toEqual([
      ['zh-markdown-ome-card', 'created', '.cairn/cards/guideline/zh-markdown-ome-card.md', 3],
    ])
    const text = repo.read('.cairn/cards/guideline/zh-markdown-ome-card.md')
    expect(text).toMatch(/status: active/)
    expect(text).toMatch(/approved:\n {2}by: tester/)
    expect(text).toContain('aliases:\n    en: [plain alias]\n    zh: [中文别名, mixed 别名]')
    expect((await show(repo.ctx(), {id: 'zh-markdown-ome-card', section: 'rule'})).text).toBe('完整的规则。')
    const before = repo.git('rev-parse', 'HEAD')
    const again = await importOme(repo.ctx(), {path: md})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([['zh-markdown-ome-card', 'skipped']])
    expect(again.failed).toEqual([])
    expect(repo.git('rev-parse', 'HEAD')).toBe(before)
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('an id a card from elsewhere holds, or one given twice, is reported with its path and fix; the rest is imported', async () => {
    const repo = await initRepo()
    const dir = path.join(path.dirname(repo.dir), 'lib')
    fs.mkdirSync(dir, {recursive: true})
    fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify([OME_CARDS[0]]))
    await importOme(repo.ctx(), {path: path.join(dir, 'a.json')})
    // The same id from another file is another source: its card would replace one it does not own.
    fs.writeFileSync(
      path.join(dir, 'b.json'),
      `[\n${JSON.stringify(OME_CARDS[0])},\n${JSON.stringify(OME_CARDS[1])},\n${JSON.stringify(OME_CARDS[1])}\n]\n`,
    )
    const r = await importOme(repo.ctx(), {path: dir})
    expect(r.cards.map(c => [c.id, c.outcome, `${c.source}:${c.line}`])).toEqual([
      ['git-commit-safety', 'created', '../lib/b.json:3'],
      ['browser-validation', 'skipped', '../lib/a.json:1'],
    ])
    expect(r.failed).toEqual([
      {
        file: '../lib/b.json',
        issues: [
          {
            file: '../lib/b.json:2',
            field: 'id',
            message:
              '"browser-validation" is already used by .cairn/pending/guideline/browser-validation.md, a card from elsewhere',
            fix: 'rename the id in the source, or archive the existing card',
          },
          {
            file: '../lib/b.json:4',
            field: 'id',
            message: '"git-commit-safety" appears more than once (first at ../lib/b.json:3)',
            fix: 'keep one card per id',
          },
        ],
      },
    ])
  })

  it('a card an older cairn imported from OME, without a source key, counts as imported: a rerun skips it', async () => {
    const repo = await initRepo()
    const {card} = omeToCard(OME_CARDS[1], {now: FIXED_NOW, status: 'pending', actor: 'tester', file: 'old.json'}, 0)
    expect(card.provenance.source_sessions).toEqual([])
    repo.write('.cairn/pending/guideline/git-commit-safety.md', renderCard(card))
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'imported by an older cairn')
    const file = path.join(path.dirname(repo.dir), 'old.json')
    fs.writeFileSync(file, JSON.stringify([OME_CARDS[1], OME_CARDS[2]]))
    const r = await importOme(repo.ctx(), {path: file})
    expect(r.failed).toEqual([])
    expect(r.cards.map(c => [c.id, c.outcome])).toEqual([
      ['release-tarball-smoke-test', 'created'],
      ['git-commit-safety', 'skipped'],
    ])
  })

  it('a malformed file or a card without a title is reported with its path; the good files are imported', async () => {
    const repo = await initRepo()
    const dir = path.join(path.dirname(repo.dir), 'mixed')
    fs.mkdirSync(dir, {recursive: true})
    fs.writeFileSync(
      path.join(dir, 'bad.json'),
      JSON.stringify([{id: 'no-title-card-here', summary: 's'}, OME_CARDS[2]]),
    )
    fs.writeFileSync(path.join(dir, 'broken.json'), '[{"id": "x",')
    fs.writeFileSync(path.join(dir, 'good.json'), JSON.stringify([OME_CARDS[1]]))
    const r = await importOme(repo.ctx(), {path: dir})
    expect(r.cards.map(c => [c.id, c.outcome])).toEqual([['git-commit-safety', 'created']])
    expect(r.failed.map(f => [f.file, f.issues.map(i => `${i.field}: ${i.message}`)[0]])).toEqual([
      [
        '../mixed/broken.json',
        '(json): invalid JSON at line 1, column 13: expected a string in double quotes, found the end of the input',
      ],
      ['../mixed/bad.json', '[0].title: is required'],
    ])
  })
})

describe('cairn eval recall', () => {
  /** A context in a plain directory, not a git repo, as `cairn eval recall` runs anywhere. */
  const ctxAt = (dir: string) =>
    createContext({cwd: dir, env: sandboxEnv(dir) as Record<string, string>, now: FIXED_NOW, actor: 'tester'})

  function writeSuite(dir: string, cases: unknown[]) {
    fs.writeFileSync(path.join(dir, 'mine.json'), JSON.stringify({name: 'mine', cases}))
    fs.writeFileSync(path.join(dir, 'mine.cards.json'), JSON.stringify(OME_CARDS))
    return path.join(dir, 'mine.json')
  }

  it('runs each case through the prompt-hook path in a throwaway store, cleaned up afterwards', async () => {
    const dir = tempDir()
    const suite = writeSuite(dir, [
      {
        id: 'git',
        prompt: 'run git status before the commit',
        expectedCards: ['git-commit-safety'],
        unexpectedCards: ['browser-validation'],
      },
      {id: 'nothing', prompt: 'a tomato soup recipe', expectedCards: [], expectNoMatches: true},
    ])
    const leftovers = () => fs.readdirSync(os.tmpdir()).filter(n => n.startsWith('cairn-eval-'))
    const before = leftovers()
    expect(await evalRecall(ctxAt(dir), {suite})).toEqual({
      suite: 'mine',
      total: 2,
      passed: 2,
      failed: 0,
      cases: [
        {
          id: 'git',
          passed: true,
          prompt: 'run git status before the commit',
          expected: ['git-commit-safety'],
          recalled: ['git-commit-safety'],
          unexpected_hits: [],
          missing: [],
        },
        {
          id: 'nothing',
          passed: true,
          prompt: 'a tomato soup recipe',
          expected: [],
          recalled: [],
          unexpected_hits: [],
          missing: [],
        },
      ],
    })
    expect(leftovers().filter(n => !before.includes(n))).toEqual([])
    expect(fs.existsSync(path.join(dir, '.cairn'))).toBe(false)
  })

  it('a failing case is reported with what was missing and what was unexpected, and exits 6', async () => {
    const dir = tempDir()
    const suite = writeSuite(dir, [
      {
        id: 'wrong',
        prompt: 'run git status',
        expectedCards: ['browser-validation'],
        unexpectedCards: ['git-commit-safety'],
      },
    ])
    const r = await cli(['eval', 'recall', '--suite', suite], {cwd: dir})
    expect(r.code).toBe(6)
    expect(r.stdout).toContain(
      'FAIL  wrong: recalled [git-commit-safety] (missing browser-validation; unexpected git-commit-safety)',
    )
    expect(r.stdout).toContain('mine: 0/1 passed, 1 failed')
  })

  it.skipIf(!fs.existsSync(SUITES))(
    'passes every case of the shared OME suites (core, held-out, pairwise)',
    async () => {
      for (const name of ['core', 'held-out', 'pairwise']) {
        const data = await evalRecall(ctxAt(tempDir()), {suite: path.join(SUITES, `${name}.json`)})
        expect(
          data.cases.filter((c: {passed: boolean}) => !c.passed),
          name,
        ).toEqual([])
        expect(data.passed, name).toBe(data.total)
      }
    },
  )
})
