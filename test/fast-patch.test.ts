import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {splitFrontmatter} from '../src/domain/frontmatter.js'
import {fastPatch} from '../src/domain/card/fast-patch.js'
import {type Patch, patchCard, patchCardByDocument, renderCard, validateFrontmatter} from '../src/domain/card/format.js'
import {prng, ROOT} from './helpers.js'

/**
 * patchCard's line-by-line fast path must give the very bytes the YAML library's round trip gives, or leave the
 * patch to it. Checked on cairn's rendering of random cards full of YAML's special characters, on hand-edited
 * layouts, on CRLF files and on every card file in the repository, with approve's, reject's and defer's patches.
 */

const PIECES = ['a', 'z', ' ', ': ', ':', '#', ' #', '-', ',', '[', ']', '{', '}', "'", '"', '\\', '~', 'null'].concat([
  'true',
  'False',
  '123',
  '1.5',
  '0x1F',
  '中文',
  '：',
  'é',
  '😀',
  '2026-01-01',
  'npm ci',
  '@',
  '/',
  '\u00a0',
])

function text(rand: () => number, max: number): string {
  const t = Array.from({length: 1 + Math.floor(rand() * max)}, () => PIECES[Math.floor(rand() * PIECES.length)]).join(
    '',
  )
  return t.trim() ? t : `${t}a`
}

const AT = '2026-12-03T17:28:11Z'
const PATCHES: Patch[][] = [
  [
    {path: ['status'], value: 'active'},
    {path: ['approved'], value: {by: 'Jane Doe', at: AT}},
  ],
  [
    {path: ['status'], value: 'active'},
    {path: ['approved'], value: {by: 'bench', at: AT}},
    {path: ['deferred_until'], value: null},
  ],
  [{path: ['deferred_until'], value: '2027-01-01T00:00:00Z'}],
  [{path: ['updated'], value: AT}],
  [{path: ['status'], value: 'superseded'}],
  [{path: ['approved'], value: {by: 'someone <a@b.c>', at: AT}}],
  [{path: ['title'], value: 'true'}],
  [{path: ['protected'], value: true}],
  [{path: ['recall', 'risk'], value: 'high'}],
]

function randomCard(rand: () => number, n: number): string {
  // Every other card is of plain words, as most cards are; the others are full of what YAML treats specially.
  const say = (k: number) => (n % 2 === 0 ? `plain words ${Math.floor(rand() * 100)}` : text(rand, k))
  const list = (k: number) => Array.from({length: Math.floor(rand() * k)}, () => say(6))
  const pending = rand() < 0.6
  const fm = validateFrontmatter({
    schema: 'cairn/card@5',
    id: `fast-patch-card-${n}`,
    type: 'pitfall',
    status: pending ? 'pending' : 'active',
    title: rand() < 0.5 ? `Plain title ${n}` : say(8),
    summary: rand() < 0.5 ? `A plain summary of card ${n}, with words.` : say(20),
    category: rand() < 0.7 ? 'general' : say(3),
    created: '2026-10-01T00:00:00Z',
    updated: '2026-11-01T00:00:00Z',
    approved: pending ? null : {by: say(2), at: '2026-10-02T00:00:00Z'},
    deferred_until: rand() < 0.3 ? '2026-12-01T00:00:00Z' : null,
    criteria: {use_when: list(4), ignore_when: list(3)},
    recall: {
      policy: 'must',
      risk: 'high',
      triggers: list(4),
      derived_triggers: rand() < 0.5 ? ['derived phrase', 'another one'] : [],
      aliases: {en: list(3), zh: list(3)},
    },
    evidence: rand() < 0.3 ? {paths: ['src/a.ts'], symbols: []} : undefined,
    provenance: {
      source_sessions: list(2),
      proposed_reason: rand() < 0.5 ? null : say(10),
      proposed_by: rand() < 0.5 ? 'bench' : null,
    },
  })
  return renderCard({...fm, body: '\n## Rule\n\nx\n'})
}

