import {unitWeight} from './match/codec.js'
import {ADMIT_THRESHOLD, conceptBound, lexicalFactor, phraseBound, roundUp, SUPPORT} from './match/evidence.js'
import {hasCjk} from './match/tokenize.js'
import {IMPACT, QUARTERS, THOUSANDTHS} from './format.js'

/**
 * Which records the prompt can admit, from the terms table alone (format.ts gives its
 * line layout): an upper bound of each record's admission score, as evidence.ts would score it,
 * against ADMIT_THRESHOLD. Only the records it returns are decoded and scored.
 *
 * A common word's postings run to thousands of entries, and a hook runs this once, mostly before
 * the optimiser has compiled it, where every fractional number read or computed is a new heap
 * object. So the postings hold integers only (weights in quarters, shares in thousandths, as the
 * index writes them), and the bookkeeping is integers in typed arrays: one slot per (record,
 * phrase) touched, chained per record, and nothing allocated per posting entry.
 */

/** What the prompt meets of one admitting or supporting phrase of one record: a slot of WIDTH integers. */
const REC = 0
/** The phrase's index in the record, and the record's next slot (-1 at the end of its chain). */
const PHRASE = 1
const NEXT = 2
/**
 * Two blocks of the same layout (a block's start + HAS, FOUND, ...): the direct postings of an
 * admitting phrase, and a supporting phrase (topics, keywords). Whether any posting was met, the
 * weight of the prompt's terms found, the phrase's total and slack; for admitting phrases also the
 * share it needs, its concept weight, and the weight of the prompt's English words found.
 */
const DIRECT_BLOCK = 3
const SUPPORT_BLOCK = 10
const HAS = 0
const FOUND = 1
const TOTAL = 2
const SLACK = 3
const MIN = 4
const CONCEPTS = 5
const ENGLISH = 6
/** Concept units: the concept total and the share needed (the units met are kept beside, in met). */
const UNIT_TOTAL = 14
const UNIT_MIN = 15
const WIDTH = 16

/** Numbers per entry of each kind of posting list (format.ts). */
const STRONG_ROW = 8
const SUPPORT_ROW = 5
const UNIT_ROW = 8

/** A term's line in the terms table, split at tabs: [term, df, strong, support, own, alt]. */
export type TermLine = readonly string[] | undefined

