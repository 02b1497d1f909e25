import {describe, expect, it} from 'vitest'
import {decodeMatch, decodeRank, encodeMatch, encodeRank, unitWeight} from '../../src/recall/match/codec.js'
import {phraseBound} from '../../src/recall/match/evidence.js'
import {strongPhrases} from '../../src/recall/match/doc.js'
import {doc} from './recall-fixtures.js'

describe('index record codec', () => {
  it('round-trips both halves of a record exactly', () => {
    const d = doc({
      id: 'codec-round-trip-card',
      title: 'Ship the DESIGN.md',
      recall: {triggers: ['Claude UserPromptSubmit', '真实浏览器', '/goal'], topics: ['the']},
      criteria: {use_when: ['goal.start'], ignore_when: ['只改文档']},
      keywords: ['x'],
    })
    const {summary, type, risk, language, use_when, ignore_when, tf, len, cited, ...match} = d
    expect(decodeMatch(encodeMatch(d))).toEqual(match)
    expect(decodeRank(encodeRank(d))).toEqual({summary, type, risk, language, use_when, ignore_when, tf, len, cited})
  })

  it('derives unit weights from their shape, as the tokeniser assigns them', () => {
    expect([unitWeight('浏'), unitWeight('浏览'), unitWeight('browser'), unitWeight('goal.start')]).toEqual([
      0.25, 0.5, 1, 1,
    ])
  })

  it('bounds a phrase score from above: exact needs every non-compound term; partial is 0.8·coverage^1.5', () => {
    expect(phraseBound(2, 3, 1)).toBe(1)
    expect(phraseBound(1, 2, 0)).toBeCloseTo(0.283, 3)
    expect(phraseBound(0, 2, 0)).toBe(0)
    const p = strongPhrases(doc({recall: {triggers: ['design.md review']}}))
    expect(p[0]).toEqual({
      index: 0,
      terms: ['design', 'md', 'review'],
      compounds: ['design.md'],
      total: 4,
      slack: 1,
      min: 0,
      concepts: 0,
      lone: false,
    })
    // The title admits too, so it is the second admitting phrase.
    expect(p.map(x => x.index)).toEqual([0, 1])
  })
})
