import {unitWeight} from './match/codec.js'
import {
  ADMIT_THRESHOLD,
  phraseBound,
  type PhraseReach,
  phraseScoreBound,
  positiveBound,
  type ShortReach,
  strengthBound,
} from './match/evidence.js'
import {hasCjk} from './match/tokenize.js'
import {IMPACT, QUARTERS, THOUSANDTHS} from './format.js'

/**
 * Which records the prompt can admit, from the terms table alone (format.ts gives its line layout):
 * an upper bound of each record's admission score, against ADMIT_THRESHOLD. Only the records it
 * returns are decoded and scored. The bounds are evidence.ts's, each beside the piece of the score it
 * bounds; this file only walks the postings into the numbers they read.
 *
 * A common word's postings run to thousands of entries, and a hook runs this once, mostly before
 * the optimiser has compiled it, where every fractional number read or computed is a new heap
 * object. So the postings hold integers only (weights in quarters, shares in thousandths, as the
 * index writes them), and the bookkeeping is integers in typed arrays: one slot per (record,
 * phrase) touched, chained per record, and nothing allocated per posting entry.
 */

/** A term's line in the terms table, split at tabs: [term, df, strong, support, own, alt]. */
export type TermLine = readonly string[] | undefined
/** Where a term's line holds each of its posting lists. */
const STRONG_LIST = 2
const SUPPORT_LIST = 3
const OWN_LIST = 4
const ALT_LIST = 5

/**
 * Each kind of posting list (format.ts; batch.ts writes them) is a flat list of entries, a fixed
 * count of integers each: the record and the phrase's index in it first.
 */
const RECORD = 0
const PHRASE = 1
/** An admitting phrase: total, slack, min, concepts, lone, compound. */
const STRONG_TOTAL = 2
const STRONG_SLACK = 3
const STRONG_MIN = 4
const STRONG_CONCEPTS = 5
const STRONG_LONE = 6
const STRONG_COMPOUND = 7
const STRONG_ROW = 8
/** A supporting phrase (topics, keywords): total, slack, compound. */
const SUPPORT_TOTAL = 2
const SUPPORT_SLACK = 3
const SUPPORT_COMPOUND = 4
const SUPPORT_ROW = 5
/** A concept unit of an admitting phrase (own and alt lists): unit, form, need, total, weight, min. */
const UNIT = 2
const UNIT_FORM = 3
const UNIT_NEED = 4
const UNIT_TOTAL = 5
const UNIT_WEIGHT = 6
const UNIT_MIN = 7
const UNIT_ROW = 8
/** A rank entry: the record's gap from the entry before, and its impact. */
const RANK_GAP = 0
const RANK_IMPACT = 1
const RANK_ROW = 2
/** Every list of a term's line, with its entries' width. */
const LISTS: readonly [number, number][] = [
  [STRONG_LIST, STRONG_ROW],
  [SUPPORT_LIST, SUPPORT_ROW],
  [OWN_LIST, UNIT_ROW],
  [ALT_LIST, UNIT_ROW],
]

/** What the prompt meets of one admitting or supporting phrase of one record: a slot of WIDTH integers. */
const SLOT_RECORD = 0
/** The phrase's index in the record, and the record's next slot (-1 at the end of its chain). */
const SLOT_PHRASE = 1
const SLOT_NEXT = 2
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
const WIDTH = 14

/** What candidateRecords looks for, and where. */
export interface CandidateQuery {
  /** A term's line of the terms table, or undefined when no card holds the term. */
  entry: (term: string) => TermLine
  /** How many records the index holds. */
  records: number
  /** The prompt's weighted terms, and the terms the lexicon added (they meet only the own forms of concept units). */
  prompt: Iterable<string>
  expanded: Iterable<string>
  /**
   * A short query (isShortQuery) may find a card by its wording: with true, any card that holds a
   * word of it; with its ShortReach, only a card that holds what shortQueryCoverage needs.
   */
  short: boolean | ShortReach
  /**
   * Expanded terms that are whole forms, and the prompt's own words: a lone CJK character anchors
   * only as one of them.
   */
  whole: {has(term: string): boolean}
  /** When given, only these records (1 per record) are sought: the must cards, say. */
  only?: Uint8Array
}

