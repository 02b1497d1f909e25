import {crc32} from 'node:zlib'
import {fieldWeight, termImpact} from './match/bm25.js'
import {
  type CardDoc,
  type conceptPostings,
  type Field,
  FIELDS,
  type strongPhrases,
  type supportPhrases,
} from './match/doc.js'
import {compareTerms, formTerms, type Translator} from './match/expand.js'
import type {CardPlace, CatalogEntry, CoreEntry, FileEntry, Found, Header, PathEntry} from './format.js'
import type {Region} from './format.js'
import {BLOCK, HEAD, INDEX_VERSION, MAGIC, IMPACT, QUARTERS, REGIONS, stampsText, THOUSANDTHS} from './format.js'
import {type Batch, COUNTS, WIDTHS} from './batch.js'
import {ByteSink, Postings} from './bytes.js'

/** Writing an index file (layout in format.ts): only rebuilds load this. */

export interface IndexRecord {
  match: string
  rank: string
  visible: boolean
  /** A must card: matchTopK judges every one that is a candidate. */
  must: boolean
  strong: ReturnType<typeof strongPhrases>
  /** Anchor terms of admitting phrases' concept units: [phrase index, total weight, [term, unit weight][]]. */
  concepts: ReturnType<typeof conceptPostings>
  support: ReturnType<typeof supportPhrases>
  tf: CardDoc['tf']
  len: CardDoc['len']
  /** The record's session entries (used when visible). */
  session: {core?: CoreEntry; catalog?: CatalogEntry; path?: PathEntry; bare?: boolean}
}

const u32 = (xs: ArrayLike<number>): Buffer => {
  const b = Buffer.alloc(xs.length * 4)
  for (let i = 0; i < xs.length; i++) b.writeUInt32LE(xs[i], i * 4)
  return b
}

const TAB = 9
const NEWLINE = 10

/** Integers per posting entry of each kind (format.ts), and per count: record * 16 + field, count. */
const STRONG = 8
const SUPPORT = 5
const CONCEPT = 8
const COUNTED = 2

/**
 * Builds an index record by record: each card's statistics and postings are folded in as it
 * arrives, so only the encoded halves are kept, not every parsed card, while a large library
 * is indexed. Terms are numbered as they come, postings kept as integers in typed arrays (the
 * counts too: a card's tf, its rank impacts once the stats are known) and written as text only
 * at the end, grouped by term in the order they came.
 */
export class IndexWriter {
  private readonly ids = new Map<string, number>()
  private readonly vocab: string[] = []
  private df = new Int32Array(1024)
  /** Per term, the last record that counted towards its df. */
  private last = new Int32Array(1024).fill(-1)
  private readonly strong = new Postings(STRONG)
  private readonly support = new Postings(SUPPORT)
  private readonly concept = new Postings(CONCEPT)
  private readonly conceptAlt = new Postings(CONCEPT)
  private readonly counts = new Postings(COUNTED)
  private readonly sum: Partial<Record<Field, number>> = {}
  private readonly lens: CardDoc['len'][] = []
  private readonly must: number[] = []
  /** Visible records of cards with no triggers, aliases or use_when (domain/thin.ts isBare). */
  private bare = 0
  /**
   * The records region: each record's match half, then its rank half. A batch holds its records'
   * halves in the same order, so the region is stretches of the batches' bytes, kept, not copied.
   */
  private readonly records: Uint8Array[] = []
  private recordBytes = 0
  private readonly recordAt: number[] = [0]
  private readonly core: CoreEntry[] = []
  private readonly catalog: CatalogEntry[] = []
  private readonly paths: PathEntry[] = []
  private visible = 0
  /** A term's rank postings, as integers, before they are written. */
  private scratch = new Int32Array(1024)

  /** `expect`: about how many records will be added (the card files), to size the postings. */
  constructor(private readonly expect = 0) {}

  private id(t: string): number {
    let k = this.ids.get(t)
    if (k !== undefined) return k
    k = this.vocab.length
    this.ids.set(t, k)
    this.vocab.push(t)
    if (k >= this.df.length) {
      const df = new Int32Array(this.df.length * 2)
      df.set(this.df)
      this.df = df
      const last = new Int32Array(this.last.length * 2).fill(-1)
      last.set(this.last)
      this.last = last
    }
    return k
  }

