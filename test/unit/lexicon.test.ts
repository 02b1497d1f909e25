import {describe, expect, it} from 'vitest'
import {formsText, formsTranslator, formsVersion, layered, makeTranslator} from '../../src/recall/match/expand.js'
import {parseCedict, parseLexiconFile} from '../../src/recall/match/lexicon.js'
import {validationFailure} from './expect-error.js'

const FILE = '.cairn/lexicon.yaml'
const issues = (text: string) =>
  (validationFailure(() => parseLexiconFile(text, FILE)).data as {issues: unknown[]}).issues

describe('parseCedict', () => {
  it('reads headword, tab, "|"-separated glosses; skips comments and blank lines, with or without a final newline', () => {
    const body = '# version: cedict-2026-01-04\n#\n回滚\troll back|rollback\n\n超时\ttimeout\r\n索引\tindex'
    const expected = new Map([
      ['回滚', ['roll back', 'rollback']],
      ['超时', ['timeout']],
      ['索引', ['index']],
    ])
    expect(parseCedict(body)).toEqual(expected)
    expect(parseCedict(`${body}\n`)).toEqual(expected)
    expect(parseCedict('')).toEqual(new Map())
  })

  it('skips a line with no tab or no headword', () => {
    expect(parseCedict('回滚 roll back\n\tstray\n缓存\tcache\n')).toEqual(new Map([['缓存', ['cache']]]))
  })
})

describe('parseLexiconFile', () => {
  it('returns the groups, terms trimmed, note kept only when given', () => {
    const text =
      'terms:\n  - {en: [" merge conflict "], zh: [合并冲突]}\n  - en: [rollback, roll back]\n    note: same thing\n'
    expect(parseLexiconFile(text, FILE)).toEqual([
      {en: ['merge conflict'], zh: ['合并冲突']},
      {en: ['rollback', 'roll back'], zh: [], note: 'same thing'},
    ])
  })

  it('an empty file, or one of comments only, is an empty lexicon', () => {
    expect(parseLexiconFile('', FILE)).toEqual([])
    expect(parseLexiconFile('# our terms come later\n', FILE)).toEqual([])
    expect(parseLexiconFile('terms: []\n', FILE)).toEqual([])
  })

  it('names the file, the field and the fix for each bad term and group', () => {
    const text = [
      'terms:',
      '  - {en: [deploy], zh: [部署]}',
      '  - {en: [ok], zh: ["", "a|b", "x\\ty", "line\\nbreak"]}',
      `  - {en: [${'x'.repeat(81)}, fine]}`,
      '  - {en: [alone]}',
      '  - {en: [a, b], lang: fr}',
      '  - {en: rollback, zh: [回滚]}',
      '  - {en: [a, 3]}',
    ].join('\n')
    expect(issues(text)).toEqual([
      {
        file: FILE,
        field: 'terms[1].zh[0]',
        message: 'must not be empty',
        fix: 'write the term, or remove the empty entry',
      },
      {file: FILE, field: 'terms[1].zh[1]', message: 'contains "|" or a tab', fix: 'remove the "|" or tab'},
      {file: FILE, field: 'terms[1].zh[2]', message: 'contains "|" or a tab', fix: 'remove the "|" or tab'},
      {
        file: FILE,
        field: 'terms[1].zh[3]',
        message: 'contains a control character',
        fix: 'remove the control character (a line break, for example)',
      },
      {file: FILE, field: 'terms[2].en[0]', message: 'is longer than 80 characters', fix: 'use a shorter term'},
      {
        file: FILE,
        field: 'terms[3]',
        message: 'needs at least two terms in all',
        fix: 'list the terms that mean the same, in en and zh (e.g. en: [rollback], zh: [回滚]), or remove the group',
      },
      {file: FILE, field: 'terms[4].lang', message: 'unknown field', fix: 'remove "lang", or check its spelling'},
      {file: FILE, field: 'terms[5].en', message: 'must be a list (found text)', fix: 'give a list'},
      {file: FILE, field: 'terms[6].en[1]', message: 'must be text (found a number)', fix: 'give text'},
    ])
  })

  it('the error message lists every problem as "file: field: message. Fix: ...".', () => {
    const error = validationFailure(() => parseLexiconFile('terms:\n  - {en: [a], zh: [""]}\n', FILE))
    expect(error.message).toBe(
      [
        `Invalid lexicon file ${FILE}:`,
        `  - ${FILE}: terms[0].zh[0]: must not be empty. Fix: write the term, or remove the empty entry.`,
      ].join('\n'),
    )
  })

  it('rejects unknown top-level fields, a missing or wrong "terms", and malformed YAML', () => {
    expect(issues('term:\n  - {en: [a], zh: [b]}\n')).toEqual([
      {file: FILE, field: 'terms', message: 'is required', fix: 'add "terms": a list'},
      {file: FILE, field: 'term', message: 'unknown field', fix: 'remove "term", or check its spelling'},
    ])
    expect(issues('terms: {en: [a]}\n')).toEqual([
      {file: FILE, field: 'terms', message: 'must be a list (found a map)', fix: 'give a list'},
    ])
    expect(issues('- {en: [a], zh: [b]}\n')).toEqual([
      {file: FILE, field: '(root)', message: 'must be a map of fields (found a list)', fix: 'give a map of fields'},
    ])
    expect(issues('terms:\n  - {en: [a, zh: [b]}\n')).toEqual([
      expect.objectContaining({
        file: FILE,
        field: '(yaml)',
        fix: 'correct the YAML syntax there; quote a value that holds ": " or " #"',
      }),
    ])
    expect(issues('terms: []\nterms: []\n')).toEqual([
      expect.objectContaining({
        file: FILE,
        field: '(yaml)',
        message: expect.stringMatching(/^invalid YAML at line 2, column 1: map keys must be unique/),
      }),
    ])
  })
})