export function candidateRecords(q: CandidateQuery): number[] {
  const prompt = [...q.prompt]
  // A lone character of a longer translation (测试's 试) is no form: it meets no unit and anchors
  // nothing, so it is not even looked up.
  const expanded = [...q.expanded].filter(t => unitWeight(t) !== 0.25 || q.whole.has(t))
  const walk = new Walk(q.records, q.only)
  walk.english = !prompt.some(hasCjk)
  meetConcepts(walk, q.entry, prompt, expanded)
  meetWords(walk, q, prompt, expanded)
  if (typeof q.short === 'object') shortRecords(walk, q.entry, q.short)
  return admissible(walk, q.short === true)
}

/**
 * The records a short query can admit by its wording alone (evidence.ts, shortReach): those whose
 * postings, in any list, hold every term it asks for as written, or for each of its words one of
 * the terms that word can be met by. They join the records found (Walk.worded).
 */
function shortRecords(walk: Walk, entry: CandidateQuery['entry'], reach: ShortReach): void {
  for (const clauses of [reach.direct?.map(t => [t]), reach.translated]) {
    if (!clauses) continue
    const count = new Uint16Array(walk.records)
    const last = new Int32Array(walk.records).fill(-1)
    for (let c = 0; c < clauses.length; c++) {
      for (const t of clauses[c]) {
        const e = entry(t)
        if (!e) continue
        for (const [at, width] of LISTS) {
          const list = e[at]
          if (!list) continue
          const v = rows(list)
          for (let r = 0; r < v.length; r += width) {
            const i = v[r + RECORD]
            if (last[i] === c) continue
            last[i] = c
            count[i]++
          }
        }
      }
    }
    const only = walk.only
    for (let i = 0; i < walk.records; i++) if (count[i] === clauses.length && (!only || only[i])) walk.worded.add(i)
  }
}

/**
 * The units met of one (record, phrase) with concept units, as evidence.ts's unitsMet finds them,
 * and the phrase's concept total and share (in quarters and thousandths), from its first concept posting.
 */
class UnitsMet {
  /**
   * Flat quads per unit met: its key, its weight in quarters, 1 when met by its own form in the
   * prompt's own words, and the terms its form needed (an English form's words).
   */
  readonly met: number[] = []
  /** Flat pairs per form of several terms: its key (unit * 256 + form) and how many of its terms were seen so far. */
  private seen: number[] | null = null

  constructor(
    readonly total: number,
    readonly min: number,
  ) {}

  /**
   * A unit met, by its key: its index in the phrase, or for an English word that stands for its own
   * unit, a negative number per word (Walk.wordKey).
   */
  meet(key: number, quarters: number, own: number, terms: number): void {
    const m = this.met
    for (let k = 0; k < m.length; k += MET) {
      if (m[k + MET_KEY] !== key) continue
      m[k + MET_QUARTERS] = quarters
      if (own > m[k + MET_OWN]) m[k + MET_OWN] = own
      if (terms > m[k + MET_TERMS]) m[k + MET_TERMS] = terms
      return
    }
    m.push(key, quarters, own, terms)
  }

  /** One more term of a form of several seen: whether the prompt now holds every term it needs. */
  complete(form: number, need: number): boolean {
    const counts = (this.seen ??= [])
    let k = 0
    while (k < counts.length && counts[k] !== form) k += 2
    if (k === counts.length) counts.push(form, 0)
    return ++counts[k + 1] >= need
  }

