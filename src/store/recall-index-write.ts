import {crc32} from 'node:zlib'
import {fieldWeight, termImpact} from '../domain/recall/bm25.js'
import {type CardDoc, type conceptPostings, type Field, FIELDS, type strongPhrases, type supportPhrases} from '../domain/recall/doc.js'
import {compareTerms, formTerms, type Translator} from '../domain/recall/expand.js'
import type {CardPlace, CatalogEntry, CoreEntry, FileEntry, Found, Header, PathEntry} from './recall-index-format.js'
import type {Region} from './recall-index-format.js'
import {BLOCK, HEAD, INDEX_VERSION, MAGIC, IMPACT, QUARTERS, REGIONS, stampsText, THOUSANDTHS} from './recall-index-format.js'

/** Writing an index file (layout in recall-index-format.ts): only rebuilds load this. */

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
  session: {core?: CoreEntry; catalog?: CatalogEntry; path?: PathEntry}
}

/** Posting numbers are integers (recall-index-candidates.ts): weights in quarters, shares in thousandths. */
function integer(x: number, scale: number): number {
  const n = x * scale
  if (!Number.isInteger(n)) throw new Error(`recall index: ${x} is not a multiple of 1/${scale}`)
  return n
}
/** Counts packed with their record and field (IndexWriter.counts): a count this high would need a 16 MB field. */
const COUNT = 2 ** 24
const quarters = (x: number): number => integer(x, QUARTERS)
const thousandths = (x: number): number => integer(x, THOUSANDTHS)

const u32 = (xs: number[]): Buffer => {
  const b = Buffer.alloc(xs.length * 4)
  xs.forEach((x, i) => b.writeUInt32LE(x, i * 4))
  return b
}

/**
 * Builds an index record by record: each card's statistics and postings are folded in as it
 * arrives, so only the encoded halves are kept, not every parsed card, while a large library
 * is indexed.
 */
export class IndexWriter {
  private readonly df = new Map<string, number>()
  private readonly strong = new Map<string, string[]>()
  private readonly support = new Map<string, string[]>()
  private readonly concept = new Map<string, string[]>()
  private readonly conceptAlt = new Map<string, string[]>()
  private readonly sum: Partial<Record<Field, number>> = {}
  /**
   * Per term, one number per field of each visible record that holds it (record, field and count,
   * packed: a double each, not three boxed values): its rank impacts, once the stats are known.
   */
  private readonly counts = new Map<string, number[]>()
  private readonly lens: CardDoc['len'][] = []
  private readonly must: number[] = []
  private readonly match: Buffer[] = []
  private readonly rank: Buffer[] = []
  private readonly core: CoreEntry[] = []
  private readonly catalog: CatalogEntry[] = []
  private readonly paths: PathEntry[] = []
  private visible = 0

  /** Adds a record and returns its index. */
  add(r: IndexRecord): number {
    const i = this.match.length
    this.match.push(Buffer.from(r.match))
    this.rank.push(Buffer.from(r.rank))
    if (!r.visible) return i
    this.visible++
    if (r.must) this.must.push(i)
    this.lens[i] = r.len
    if (r.session.core) this.core.push(r.session.core)
    if (r.session.catalog) this.catalog.push(r.session.catalog)
    if (r.session.path) this.paths.push(r.session.path)
    const terms = new Set<string>()
    for (const [f, counts] of Object.entries(r.tf) as [Field, [string, number][]][]) {
      this.sum[f] = (this.sum[f] ?? 0) + (r.len[f] ?? 0)
      const code = FIELDS.indexOf(f)
      for (const [t, c] of counts) {
        terms.add(t)
        post(this.counts, t, (i * 16 + code) * COUNT + Math.min(c, COUNT - 1))
      }
    }
    for (const t of terms) this.df.set(t, (this.df.get(t) ?? 0) + 1)
    for (const p of r.strong) {
      const head = `${i},${p.index},${quarters(p.total)},${quarters(p.slack)},${thousandths(p.min)},${quarters(p.concepts)},${p.lone ? 1 : 0}`
      for (const t of new Set(p.terms)) post(this.strong, t, `${head},0`)
      for (const t of new Set(p.compounds)) post(this.strong, t, `${head},1`)
    }
    for (const p of r.support) {
      const head = `${i},${p.index},${quarters(p.total)},${quarters(p.slack)}`
      for (const t of new Set(p.terms)) post(this.support, t, `${head},0`)
      for (const t of new Set(p.compounds)) post(this.support, t, `${head},1`)
    }
    for (const {index, total, min, units} of r.concepts) {
      units.forEach((u, k) => {
        u.forms.forEach((terms, f) => {
          if (terms.length === 0) return
          // record, phrase, unit, form, terms the form needs, phrase total, unit weight, min coverage
          const value = `${i},${index},${k},${f},${terms.length},${quarters(total)},${quarters(u.weight)},${thousandths(min)}`
          for (const t of terms) post(f === 0 ? this.concept : this.conceptAlt, t, value)
        })
      })
    }
    return i
  }

