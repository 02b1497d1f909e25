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