  /** The units' part of a PhraseReach: what unitsBound reads. */
  reach(r: PhraseReach): void {
    let own = 0
    let got = 0
    let words = 0
    const m = this.met
    for (let k = 0; k < m.length; k += MET) {
      const w = m[k + MET_QUARTERS]
      got += w
      if (m[k + MET_OWN]) own += w
      // As unitsMet weighs the English that met a unit: its words, when more than the unit's weight.
      words += Math.max(w, m[k + MET_TERMS] * QUARTERS)
    }
    r.units = true
    r.own = own / QUARTERS
    r.got = got / QUARTERS
    r.words = words / QUARTERS
    r.unitTotal = this.total / QUARTERS
    r.unitMin = this.min / THOUSANDTHS
  }
}

/** A unit met's quad in UnitsMet.met. */
const MET_KEY = 0
const MET_QUARTERS = 1
const MET_OWN = 2
const MET_TERMS = 3
const MET = 4

/** One walk's bookkeeping: the slots, each record's chain of them, and the records anchored. */
class Walk {
  /** Each record's first slot, -1 when none. */
  private readonly head: Int32Array
  /** The slots, WIDTH integers each; grown by doubling. */
  f = new Int32Array(1024 * WIDTH)
  slots = 0
  /** Per slot, its concept units met, or null. */
  readonly units: (UnitsMet | null)[] = []
  readonly hasUnits: Uint8Array
  /**
   * A card needs a word or bigram in common, a concept unit met, or a phrase made of lone CJK
   * characters only; other single CJK characters only tighten the bound.
   */
  readonly isAnchored: Uint8Array
  readonly anchored: number[] = []
  /** Records a short query finds by any of their wording. */
  readonly worded = new Set<number>()
  /**
   * Per record, which of the prompt's terms its postings were met by: 0 none yet, k + 1 the prompt's
   * k-th term alone, -1 several (or a term the lexicon added). A prompt of no CJK terms (english)
   * that meets a record by one term only counts that term once (evidence.ts): one phrase scores.
   */
  readonly source: Int32Array
  english = false
  private readonly wordKeys = new Map<string, number>()

  constructor(
    readonly records: number,
    readonly only: Uint8Array | undefined,
  ) {
    this.head = new Int32Array(records).fill(-1)
    this.hasUnits = new Uint8Array(records)
    this.isAnchored = new Uint8Array(records)
    this.source = new Int32Array(records)
  }

  /** Record i met by source s: the prompt's k-th term as k + 1, or -1 for a term the lexicon added. */
  from(i: number, s: number): void {
    const was = this.source[i]
    if (was === 0) this.source[i] = s
    else if (was !== s) this.source[i] = -1
  }

  /** The slot of (record i, phrase j), made when new: each record's slots are chained from head[i]. */
  slot(i: number, j: number): number {
    let f = this.f
    for (let s = this.head[i]; s >= 0; s = f[s * WIDTH + SLOT_NEXT]) if (f[s * WIDTH + SLOT_PHRASE] === j) return s
    const s = this.slots++
    if (this.slots * WIDTH > f.length) {
      const grown = new Int32Array(f.length * 2)
      grown.set(f)
      this.f = f = grown
    }
    f[s * WIDTH + SLOT_RECORD] = i
    f[s * WIDTH + SLOT_PHRASE] = j
    f[s * WIDTH + SLOT_NEXT] = this.head[i]
    this.head[i] = s
    this.units.push(null)
    return s
  }

  /**
   * The units met of (record i, phrase j): the first concept posting of a phrase fixes its concept
   * total and share, as for the direct ones.
   */
  unitsOf(i: number, j: number, total: number, min: number): UnitsMet {
    const s = this.slot(i, j)
    let u = this.units[s]
    if (!u) {
      u = this.units[s] = new UnitsMet(total, min)
      this.hasUnits[i] = 1
    }
    return u
  }

  /** An English word's unit key: a negative number per word, apart from the units' indexes. */
  wordKey(t: string): number {
    let k = this.wordKeys.get(t)
    if (k === undefined) this.wordKeys.set(t, (k = -1 - this.wordKeys.size))
    return k
  }

  anchor(i: number): void {
    if (this.isAnchored[i]) return
    this.isAnchored[i] = 1
    this.anchored.push(i)
  }