export function candidateRecords(
  entry: (term: string) => TermLine,
  records: number,
  prompt: Iterable<string>,
  expanded: Iterable<string>,
  short: boolean,
  /** Expanded terms that are whole forms, and the prompt's own words: a lone CJK character anchors only as one of them. */
  whole: {has(term: string): boolean},
  /** When given, only these records (1 per record) are sought: the must cards, say. */
  only?: Uint8Array,
): number[] {
  const prompts = [...prompt]
  // A lone character of a longer translation (测试's 试) is no form: it meets no unit and anchors
  // nothing, so it is not even looked up.
  const expandedTerms = [...expanded].filter(t => unitWeight(t) !== 0.25 || whole.has(t))
  // (record, phrase) → slot: each record's slots are chained from head[record] (a record has a few).
  const head = new Int32Array(records).fill(-1)
  let f = new Int32Array(1024 * WIDTH)
  let slots = 0
  // Per slot with concept units: the units met as flat [key, quarters, own, need] quads, and the
  // terms of multi-term forms seen so far as flat [unit * 256 + form, count] pairs.
  const met: (number[] | null)[] = []
  const seen: (number[] | null)[] = []
  const slot = (i: number, j: number): number => {
    for (let s = head[i]; s >= 0; s = f[s * WIDTH + NEXT]) if (f[s * WIDTH + PHRASE] === j) return s
    const s = slots++
    if (slots * WIDTH > f.length) {
      const grown = new Int32Array(f.length * 2)
      grown.set(f)
      f = grown
    }
    f[s * WIDTH + REC] = i
    f[s * WIDTH + PHRASE] = j
    f[s * WIDTH + NEXT] = head[i]
    head[i] = s
    met.push(null)
    seen.push(null)
    return s
  }
  // The first concept posting of a phrase fixes its concept total and share, as for the direct ones.
  const hasUnits = new Uint8Array(records)
  const units = (i: number, j: number, total: number, min: number): number => {
    const s = slot(i, j)
    if (!met[s]) {
      met[s] = []
      f[s * WIDTH + UNIT_TOTAL] = total
      f[s * WIDTH + UNIT_MIN] = min
      hasUnits[i] = 1
    }
    return s
  }
  // Units are keyed by number: their index in the phrase, or for an English word that stands for
  // its own unit, a negative number per word.
  const wordKeys = new Map<string, number>()
  const wordKey = (t: string): number => {
    let k = wordKeys.get(t)
    if (k === undefined) wordKeys.set(t, (k = -1 - wordKeys.size))
    return k
  }
  // A unit met: its weight, whether by its own form in the prompt's own words (1), and the words of the form.
  const meet = (s: number, key: number, w: number, own: number, need: number) => {
    const m = met[s]!
    for (let k = 0; k < m.length; k += 4) {
      if (m[k] !== key) continue
      m[k + 1] = w
      if (own > m[k + 2]) m[k + 2] = own
      if (need > m[k + 3]) m[k + 3] = need
      return
    }
    m.push(key, w, own, need)
  }
  // A card needs a word or bigram in common, a concept unit met, or a phrase made of lone CJK
  // characters only; other single CJK characters only tighten the bound.
  const isAnchored = new Uint8Array(records)
  const anchored: number[] = []
  const anchor = (i: number) => {
    if (isAnchored[i]) return
    isAnchored[i] = 1
    anchored.push(i)
  }
  const ids = new Set<number>()
  // A posting met: its weight added to the phrase's block; the first copies the phrase's numbers.
  const found = (at: number, w: number, v: number[], r: number, numbers: number) => {
    if (f[at + HAS]) f[at + FOUND] += w
    else {
      f[at + HAS] = 1
      f[at + FOUND] = w
      for (let k = 0; k < numbers; k++) f[at + TOTAL + k] = v[r + 2 + k]
    }
  }
  // Every record a term is posted for, in any list.
  const wording = (e: readonly string[]) => {
    for (let k = 2; k <= 5; k++) {
      if (!e[k]) continue
      const v = rows(e[k])
      const width = k === 2 ? STRONG_ROW : k === 3 ? SUPPORT_ROW : UNIT_ROW
      for (let r = 0; r < v.length; r += width) if (!only || only[v[r]]) ids.add(v[r])
    }
  }

  // A unit is met when one of its forms has every term it needs (an English form: all its stems).
  // A met unit anchors its card: a CJK form is posted under its first two characters, so a lone
  // character here is a whole form, a word of its own (表), which evidence.ts counts as present.
  const concept = (list: string, own: boolean) => {
    const v = rows(list)
    for (let r = 0; r < v.length; r += UNIT_ROW) {
      const i = v[r]
      if (only && !only[i]) continue
      const s = units(i, v[r + 1], v[r + 5], v[r + 7])
      const need = v[r + 4]
      if (need > 1) {
        const key = v[r + 2] * 256 + v[r + 3]
        const counts = (seen[s] ??= [])
        let k = 0
        while (k < counts.length && counts[k] !== key) k += 2
        if (k === counts.length) counts.push(key, 0)
        if (++counts[k + 1] < need) continue
      }
      meet(s, v[r + 2], v[r + 6], own && v[r + 3] === 0 ? 1 : 0, need)
      anchor(i)
    }
  }
  // First what the lexicon can meet: units' own forms (Chinese words, compounds, glossary
  // phrases) and translations in the prompt's own words, then own forms through the prompt's
  // translations (an English word's own unit through the direct postings).
  for (const t of prompts) {
    const e = entry(t)
    if (!e) continue
    if (e[4]) concept(e[4], true)
    if (e[5]) concept(e[5], false)
  }
  for (const t of expandedTerms) {
    const e = entry(t)
    if (!e) continue
    if (e[2] && !hasCjk(t)) {
      const key = wordKey(t)
      const v = rows(e[2])
      for (let r = 0; r < v.length; r += STRONG_ROW) {
        if (!v[r + 5] || (only && !only[v[r]])) continue
        meet(units(v[r], v[r + 1], v[r + 5], v[r + 4]), key, QUARTERS, 0, 1)
        anchor(v[r])
      }
    }
    if (e[4]) concept(e[4], false)
  }
  // Then the direct postings. A phrase's English word is also its concept unit, met in the
  // prompt's own words; that only matters for a record the lexicon met too: without a lexicon
  // match, its word-by-word bound is never above its direct one.
  for (const t of prompts) {
    const e = entry(t)
    if (!e) continue
    const w = unitWeight(t) * QUARTERS
    const anchors = w !== 1
    if (e[2]) {
      const english = !hasCjk(t)
      const key = wordKey(t)
      const v = rows(e[2])
      for (let r = 0; r < v.length; r += STRONG_ROW) {
        const i = v[r]
        if (only && !only[i]) continue
        if (anchors || v[r + 6]) anchor(i)
        // A compound's weight is in the phrase's slack already.
        const at = slot(i, v[r + 1]) * WIDTH + DIRECT_BLOCK
        found(at, v[r + 7] ? 0 : w, v, r, 4)
        if (!english || v[r + 7] || !v[r + 5]) continue
        // An English word of a phrase is its own concept unit too (its own form is posted here):
        // met in the prompt's own words, it counts word by word, where a compound counts once.
        f[at + ENGLISH] += w
        if (hasUnits[i]) meet(units(i, v[r + 1], v[r + 5], v[r + 4]), key, QUARTERS, 1, 1)
      }
    }
    // A short query may find a card by any of its wording (single CJK characters aside, unless a word).
    if (short && (anchors || whole.has(t))) wording(e)
  }
  // Or by a translation of its words in any of the card's wording (evidence.ts, shortQueryCoverage).
  if (short) {
    for (const t of expandedTerms) {
      const e = entry(t)
      if (e) wording(e)
    }
  }
  // What supporting phrases can add, only for cards an admitting phrase anchored: the rest are out anyway.
  for (const t of prompts) {
    const list = entry(t)?.[3]
    if (!list) continue
    const w = unitWeight(t) * QUARTERS
    const v = rows(list)
    for (let r = 0; r < v.length; r += SUPPORT_ROW) {
      if (isAnchored[v[r]]) found(slot(v[r], v[r + 1]) * WIDTH + SUPPORT_BLOCK, v[r + 4] ? 0 : w, v, r, 2)
    }
  }
  // A phrase scores the better of its direct and its word-by-word match, never both; a title
  // below the share that admits supports instead (as evidence.ts scores it).
  const strong = new Float64Array(records)
  const loose = new Float64Array(records)
  const q = (x: number) => x / QUARTERS
  for (let s = 0; s < slots; s++) {
    const at = s * WIDTH
    const i = f[at + REC]
    if (!isAnchored[i]) continue
    let best = 0
    let under = 0
    const d = at + DIRECT_BLOCK
    if (f[d + HAS]) {
      const got = q(f[d + FOUND])
      const total = q(f[d + TOTAL])
      const slack = q(f[d + SLACK])
      const min = f[d + MIN] / THOUSANDTHS
      best = phraseBound(got, total, slack, min)
      if (min) under = phraseBound(got, total, slack)
    }
    const m = met[s]
    if (!m && f[d + CONCEPTS]) {
      // Word by word in the prompt's own words alone: every English word found is a unit met.
      const total = q(f[d + CONCEPTS])
      const min = f[d + MIN] / THOUSANDTHS
      best = Math.max(best, conceptBound(q(f[d + ENGLISH]), total, min))
      if (min) under = Math.max(under, conceptBound(q(f[d + ENGLISH]), total))
    }
    if (m) {
      // As evidence.ts scores word by word: all met in the prompt's own words, or through the
      // lexicon at lexicalFactor (less still for a single translated word).
      let own = 0
      let got = 0
      let words = 0
      for (let k = 0; k < m.length; k += 4) {
        got += m[k + 1]
        if (m[k + 2]) own += m[k + 1]
        words += Math.max(m[k + 1], m[k + 3] * QUARTERS)
      }
      const factor = lexicalFactor(q(words))
      const total = q(f[at + UNIT_TOTAL])
      const min = f[at + UNIT_MIN] / THOUSANDTHS
      best = Math.max(best, conceptBound(q(own), total, min), factor * conceptBound(q(got), total, min))
      if (min) under = Math.max(under, conceptBound(q(own), total), factor * conceptBound(q(got), total))
    }
    // Each as evidence.ts rounds a phrase's score (to thousandths), rounded up, and supporting ones at SUPPORT.
    strong[i] += roundUp(best)
    if (!best) loose[i] += roundUp(SUPPORT * under)
    const p = at + SUPPORT_BLOCK
    if (f[p + HAS]) loose[i] += roundUp(SUPPORT * phraseBound(q(f[p + FOUND]), q(f[p + TOTAL]), q(f[p + SLACK])))
  }
  // What supporting phrases and titles below their share can add, at most what admitting ones did.
  for (const i of anchored) if (short || strong[i] + Math.min(loose[i], strong[i]) >= ADMIT_THRESHOLD) ids.add(i)
  return [...ids].sort((a, b) => a - b)
}