  /** The term numbers of the batch being read, -1 until a term is first used. */
  private batch?: Batch
  private local = new Int32Array(0)

  /**
   * Adds record r of a batch and returns its index; an invisible record (a copy of an id already
   * added) keeps its halves but posts nothing.
   */
  add(b: Batch, r: number, visible: boolean): number {
    const i = this.recordAt.length >> 1
    const first = b.halfAt[2 * r]
    const past = b.halfAt[2 * r + 2]
    const last = this.records[this.records.length - 1]
    // The record after the last one of the same batch extends its stretch.
    if (last && last.buffer === b.halves.buffer && last.byteOffset + last.length === b.halves.byteOffset + first) {
      this.records[this.records.length - 1] = b.halves.subarray(last.byteOffset - b.halves.byteOffset, past)
    } else this.records.push(b.halves.subarray(first, past))
    this.recordAt.push(this.recordBytes + b.halfAt[2 * r + 1] - first)
    this.recordBytes += past - first
    this.recordAt.push(this.recordBytes)
    if (!visible) return i
    if (b !== this.batch) {
      this.batch = b
      this.local = new Int32Array(b.terms.length).fill(-1)
    }
    this.visible++
    if (b.must[r]) this.must.push(i)
    const len = b.len[r]
    this.lens[i] = len
    const {core, catalog, path, bare} = b.session[r]
    if (bare) this.bare++
    if (core) this.core.push(core)
    if (catalog) this.catalog.push(catalog)
    if (path) this.paths.push(path)
    for (let k = r * FIELDS.length; k < (r + 1) * FIELDS.length && b.fields[k] >= 0; k++) {
      const f = FIELDS[b.fields[k]]
      this.sum[f] = (this.sum[f] ?? 0) + (len[f] ?? 0)
    }
    const to = [this.counts, this.strong, this.support, this.concept, this.conceptAlt]
    // Once a few records are in, a list that must grow is sized for all of them at the rate seen so far, plus a tenth.
    const rate = i >= 32 && this.expect > i + 1 ? (this.expect / (i + 1)) * 1.1 : 0
    for (let l = 0; l < WIDTHS.length; l++) {
      const list = b.lists[l]
      // A batch entry is the term and the values; the index's, the term, the record and the values (a count's packed).
      const w = WIDTHS[l] + 1
      const start = r > 0 ? b.ends[(r - 1) * WIDTHS.length + l] : 0
      const end = b.ends[r * WIDTHS.length + l]
      const out = to[l]
      const n = (end - start) / w
      let at = out.append(n, Math.ceil((out.entries + n) * rate))
      const data = out.data
      for (let e = start; e < end; e += w) {
        const id = this.termOf(list[e])
        data[at] = id
        if (l === COUNTS) {
          if (this.last[id] !== i) {
            this.last[id] = i
            this.df[id]++
          }
          data[at + 1] = i * 16 + list[e + 1]
          data[at + 2] = list[e + 2]
          at += 3
        } else {
          data[at + 1] = i
          for (let v = 1; v < w; v++) data[at + 1 + v] = list[e + v]
          at += w + 1
        }
      }
    }
    return i
  }

  private termOf(local: number): number {
    const id = this.local[local]
    return id >= 0 ? id : (this.local[local] = this.id(this.batch!.terms[local]))
  }