  /** A strong posting met: its weight added to the phrase's direct block; the first copies the phrase's numbers. */
  direct(at: number, w: number, v: number[], r: number): void {
    const f = this.f
    if (f[at + HAS]) {
      f[at + FOUND] += w
      return
    }
    f[at + HAS] = 1
    f[at + FOUND] = w
    f[at + TOTAL] = v[r + STRONG_TOTAL]
    f[at + SLACK] = v[r + STRONG_SLACK]
    f[at + MIN] = v[r + STRONG_MIN]
    f[at + CONCEPTS] = v[r + STRONG_CONCEPTS]
  }

  /** A support posting met, likewise into the phrase's support block. */
  support(at: number, w: number, v: number[], r: number): void {
    const f = this.f
    if (f[at + HAS]) {
      f[at + FOUND] += w
      return
    }
    f[at + HAS] = 1
    f[at + FOUND] = w
    f[at + TOTAL] = v[r + SUPPORT_TOTAL]
    f[at + SLACK] = v[r + SUPPORT_SLACK]
  }

  /** Every record a term is posted for, in any list. */
  wording(e: readonly string[]): void {
    this.postedIn(e[STRONG_LIST], STRONG_ROW)
    this.postedIn(e[SUPPORT_LIST], SUPPORT_ROW)
    this.postedIn(e[OWN_LIST], UNIT_ROW)
    this.postedIn(e[ALT_LIST], UNIT_ROW)
  }

  private postedIn(list: string | undefined, width: number): void {
    if (!list) return
    const v = rows(list)
    const only = this.only
    for (let r = 0; r < v.length; r += width) if (!only || only[v[r + RECORD]]) this.worded.add(v[r + RECORD])
  }

  /** What slot s says of its admitting phrase, in words and shares, into r: what strengthBound reads. */
  reach(s: number, r: PhraseReach): void {
    const f = this.f
    const d = s * WIDTH + DIRECT_BLOCK
    r.written = f[d + HAS] === 1
    if (r.written) {
      r.matched = f[d + FOUND] / QUARTERS
      r.total = f[d + TOTAL] / QUARTERS
      r.slack = f[d + SLACK] / QUARTERS
      r.min = f[d + MIN] / THOUSANDTHS
      r.concepts = f[d + CONCEPTS] / QUARTERS
      r.english = f[d + ENGLISH] / QUARTERS
    } else {
      // Only a direct posting tells the phrase's concept weight.
      r.concepts = 0
    }
    const u = this.units[s]
    if (u) u.reach(r)
    else r.units = false
  }
}

/**
 * First what the lexicon can meet: units' own forms (Chinese words, compounds, glossary phrases) and
 * translations in the prompt's own words, then own forms through the prompt's translations (an
 * English word's own unit through the direct postings).
 */
function meetConcepts(walk: Walk, entry: CandidateQuery['entry'], prompt: string[], expanded: string[]): void {
  for (let k = 0; k < prompt.length; k++) {
    const e = entry(prompt[k])
    if (!e) continue
    if (e[OWN_LIST]) meetUnits(walk, e[OWN_LIST], true, k + 1)
    if (e[ALT_LIST]) meetUnits(walk, e[ALT_LIST], false, k + 1)
  }
  for (const t of expanded) {
    const e = entry(t)
    if (!e) continue
    if (e[STRONG_LIST] && !hasCjk(t)) meetWordUnits(walk, e[STRONG_LIST], walk.wordKey(t))
    if (e[OWN_LIST]) meetUnits(walk, e[OWN_LIST], false, -1)
  }
}

/**
 * A unit is met when one of its forms has every term it needs (an English form: all its stems).
 * A met unit anchors its card: a CJK form is posted under its first two characters, so a lone
 * character here is a whole form, a word of its own (表), which evidence.ts counts as present.
 */
