import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers.js'

// The project's own bilingual recall suite (issue 10) must keep the shape it was written to: this checks
// its size and mix, not whether the matcher passes it (evals/README.md records the scores).
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'evals', f), 'utf8'))
const CJK = /[\u3400-\u9fff]/

interface Case {
  id: string
  prompt: string
  expectedCards: string[]
  unexpectedCards?: string[]
  expectNoMatches?: boolean
  tags: string[]
}
interface OmeCard {
  id: string
  title: string
  summary: string
  recall?: {triggers?: string[]}
  criteria?: {use_when?: string[]}
}

describe('evals/cairn-bilingual', () => {
  const suite = read('cairn-bilingual.json') as {name: string; experiencesFile: string; cases: Case[]}
  const cards = (read('cairn-bilingual.cards.json') as {experiences: OmeCard[]}).experiences
  const ids = new Set(cards.map(c => c.id))
  const zhCard = new Map(cards.map(c => [c.id, CJK.test(c.title + c.summary)]))

  it('has at least 20 cards, about half in each language, some with no triggers, use_when or aliases', () => {
    expect(cards.length).toBeGreaterThanOrEqual(20)
    expect(ids.size).toBe(cards.length)
    const zh = cards.filter(c => zhCard.get(c.id)).length
    expect(Math.abs(zh - (cards.length - zh))).toBeLessThanOrEqual(2)
    const bare = cards.filter(c => !c.recall && !c.criteria)
    expect(bare.length).toBeGreaterThanOrEqual(4)
  })

  it('has at least 60 cases, a third cross-language, a quarter negatives, each naming only its own cards', () => {
    const cases = suite.cases
    expect(cases.length).toBeGreaterThanOrEqual(60)
    expect(new Set(cases.map(c => c.id)).size).toBe(cases.length)
    for (const c of cases)
      for (const id of [...c.expectedCards, ...(c.unexpectedCards ?? [])])
        expect(ids.has(id), `${c.id}: ${id}`).toBe(true)
    const xl = cases.filter(c => c.tags.includes('xl'))
    expect(xl.length * 3).toBeGreaterThanOrEqual(cases.length)
    // A case tagged xl really crosses: its prompt's script differs from its card's language.
    for (const c of xl)
      for (const id of [...c.expectedCards, ...(c.unexpectedCards ?? [])])
        expect(CJK.test(c.prompt.replace(/“[^”]*”/g, '')) !== zhCard.get(id) || c.tags.includes('neg'), c.id).toBe(true)
    const neg = cases.filter(c => c.id.startsWith('neg-'))
    expect(neg.length * 4).toBeGreaterThanOrEqual(cases.length)
    for (const c of neg) expect(c.expectedCards, c.id).toEqual([])
    for (const c of neg) expect(c.expectNoMatches === true || (c.unexpectedCards ?? []).length > 0, c.id).toBe(true)
    for (const k of ['xl', 'para', 'zhx', 'notrig'])
      expect(cases.filter(c => c.id.startsWith(`${k}-`)).length, k).toBeGreaterThanOrEqual(5)
  })
})

describe('evals/cairn-bilingual-b (written blind for issue 29)', () => {
  const first = read('cairn-bilingual.json') as {cases: Case[]}
  const suite = read('cairn-bilingual-b.json') as {name: string; experiencesFile: string; cases: Case[]}
  const ids = new Set((read('cairn-bilingual.cards.json') as {experiences: OmeCard[]}).experiences.map(c => c.id))

  it("uses the first suite's cards, with ids and prompts of its own, and the shape its README gives", () => {
    expect(suite.experiencesFile).toBe('./cairn-bilingual.cards.json')
    const cases = suite.cases
    expect(cases.length).toBe(36)
    const seen = new Set(first.cases.flatMap(c => [c.id, c.prompt]))
    for (const c of cases) {
      expect(seen.has(c.id) || seen.has(c.prompt), c.id).toBe(false)
      for (const id of [...c.expectedCards, ...(c.unexpectedCards ?? [])])
        expect(ids.has(id), `${c.id}: ${id}`).toBe(true)
    }
    expect(new Set(cases.map(c => c.id)).size).toBe(cases.length)
    const count = (k: string) => cases.filter(c => c.id.startsWith(`${k}-b`)).length
    expect([count('para'), count('xl'), count('neg')]).toEqual([14, 10, 12])
    for (const c of cases.filter(c => c.id.startsWith('neg-'))) {
      expect(c.expectedCards, c.id).toEqual([])
      expect(c.expectNoMatches === true || (c.unexpectedCards ?? []).length > 0, c.id).toBe(true)
    }
  })
})