  /** The index file, in parts (IndexFile): a large library's runs to tens of megabytes, written as they are. */
  finish(
    base: Pick<Header, 'version' | 'skipped' | 'stores' | 'config' | 'signals' | 'lexicon' | 'scanned' | 'pins'>,
    found: readonly Found[],
    files: FileEntry[],
    tr?: Translator,
  ): IndexFile {
    const {vocab, df} = this
    const order = vocab
      .map((_, k) => k)
      .filter(k => !/[\t\n\0]/.test(vocab[k]))
      .sort((a, b) => compareTerms(vocab[a], vocab[b]))
    const records = this.recordAt.length >> 1
    const avgLen: Partial<Record<Field, number>> = {}
    for (const [f, total] of Object.entries(this.sum) as [Field, number][])
      avgLen[f] = this.visible ? total / this.visible : 0
    // Per record and field, what one count adds to tf.
    const weights = new Float64Array(records * 16)
    this.lens.forEach((len, i) =>
      FIELDS.forEach((f, code) => (weights[i * 16 + code] = fieldWeight(f, len[f] ?? 0, avgLen[f] ?? 0))),
    )
    const {lines, termAt, ranks, rankAt} = this.termLines(order, weights)
    const table = tr ? lexiconTable(tr, new Set(order.map(id => vocab[id]))) : {keys: [], lines: []}
    const body: Record<Region, Buffer | Buffer[]> = {
      stamps: Buffer.from(stampsText(found)),
      files: Buffer.from(JSON.stringify(files)),
      terms: lines.take(),
      termAt: u32(termAt),
      termHeads: heads(order.map(id => vocab[id])),
      ranks: ranks.take(),
      rankAt: u32(rankAt),
      lexicon: Buffer.concat(table.lines),
      lexiconAt: u32(offsets(table.lines)),
      lexiconHeads: heads(table.keys),
      recordAt: u32(this.recordAt),
      records: this.records.map(a => Buffer.from(a.buffer, a.byteOffset, a.length)),
      core: Buffer.from(JSON.stringify(this.core.sort(byPlace))),
      catalog: Buffer.from(JSON.stringify(this.catalog.sort(byPlace))),
      paths: Buffer.from(JSON.stringify(this.paths.sort(byPlace))),
    }
    const regions = {} as Record<Region, [number, number]>
    const parts: Buffer[] = []
    let at = 0
    for (const r of REGIONS) {
      const list = ([] as Buffer[]).concat(body[r])
      const length = list.reduce((n, b) => n + b.length, 0)
      regions[r] = [at, length]
      at += length
      parts.push(...list)
    }
    return frame({...base, n: this.visible, avgLen, must: this.must, bare: this.bare, block: BLOCK, regions}, parts, at)
  }

  /**
   * The terms and ranks regions, with their offsets, for the terms in this order. The postings are
   * let go once written (a large library's run to hundreds of megabytes), before the file is framed.
   */
  private termLines(order: readonly number[], weights: Float64Array) {
    const {vocab, df} = this
    const lists = [this.strong, this.support, this.concept, this.conceptAlt].map(p => ({p, ...p.group(vocab.length)}))
    const counted = this.counts.group(vocab.length)
    const lines = new ByteSink()
    const termAt = new Uint32Array(order.length + 1)
    const ranks = new ByteSink()
    const rankAt = new Uint32Array(order.length + 1)
    order.forEach((id, k) => {
      lines.text(vocab[id])
      lines.byte(TAB)
      lines.int(df[id])
      for (const {p, start, order: at} of lists) {
        lines.byte(TAB)
        lines.list(p.data, at, start[id], start[id + 1], p.width)
      }
      lines.byte(NEWLINE)
      termAt[k + 1] = lines.length
      ranks.int(df[id])
      ranks.byte(TAB)
      this.impacts(ranks, counted.order.subarray(counted.start[id], counted.start[id + 1]), weights, df[id])
      rankAt[k + 1] = ranks.length
    })
    for (const p of [this.strong, this.support, this.concept, this.conceptAlt, this.counts]) p.clear()
    return {lines, termAt, ranks, rankAt}
  }

  /**
   * "record gap,impact,..." for a term, from its counts (offsets in this.counts.data, in the order
   * they came): each record's termImpact in thousandths, rounded up (a record's fields are
   * consecutive); records ascend, each given as its gap from the one before.
   */
  private impacts(out: ByteSink, entries: Int32Array, weights: Float64Array, df: number): void {
    const data = this.counts.data
    let pairs = 0
    let last = 0
    for (let k = 0; k < entries.length;) {
      // A count's key is record * 16 + field, and weights are laid out by record * 16 + field.
      const i = data[entries[k]] >> 4
      let tf = 0
      for (; k < entries.length && data[entries[k]] >> 4 === i; k++)
        tf += data[entries[k] + 1] * weights[data[entries[k]]]
      const impact = Math.ceil(termImpact(tf, this.visible, df) * IMPACT)
      if (!Number.isSafeInteger(impact) || Math.abs(impact) >= 2 ** 31)
        throw new Error(`recall index: impact ${impact} of a term`)
      if (2 * pairs + 2 > this.scratch.length) {
        const grown = new Int32Array(this.scratch.length * 2)
        grown.set(this.scratch)
        this.scratch = grown
      }
      this.scratch[2 * pairs] = i - last
      this.scratch[2 * pairs + 1] = impact
      pairs++
      last = i
    }
    out.list(this.scratch, null, 0, pairs, 2)
  }
}