function meetUnits(walk: Walk, list: string, own: boolean, source: number): void {
  const v = rows(list)
  const only = walk.only
  for (let r = 0; r < v.length; r += UNIT_ROW) {
    const i = v[r + RECORD]
    if (only && !only[i]) continue
    walk.from(i, source)
    const u = walk.unitsOf(i, v[r + PHRASE], v[r + UNIT_TOTAL], v[r + UNIT_MIN])
    const need = v[r + UNIT_NEED]
    if (need > 1 && !u.complete(v[r + UNIT] * 256 + v[r + UNIT_FORM], need)) continue
    u.meet(v[r + UNIT], v[r + UNIT_WEIGHT], own && v[r + UNIT_FORM] === 0 ? 1 : 0, need)
    walk.anchor(i)
  }
}

/** A translation that is an English word of an admitting phrase meets that word's own unit. */
function meetWordUnits(walk: Walk, list: string, key: number): void {
  const v = rows(list)
  const only = walk.only
  for (let r = 0; r < v.length; r += STRONG_ROW) {
    const i = v[r + RECORD]
    walk.from(i, -1)
    if (!v[r + STRONG_CONCEPTS] || (only && !only[i])) continue
    walk.unitsOf(i, v[r + PHRASE], v[r + STRONG_CONCEPTS], v[r + STRONG_MIN]).meet(key, QUARTERS, 0, 1)
    walk.anchor(i)
  }
}

/**
 * Then the direct postings. A phrase's English word is also its concept unit, met in the prompt's
 * own words; that only matters for a record the lexicon met too: without a lexicon match, its
 * word-by-word bound is never above its direct one. Then what supporting phrases can add, only for
 * cards an admitting phrase anchored: the rest are out anyway.
 *
 * Both walks are one function: a hook runs this once, and V8 optimises each function with a hot loop
 * of its own separately, at a cost the single run does not win back (a function of its own for the
 * supporting postings took 8% more instructions for a common prompt at 10,000 cards).
 */
function meetWords(walk: Walk, q: CandidateQuery, prompt: string[], expanded: string[]): void {
  const only = walk.only
  for (let k = 0; k < prompt.length; k++) {
    const t = prompt[k]
    const e = q.entry(t)
    if (!e) continue
    const w = unitWeight(t) * QUARTERS
    const anchors = w !== 1
    if (e[STRONG_LIST]) {
      const english = !hasCjk(t)
      const key = walk.wordKey(t)
      const v = rows(e[STRONG_LIST])
      for (let r = 0; r < v.length; r += STRONG_ROW) {
        const i = v[r + RECORD]
        if (only && !only[i]) continue
        walk.from(i, k + 1)
        if (anchors || v[r + STRONG_LONE]) walk.anchor(i)
        // A compound's weight is in the phrase's slack already.
        const compound = v[r + STRONG_COMPOUND]
        const at = walk.slot(i, v[r + PHRASE]) * WIDTH + DIRECT_BLOCK
        walk.direct(at, compound ? 0 : w, v, r)
        if (!english || compound || !v[r + STRONG_CONCEPTS]) continue
        // An English word of a phrase is its own concept unit too (its own form is posted here):
        // met in the prompt's own words, it counts word by word, where a compound counts once.
        walk.f[at + ENGLISH] += w
        if (!walk.hasUnits[i]) continue
        walk.unitsOf(i, v[r + PHRASE], v[r + STRONG_CONCEPTS], v[r + STRONG_MIN]).meet(key, QUARTERS, 1, 1)
      }
    }
    // A short query may find a card by any of its wording (single CJK characters aside, unless a word),
    if (q.short === true && (anchors || q.whole.has(t))) walk.wording(e)
  }
  // or by a translation of its words in any of the card's wording (evidence.ts, shortQueryCoverage).
  if (q.short === true) {
    for (const t of expanded) {
      const e = q.entry(t)
      if (e) walk.wording(e)
    }
  }
  for (let k = 0; k < prompt.length; k++) {
    const t = prompt[k]
    const list = q.entry(t)?.[SUPPORT_LIST]
    if (!list) continue
    const w = unitWeight(t) * QUARTERS
    const v = rows(list)
    for (let r = 0; r < v.length; r += SUPPORT_ROW) {
      const i = v[r + RECORD]
      walk.from(i, k + 1)
      if (!walk.isAnchored[i]) continue
      walk.support(walk.slot(i, v[r + PHRASE]) * WIDTH + SUPPORT_BLOCK, v[r + SUPPORT_COMPOUND] ? 0 : w, v, r)
    }
  }
}