describe('makeTranslator', () => {
  const cedict = new Map([
    ['回滚', ['roll back', 'rollback', 'come back']],
    ['提交', ['submit', 'refer to']],
    ['登录', ['log in', 'login']],
  ])
  const team = {en: ['Ship It', 'release'], zh: ['上线', '回滚']}
  const shipped = [
    {en: ['rollback', 'Roll  Back', 'revert'], zh: ['回滚', '回退']},
    {en: ['merge conflict'], zh: ['合并冲突']},
  ]

  it('maps a Chinese word to English stems: groups first in their order, then the dictionary; deduplicated', () => {
    const tr = makeTranslator({cedict, groups: [team, ...shipped]})
    expect(tr.forms('回滚')).toEqual(['ship', 'releas', 'rollback', 'roll back', 'revert', 'come back'])
    expect(tr.forms('提交')).toEqual(['submit'])
    // A gloss with a function word ("log in") loses its sense as stems, so it is left out.
    expect(tr.forms('登录')).toEqual(['login'])
    expect(tr.forms('没有')).toEqual([])
  })

  it('maps English keys (stem sequences) to Chinese only: same-language synonyms are not expanded', () => {
    const tr = makeTranslator({cedict, groups: [team, ...shipped]})
    expect(tr.forms('merg conflict')).toEqual(['合并冲突'])
    expect(tr.forms('rollback')).toEqual(['回滚', '回退'])
    expect(tr.forms('revert')).toEqual(['回滚', '回退'])
    expect(tr.maxWords).toBe(2)
  })

  it('a forms table made from it answers the same, and layers a team translator first', () => {
    const tr = makeTranslator({cedict, groups: shipped})
    const table = formsTranslator(formsText(tr, 'v1'))
    for (const [key, forms] of tr.entries()) expect(table.forms(key), key).toEqual(forms)
    expect(formsVersion(formsText(tr, 'v1'))).toBe('v1')
    expect(table.maxWords).toBe(tr.maxWords)
    const both = layered(makeTranslator({cedict: new Map(), groups: [team]}), table)
    expect(both.forms('回滚')).toEqual(['ship', 'releas', 'rollback', 'roll back', 'revert', 'come back'])
    expect(both.forms('上线')).toEqual(['ship', 'releas'])
    expect([...both.entries()].length).toBe(
      new Set([...[...table.entries()].map(e => e[0]), '上线', '回滚', 'ship', 'releas']).size,
    )
  })
})