/** Hand edits: each makes a layout the library prints back otherwise, or one the fast path must still match. */
const EDITS: [RegExp, string][] = [
  [/^title: /m, 'title:   '],
  [/^status: (\w+)$/m, 'status: "$1"'],
  [/^status: (\w+)$/m, "status: '$1'"],
  [/^status: (\w+)$/m, 'status: $1 # reviewed'],
  [/^approved: null$/m, 'approved: ~'],
  [/^approved: null$/m, 'approved:'],
  [/^deferred_until: null$/m, 'deferred_until: Null'],
  [/^category: /m, '# a comment\ncategory: '],
  [/^category: /m, '\ncategory: '],
  [/^ {2}triggers: \[\]$/m, '  triggers: [ ]'],
  [/^keywords: \[/m, 'keywords: [ '],
  [/^schema: (.*)$/m, 'schema: "$1"'],
  [/^status: pending$/m, 'status: draft'],
  [/^protected: false$/m, 'protected: FALSE'],
  [/^ {2}risk: high$/m, '  risk:   high'],
  [/\n---\n/, '\n---   \n'],
]

function expectSame(card: string, patches: Patch[], label: string): boolean {
  let slow: string | Error
  try {
    slow = patchCardByDocument(card, 'card.md', patches)
  } catch (error) {
    slow = error as Error
  }
  if (slow instanceof Error) {
    expect(() => patchCard(card, 'card.md', patches), label).toThrow(slow.message)
    return false
  }
  expect(patchCard(card, 'card.md', patches), label).toBe(slow)
  const crlf = card.replace(/\n/g, '\r\n')
  expect(patchCard(crlf, 'card.md', patches), `${label} (CRLF)`).toBe(patchCardByDocument(crlf, 'card.md', patches))
  return fastPatch((splitFrontmatter(card, 'card.md') as {yaml: string}).yaml, patches) !== undefined
}

describe("patchCard's fast path", () => {
  it('gives the bytes the YAML library gives, on random cards, hand-edited layouts and CRLF files', () => {
    const rand = prng(35)
    let fast = 0
    for (let n = 0; n < 15; n++) {
      const card = randomCard(rand, n)
      for (const [i, patches] of PATCHES.entries()) if (expectSame(card, patches, `card ${n}, patches ${i}`)) fast++
      for (const [e, [from, to]] of EDITS.entries()) {
        const edited = card.replace(from, to)
        for (const [i, patches] of PATCHES.entries()) expectSame(edited, patches, `card ${n}, edit ${e}, patches ${i}`)
      }
    }
    // Cards of plain text take the fast path (the special characters send most to the library): it is not a path never taken.
    expect(fast).toBeGreaterThan(20)
  })

  it('takes the fast path for approve on the cards cairn writes, and agrees on every card file in the repository', () => {
    const files: string[] = []
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, {withFileTypes: true})) {
        if (['node_modules', '.git', 'dist'].includes(e.name)) continue
        const p = path.join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (e.name.endsWith('.md')) files.push(p)
      }
    }
    walk(ROOT)
    for (const file of files) {
      const card = fs.readFileSync(file, 'utf8')
      if (!splitFrontmatter(card, file)) continue
      for (const patches of PATCHES) expectSame(card, patches, file)
    }
    const rendered = randomCard(() => 0.1, 1)
    expect(expectSame(rendered, PATCHES[1], 'approve')).toBe(true)
    expect(patchCard(rendered, 'card.md', PATCHES[1])).toContain(`\napproved:\n  by: bench\n  at: ${AT}\n---\n`)
  })

  it('leaves to the library what it cannot print back byte for byte', () => {
    const yaml = 'schema: cairn/card@5\nstatus: pending\napproved: null\n'
    const approve = PATCHES[0]
    expect(fastPatch(yaml.trimEnd(), approve)).toBe(
      'schema: cairn/card@1\nstatus: active\napproved:\n  by: Jane Doe\n  at: 2026-12-03T17:28:11Z',
    )
    for (const other of ['status: pending # x', 'status: "pending"', 'approved: ~', 'status: draft', 'a: 1e3'])
      expect(fastPatch(`${yaml}${other}`.replace(/^status: pending\n(?=.*status)/ms, ''), approve), other).toBe(
        undefined,
      )
    expect(fastPatch(yaml.trimEnd(), [{path: ['approved'], value: {by: 'a: b', at: AT}}])).toBe(undefined)
    expect(fastPatch(yaml.trimEnd(), [{path: ['recall', 'risk'], value: 'low'}])).toBe(undefined)
    // What a review found: a block key with a space after it, a status set to draft, a field patched twice.
    const card = randomCard(() => 0.1, 1)
    expect(card).toMatch(/^ {2}aliases:$/m)
    expect(expectSame(card.replace(/^ {2}aliases:$/m, '  aliases: '), PATCHES[1], 'a block key, then a space')).toBe(
      false,
    )
    expect(expectSame(card, [{path: ['status'], value: 'draft'}], 'status set to draft')).toBe(false)
    const twice = [
      {path: ['approved'], value: {by: 'bench', at: AT}},
      {path: ['approved'], value: null},
    ]
    expect(expectSame(card, twice, 'approved patched twice')).toBe(false)
  })
})