/**
 * The records found: each anchored record whose phrases' bounds (evidence.ts) can reach
 * ADMIT_THRESHOLD, and for a short query every record found at all. A phrase scores the better of its
 * direct and its word-by-word match, never both; a title below the share that admits supports
 * instead; supporting phrases add at most what admitting ones did. evidence() counts each prompt
 * term once: a record an English prompt meets by one term only (Walk.source, no term the lexicon
 * added) scores by one phrase at most, so its best admitting phrase's bound bounds it.
 */
function admissible(walk: Walk, short: boolean): number[] {
  const strong = new Float64Array(walk.records)
  const loose = new Float64Array(walk.records)
  // The best admitting phrase's bound: all a record met by one term of an English prompt can score.
  const top = new Float64Array(walk.records)
  // Numbers that are no small integers from the start: a field that first holds one changes the
  // object's shape when it is given a fraction, and the optimised loop over it is compiled again.
  const reach: PhraseReach = {
    written: false,
    matched: NaN,
    total: NaN,
    slack: NaN,
    min: NaN,
    concepts: NaN,
    english: NaN,
    units: false,
    own: NaN,
    got: NaN,
    words: NaN,
    unitTotal: NaN,
    unitMin: NaN,
  }
  const f = walk.f
  for (let s = 0; s < walk.slots; s++) {
    const at = s * WIDTH
    const i = f[at + SLOT_RECORD]
    if (!walk.isAnchored[i]) continue
    walk.reach(s, reach)
    const best = strengthBound(reach, true)
    const bound = phraseScoreBound(best, true)
    strong[i] += bound
    if (bound > top[i]) top[i] = bound
    if (!best) loose[i] += phraseScoreBound(strengthBound(reach, false), false)
    const p = at + SUPPORT_BLOCK
    if (f[p + HAS]) {
      const bound = phraseBound(f[p + FOUND] / QUARTERS, f[p + TOTAL] / QUARTERS, f[p + SLACK] / QUARTERS)
      loose[i] += phraseScoreBound(bound, false)
    }
  }
  const ids = walk.worded
  const one = walk.english ? walk.source : null
  for (const i of walk.anchored) {
    // Met by one term only, the first phrase that scores uses it up, and a supporting one then adds nothing.
    const bound = one && one[i] > 0 ? top[i] : positiveBound(strong[i], loose[i])
    if (short || bound >= ADMIT_THRESHOLD) ids.add(i)
  }
  return [...ids].sort((a, b) => a - b)
}

/**
 * Records whose bm25 for these weighted prompt terms can be above zero, highest bound first, from
 * the terms' rank postings (record gap, impact in thousandths rounded up). A term of negative weight can
 * only lower a score, so it is left out. The order is by bounds cut to 1/SCALE, in one native sort
 * of packed numbers, and each bound given is the top of its cut, so bounds never rise down the list.
 */
export function rankedRecords(
  postings: (term: string) => string | undefined,
  records: number,
  weights: Iterable<[string, number]>,
  skip: ReadonlySet<number>,
): {records: Uint32Array; bounds: Float64Array} {
  const sum = new Float64Array(records)
  const touched: number[] = []
  for (const [t, w] of weights) {
    const list = w > 0 ? postings(t) : undefined
    if (!list) continue
    const v = rows(list)
    for (let r = 0, i = 0; r < v.length; r += RANK_ROW) {
      i += v[r + RANK_GAP]
      if (sum[i] === 0) touched.push(i)
      // bm25's sum of the prompt weight times termImpact, each impact rounded up.
      sum[i] += (w * v[r + RANK_IMPACT]) / IMPACT
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
