import {describe, expect, it} from 'vitest'
import {compareTerms, formsText, formsTranslator, type Translator} from '../src/recall/match/expand.js'
import {prng} from './helpers.js'

/**
 * formsTranslator's binary search compares lines in place; it must find exactly what a sorted
 * table holds, in code point order (compareTerms), for keys of every script, prefixes of one
 * another, and characters beyond the BMP (surrogate pairs, which UTF-16 orders differently).
 */
describe('lexicon forms: lookup by binary search', () => {
  it('finds every key of the table and nothing else, for keys that are prefixes of others and beyond the BMP', () => {
    const alphabet = ['a', 'b', 'z', ' ', '-', 'é', '数', '据', '库', '\uff41', '\ue000', '😀', '𠀀', '0']
    const rand = prng(7)
    const word = () =>
      Array.from({length: 1 + Math.floor(rand() * 4)}, () => alphabet[Math.floor(rand() * alphabet.length)]).join('')
    const table = new Map<string, string[]>()
    while (table.size < 400) {
      const k = word()
      table.set(k, [`${k}-form`, 'x'])
      table.set(`${k}a`, ['prefix'])
    }
    const tr: Translator = {forms: k => table.get(k) ?? [], maxWords: 3, entries: () => table.entries()}
    const looked = formsTranslator(formsText(tr, 'v1'))
    for (const [k, forms] of table) expect(looked.forms(k)).toEqual(forms)
    let misses = 0
    for (let n = 0; n < 2000; n++) {
      const probe = word()
      expect(looked.forms(probe)).toEqual(table.get(probe) ?? [])
      if (!table.has(probe)) misses++
    }
    expect(misses).toBeGreaterThan(500)
    // The table is in code point order, which puts U+E000 before U+1F600 though UTF-16 orders them the other way.
    expect(compareTerms('\ue000', '😀')).toBe(-1)
    expect(looked.forms('\ue000')).toEqual(table.get('\ue000') ?? [])
  })
})
