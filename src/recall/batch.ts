import {FIELDS, type Field} from './match/doc.js'
import {QUARTERS, THOUSANDTHS} from './format.js'
import type {IndexRecord} from './write.js'

/**
 * Records prepared for the index writer a run at a time, as plain numbers: terms numbered within
 * the run, posting entries in typed arrays, the encoded halves as bytes. Preparing them is most of
 * a record's cost, and can run on a worker thread (pool.ts), which hands a batch over
 * without copying; the writer then only renumbers terms and copies integers (IndexWriter.add).
 */
export interface Batch {
  terms: string[]
  /** Each record's match half then its rank half, UTF-8, ending at halfAt[2r + 1] and halfAt[2r + 2]. */
  halves: Uint8Array
  halfAt: Int32Array
  must: Uint8Array
  len: IndexRecord['len'][]
  session: IndexRecord['session'][]
  /** Per record, the codes of its tf fields in the tf's order, FIELDS.length slots ended by -1. */
  fields: Int8Array
  /** Per record and list, where its entries in that list end (entries of record r start where r - 1's end). */
  ends: Int32Array
  lists: Int32Array[]
}

/**
 * The lists of a batch, each entry a term number and then the numbers the index posts (their
 * record left out: the writer knows it): tf counts (field code, count); admitting phrases (phrase,
 * total, slack, min, concepts, lone, compound); supporting ones (phrase, total, slack, compound);
 * concept units by own form and by translation (phrase, unit, form, need, total, weight, min).
 */
export const COUNTS = 0
export const STRONG = 1
export const SUPPORT = 2
export const OWN = 3
export const ALT = 4
export const WIDTHS = [2, 7, 4, 7, 7]

/** Posting numbers are integers (candidates.ts): weights in quarters, shares in thousandths. */
function integer(x: number, scale: number): number {
  const n = x * scale
  if (!Number.isInteger(n)) throw new Error(`recall index: ${x} is not a multiple of 1/${scale}`)
  return n
}
/** Term counts are capped here: a count this high would need a 16 MB field. */
const COUNT = 2 ** 24
const quarters = (x: number): number => integer(x, QUARTERS)
const thousandths = (x: number): number => integer(x, THOUSANDTHS)

class IntList {
  data = new Int32Array(256)
  length = 0

  push(x: number): void {
    if (this.length === this.data.length) this.room(1)
    this.data[this.length++] = x
  }

  /** Room for n more values: they are written into `data` from the returned offset on. */
  reserve(n: number): number {
    if (this.length + n > this.data.length) this.room(n)
    const at = this.length
    this.length += n
    return at
  }

  private room(n: number): void {
    const grown = new Int32Array(Math.max(this.data.length * 2, this.length + n))
    grown.set(this.data)
    this.data = grown
  }

  done(): Int32Array {
    return this.data.slice(0, this.length)
  }
}

export class BatchBuilder {
  private readonly ids = new Map<string, number>()
  private readonly terms: string[] = []
  private readonly halves: string[] = []
  private readonly must: number[] = []
  private readonly len: IndexRecord['len'][] = []
  private readonly session: IndexRecord['session'][] = []
  private readonly fields: number[] = []
  private readonly ends: number[] = []
  private readonly lists = WIDTHS.map(() => new IntList())

  get size(): number {
    return this.must.length
  }

  private term(t: string): number {
    let k = this.ids.get(t)
    if (k === undefined) {
      k = this.terms.length
      this.ids.set(t, k)
      this.terms.push(t)
    }
    return k
  }

  /** An entry per distinct term of a phrase, at its first place: the term, then the phrase's values. */
  private post(list: IntList, terms: readonly string[], values: readonly number[]): void {
    for (let i = 0; i < terms.length; i++) {
      if (terms.indexOf(terms[i]) < i) continue
      let at = list.reserve(1 + values.length)
      const d = list.data
      d[at++] = this.term(terms[i])
      for (const v of values) d[at++] = v
    }
  }

  /** Adds a record (its postings in the order IndexWriter posts them) and returns its number in the batch. */
  add(r: Omit<IndexRecord, 'visible'>): number {
    const at = this.must.length
    this.halves.push(r.match, r.rank)
    this.must.push(r.must ? 1 : 0)
    this.len.push(r.len)
    this.session.push(r.session)
    const [counts, strong, support, own, alt] = this.lists
    const codes = Object.keys(r.tf) as Field[]
    for (let k = 0; k < FIELDS.length; k++) this.fields.push(k < codes.length ? FIELDS.indexOf(codes[k]) : -1)
    for (const f of codes) {
      const code = FIELDS.indexOf(f)
      const pairs = r.tf[f]!
      let at = counts.reserve(3 * pairs.length)
      const d = counts.data
      for (const [t, c] of pairs) {
        d[at++] = this.term(t)
        d[at++] = code
        d[at++] = Math.min(c, COUNT - 1)
      }
    }
    // Entries are written value by value: a record's postings number in the hundreds, and an array per entry shows in the GC.
    for (const p of r.strong) {
      const total = quarters(p.total)
      const slack = quarters(p.slack)
      const min = thousandths(p.min)
      const concepts = quarters(p.concepts)
      const lone = p.lone ? 1 : 0
      for (let compound = 0; compound < 2; compound++) {
        this.post(strong, compound ? p.compounds : p.terms, [p.index, total, slack, min, concepts, lone, compound])
      }
    }
    for (const p of r.support) {
      const total = quarters(p.total)
      const slack = quarters(p.slack)
      for (let compound = 0; compound < 2; compound++)
        this.post(support, compound ? p.compounds : p.terms, [p.index, total, slack, compound])
    }
    for (const {index, total, min, units} of r.concepts) {
      // phrase, unit, form, terms the form needs, phrase total, unit weight, min coverage
      const phraseTotal = quarters(total)
      const minimum = thousandths(min)
      for (let k = 0; k < units.length; k++) {
        const u = units[k]
        const weight = quarters(u.weight)
        for (let f = 0; f < u.forms.length; f++) {
          const terms = u.forms[f]
          if (terms.length === 0) continue
          const list = f === 0 ? own : alt
          let at = list.reserve(8 * terms.length)
          const d = list.data
          for (const t of terms) {
            d[at++] = this.term(t)
            d[at++] = index
            d[at++] = k
            d[at++] = f
            d[at++] = terms.length
            d[at++] = phraseTotal
            d[at++] = weight
            d[at++] = minimum
          }
        }
      }
    }
    for (const list of this.lists) this.ends.push(list.length)
    return at
  }

  /** The batch, and the buffers a worker hands over with it. */
  take(): {batch: Batch; transfer: ArrayBuffer[]} {
    const bytes = this.halves.map(h => Buffer.from(h))
    const halfAt = new Int32Array(bytes.length + 1)
    bytes.forEach((b, k) => (halfAt[k + 1] = halfAt[k] + b.length))
    const halves = new Uint8Array(halfAt[bytes.length])
    bytes.forEach((b, k) => halves.set(b, halfAt[k]))
    const batch: Batch = {
      terms: this.terms,
      halves,
      halfAt,
      must: Uint8Array.from(this.must),
      len: this.len,
      session: this.session,
      fields: Int8Array.from(this.fields),
      ends: Int32Array.from(this.ends),
      lists: this.lists.map(l => l.done()),
    }
    const arrays = [halves, halfAt, batch.must, batch.fields, batch.ends, ...batch.lists]
    return {batch, transfer: arrays.map(a => a.buffer as ArrayBuffer)}
  }
}