/**
 * Records whose bm25 for these weighted prompt terms can be above zero, highest bound first, from
 * the terms' rank postings (record gap, impact in thousandths rounded up). A term of negative weight can
 * only lower a score, so it is left out. The order is by bounds cut to 1/SCALE, in one native sort
 * of packed numbers, and each bound given is the top of its cut, so bounds never rise down the list.
 */
export function rankedRecords(postings: (term: string) => string | undefined, records: number, weights: Iterable<[string, number]>, skip: ReadonlySet<number>): {records: Uint32Array; bounds: Float64Array} {
  const sum = new Float64Array(records)
  const touched: number[] = []
  for (const [t, w] of weights) {
    const list = w > 0 ? postings(t) : undefined
    if (!list) continue
    const v = rows(list)
    for (let r = 0, i = 0; r < v.length; r += 2) {
      i += v[r]
      if (sum[i] === 0) touched.push(i)
      sum[i] += (w * v[r + 1]) / IMPACT
    }
  }
  const keys = new Float64Array(touched.length)
  let n = 0
  for (const i of touched) if (!skip.has(i) && sum[i] > 0) keys[n++] = Math.floor(sum[i] * SCALE) * RECORDS + i
  const sorted = keys.subarray(0, n).sort()
  const out = {records: new Uint32Array(n), bounds: new Float64Array(n)}
  for (let k = 0; k < n; k++) {
    const key = sorted[n - 1 - k]
    out.records[k] = key % RECORDS
    out.bounds[k] = (Math.floor(key / RECORDS) + 1) / SCALE
  }
  return out
}

/**
 * Bounds are ordered in steps of 1/SCALE (about rank's own thousandths), packed above the record
 * number in one double: exact for 4 million records and bounds up to 2 million.
 */
const SCALE = 2 ** 10
const RECORDS = 2 ** 22

/**
 * A posting list ("n,n,n,...", a fixed count per entry) as numbers: one native JSON.parse, into an
 * array of small integers, read without a heap object per number.
 */
const rows = (list: string): number[] => JSON.parse(`[${list}]`) as number[]