describe('evals/cairn-bilingual-c (written blind for issue 29, before the matcher was tuned on it)', () => {
  const earlier = ['cairn-bilingual.json', 'cairn-bilingual-b.json'].flatMap(f => (read(f) as {cases: Case[]}).cases)
  const suite = read('cairn-bilingual-c.json') as {name: string; experiencesFile: string; cases: Case[]}
  const ids = new Set((read('cairn-bilingual.cards.json') as {experiences: OmeCard[]}).experiences.map(c => c.id))

  it('tests neighbours, other intents, unrelated prompts and paraphrases, each naming only the suite cards', () => {
    expect(suite.experiencesFile).toBe('./cairn-bilingual.cards.json')
    const seen = new Set(earlier.flatMap(c => [c.id, c.prompt]))
    for (const c of suite.cases) {
      expect(seen.has(c.id) || seen.has(c.prompt), c.id).toBe(false)
      for (const id of [...c.expectedCards, ...(c.unexpectedCards ?? [])])
        expect(ids.has(id), `${c.id}: ${id}`).toBe(true)
    }
    expect(new Set(suite.cases.map(c => c.id)).size).toBe(40)
    const count = (k: string) => suite.cases.filter(c => c.id.startsWith(`${k}-c`)).length
    expect([count('nb'), count('neg'), count('para')]).toEqual([12, 16, 12])
    // A neighbour case wants one card and names the related card that must stay out.
    for (const c of suite.cases.filter(c => c.id.startsWith('nb-'))) {
      expect(c.expectedCards.length, c.id).toBe(1)
      expect(c.unexpectedCards?.length, c.id).toBe(1)
    }
    for (const c of suite.cases.filter(c => c.id.startsWith('neg-'))) {
      expect(c.expectedCards, c.id).toEqual([])
      expect(c.expectNoMatches === true || (c.unexpectedCards ?? []).length > 0, c.id).toBe(true)
    }
  })
})

describe('the suite cards in other forms', () => {
  type Full = OmeCard & {rule?: string; recall?: Record<string, any>; criteria?: Record<string, any>}
  const cards = (f: string) => (read(f) as {experiences: Full[]}).experiences
  const base = cards('cairn-bilingual.cards.json')
  const phrases = (c: Full) => [
    ...(c.recall?.triggers ?? []),
    ...(c.recall?.aliases?.en ?? []),
    ...(c.recall?.aliases?.['zh-CN'] ?? []),
    ...(c.criteria?.use_when ?? []),
    ...(c.criteria?.ignore_when ?? []),
  ]

  it('keep every card, its id, title, summary and rule; minimal drops every recall field', () => {
    for (const f of [
      'cairn-bilingual.minimal.cards.json',
      'cairn-bilingual.enriched.cards.json',
      'cairn-bilingual.minimal-enriched.cards.json',
    ]) {
      const other = cards(f)
      expect(
        other.map(c => c.id),
        f,
      ).toEqual(base.map(c => c.id))
      for (const [i, c] of other.entries())
        expect([c.title, c.summary, c.rule], `${f}: ${c.id}`).toEqual([base[i].title, base[i].summary, base[i].rule])
    }
    for (const c of cards('cairn-bilingual.minimal.cards.json'))
      expect(
        Object.keys(c).filter(k => !['category', 'id', 'rule', 'scope', 'summary', 'title'].includes(k)),
        c.id,
      ).toEqual([])
  })

  it('the enriched forms add phrases in both languages to every card and keep the ones it had', () => {
    for (const [f, from] of [
      ['cairn-bilingual.enriched.cards.json', base],
      ['cairn-bilingual.minimal-enriched.cards.json', cards('cairn-bilingual.minimal.cards.json')],
    ] as const) {
      for (const [i, c] of cards(f).entries()) {
        const had = phrases(from[i])
        const has = phrases(c)
        expect(
          had.every(p => has.includes(p)),
          `${f}: ${c.id}`,
        ).toBe(true)
        expect(has.length, `${f}: ${c.id}`).toBeGreaterThanOrEqual(had.length + 10)
        expect(has.some(p => CJK.test(p)) && has.some(p => !CJK.test(p)), `${f}: ${c.id}`).toBe(true)
      }
    }
  })
})