  finish(base: Pick<Header, 'version' | 'skipped' | 'stores' | 'config' | 'signals' | 'lexicon' | 'scanned' | 'pins'>, found: readonly Found[], files: FileEntry[], tr?: Translator): Buffer {
    const {df, strong, support, concept, conceptAlt} = this
    const vocab = [...new Set([...df.keys(), ...strong.keys(), ...support.keys(), ...concept.keys(), ...conceptAlt.keys()])].filter(t => !/[\t\n\0]/.test(t)).sort(compareTerms)
    const col = (m: Map<string, unknown[]>, t: string) => m.get(t)?.join(',') ?? ''
    const halves = this.match.flatMap((m, i) => [m, this.rank[i]])
    const avgLen: Partial<Record<Field, number>> = {}
    for (const [f, total] of Object.entries(this.sum) as [Field, number][]) avgLen[f] = this.visible ? total / this.visible : 0
    // Per record and field, what one count adds to tf.
    const weights = new Float64Array(this.match.length * 16)
    this.lens.forEach((len, i) => FIELDS.forEach((f, code) => (weights[i * 16 + code] = fieldWeight(f, len[f] ?? 0, avgLen[f] ?? 0))))
    const lines = vocab.map(t => Buffer.from(`${t}\t${df.get(t) ?? 0}\t${col(strong, t)}\t${col(support, t)}\t${col(concept, t)}\t${col(conceptAlt, t)}\n`))
    const ranks = vocab.map(t => Buffer.from(`${df.get(t) ?? 0}\t${this.impacts(t, weights, df.get(t) ?? 0)}`))
    const table = tr ? lexiconTable(tr, new Set(vocab)) : {keys: [], lines: []}
    const body: Record<Region, Buffer> = {
      stamps: Buffer.from(stampsText(found)),
      files: Buffer.from(JSON.stringify(files)),
      terms: Buffer.concat(lines),
      termAt: u32(offsets(lines)),
      termHeads: heads(vocab),
      ranks: Buffer.concat(ranks),
      rankAt: u32(offsets(ranks)),
      lexicon: Buffer.concat(table.lines),
      lexiconAt: u32(offsets(table.lines)),
      lexiconHeads: heads(table.keys),
      recordAt: u32(offsets(halves)),
      records: Buffer.concat(halves),
      core: Buffer.from(JSON.stringify(this.core.sort(byPlace))),
      catalog: Buffer.from(JSON.stringify(this.catalog.sort(byPlace))),
      paths: Buffer.from(JSON.stringify(this.paths.sort(byPlace))),
    }
    const regions = {} as Record<Region, [number, number]>
    let at = 0
    for (const r of REGIONS) {
      regions[r] = [at, body[r].length]
      at += body[r].length
    }
    return frame({...base, n: this.visible, avgLen, must: this.must, block: BLOCK, regions}, Buffer.concat(REGIONS.map(r => body[r])))
  }

  /**
   * "record gap,impact,..." for a term: each record's termImpact in thousandths, rounded up (a
   * record's fields are consecutive); records ascend, each given as its gap from the one before.
   */
  private impacts(t: string, weights: Float64Array, df: number): string {
    const list = this.counts.get(t)
    if (!list) return ''
    const out: number[] = []
    let last = 0
    for (let k = 0; k < list.length; ) {
      // A packed count is (record * 16 + field) * COUNT + count, and weights are laid out by record * 16 + field.
      const i = Math.floor(list[k] / COUNT / 16)
      let tf = 0
      for (; k < list.length && Math.floor(list[k] / COUNT / 16) === i; k++) tf += (list[k] % COUNT) * weights[Math.floor(list[k] / COUNT)]
      out.push(i - last, Math.ceil(termImpact(tf, this.visible, df) * IMPACT))
      last = i
    }
    return out.join(',')
  }
}

/**
 * The prompt side of the lexicon, cut down to this library: each key (a Chinese word or an English
 * stem sequence) with the forms that share a term with the index, sorted for binary search. A form
 * with no term any card holds (in its words, its translations or its concept forms) can change no
 * match, so leaving it out gives exactly the answer of the whole lexicon (test/import-eval.test.ts).
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

/** Project before personal, then by id: the stable order of the session regions. */
const byPlace = (a: CardPlace, b: CardPlace): number =>
  a.store === b.store ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.store === 'project' ? -1 : 1

/** The first line, header, block table and body of an index file. */
function frame(header: Header, body: Buffer): Buffer {
  const json = Buffer.from(JSON.stringify(header))
  const table = Buffer.alloc(Math.ceil(body.length / header.block) * 4)
  for (let b = 0; b * header.block < body.length; b++) {
    table.writeUInt32LE(crc32(body.subarray(b * header.block, (b + 1) * header.block)), b * 4)
  }
  const head = crc32(table, crc32(json))
  // The line holds its own length; the file length counts it, so find the fixed point (one step, rarely two).
  let line = ''
  for (let total = json.length + table.length + body.length; ; ) {
    line = `${MAGIC} ${INDEX_VERSION} ${json.length} ${table.length} ${total} ${head}\n`
    if (total === line.length + json.length + table.length + body.length) break
    total = line.length + json.length + table.length + body.length
  }
  return Buffer.concat([Buffer.from(line), json, table, body])
}

function post<T>(table: Map<string, T[]>, t: string, v: T): void {
  const list = table.get(t)
  if (list) list.push(v)
  else table.set(t, [v])
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