/**
 * The prompt side of the lexicon, cut down to this library: each key (a Chinese word or an English
 * stem sequence) with the forms that share a term with the index, sorted for binary search. A form
 * with no term any card holds (in its words, its translations or its concept forms) can change no
 * match, so leaving it out gives exactly the answer of the whole lexicon (test/recall-bounds.test.ts).
 */
function lexiconTable(tr: Translator, vocab: ReadonlySet<string>): {keys: string[]; lines: Buffer[]} {
  const rows: [string, string][] = []
  for (const [key, forms] of tr.entries()) {
    if (/[\t\n\0|]/.test(key)) continue
    const useful = forms.filter(f => formTerms(f).some(t => vocab.has(t)))
    if (useful.length) rows.push([key, useful.join('|')])
  }
  rows.sort((a, b) => compareTerms(a[0], b[0]))
  return {keys: rows.map(([k]) => k), lines: rows.map(([k, f]) => Buffer.from(`${k}\t${f}\n`))}
}

const PLACE_ORDER = ['project', 'org', 'personal']
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Project, then org layers (by name), then personal, then by id: the stable order of the session regions. */
const byPlace = (a: CardPlace, b: CardPlace): number =>
  PLACE_ORDER.indexOf(a.store) - PLACE_ORDER.indexOf(b.store) || cmp(a.layer ?? '', b.layer ?? '') || cmp(a.id, b.id)

/**
 * An index file as written: its head (first line, header and block table) and its body, in parts
 * whose bytes follow one another. Nothing joins them: they go to the file one after another.
 */
export interface IndexFile {
  head: Buffer
  body: Buffer[]
}

/** The file's bytes in one buffer, for an index that is not written to a file. */
export const joined = (f: IndexFile): Buffer => Buffer.concat([f.head, ...f.body])

/** The first line, header, block table and body (given in parts, `length` bytes in all) of an index file. */
function frame(header: Header, parts: Buffer[], length: number): IndexFile {
  const json = Buffer.from(JSON.stringify(header))
  const size = header.block
  const table = Buffer.alloc(Math.ceil(length / size) * 4)
  // Each block's CRC, over the parts as one run of bytes.
  let crc = 0
  let filled = 0
  let b = 0
  for (const p of parts) {
    for (let off = 0; off < p.length;) {
      const take = Math.min(size - filled, p.length - off)
      crc = crc32(p.subarray(off, off + take), crc)
      filled += take
      off += take
      if (filled === size) {
        table.writeUInt32LE(crc, 4 * b++)
        crc = 0
        filled = 0
      }
    }
  }
  if (filled > 0) table.writeUInt32LE(crc, 4 * b)
  const head = crc32(table, crc32(json))
  // The line holds its own length; the file length counts it, so find the fixed point (one step, rarely two).
  let line = ''
  for (let total = json.length + table.length + length; ;) {
    line = `${MAGIC} ${INDEX_VERSION} ${json.length} ${table.length} ${total} ${head}\n`
    if (total === line.length + json.length + table.length + length) break
    total = line.length + json.length + table.length + length
  }
  return {head: Buffer.concat([Buffer.from(line), json, table]), body: parts}
}

/** Each key's first HEAD bytes (UTF-8), zero-padded: a table's lookups compare these in memory. */
function heads(keys: readonly string[]): Buffer {
  const out = Buffer.alloc(keys.length * HEAD)
  keys.forEach((k, i) => Buffer.from(k).copy(out, i * HEAD, 0, HEAD))
  return out
}

function offsets(parts: Buffer[]): number[] {
  const at = [0]
  for (const p of parts) at.push(at[at.length - 1] + p.length)
  return at
}
