import type {CorpusStats} from '../domain/recall/bm25.js'
import type {CardDoc, Field, MatchDoc, strongPhrases} from '../domain/recall/doc.js'
import type {Signal} from '../domain/recall/signals.js'

/**
 * Byte layout of the recall index, built so a warm read parses almost nothing:
 *   "cairn-recall-index <version> <header bytes>\n", the header JSON, then regions:
 *   stamps  "store\tpath\tsize\tmtime\n" per card file, compared as one string for freshness
 *   files   JSON [record, visible] per card file (rebuilds only)
 *   terms   "term\tdf\tstrong\tsupport\n" sorted by term, found by binary search over termAt
 *           strong: "record:phrase:total:slack,..." of admitting phrases; support: "record,..."
 *   termAt, matchAt, rankAt   little-endian uint32 offsets
 *   match, rank   each record's two JSON halves, back to back
 */
export const INDEX_VERSION = 5
export const MAGIC = 'cairn-recall-index'

/** [size, mtime] of a file, or null when it is absent. */
export type Stamp = [number, number] | null

export const sameStamp = (a: Stamp, b: Stamp): boolean =>
  a === null ? b === null : b !== null && a[0] === b[0] && a[1] === b[1]

export interface Settings {
  maxCards: number
  budgetChars: number
  /** project_key from config, if set; the origin remote is read fresh each time. */
  projectKey: string | null
  /** What the hooks need from config.yaml, cached here so a hook never loads the YAML parser or zod. */
  hooks: HookSettings
}

export interface HookSettings {
  coreBudget: number
  catalogBudget: number
  enforceMust: boolean
  deadlineMs: number
  signals: {archiveMinEvents: number; archiveMinHours: number; reviewMaxPending: number; reviewMaxAgeDays: number}
}

/** The index as the matcher uses it (recall-index-read.ts view). */
export interface RecallIndex {
  settings: Settings
  signals: Signal[]
  stats: CorpusStats
  /**
   * Visible records that could be admitted: for a short query, any sharing a phrase word or bigram;
   * else those whose admitting phrases can still reach MIN_STRONG (phraseBound), so none is missed.
   * `terms` are all weighted prompt terms, single CJK characters included.
   */
  candidates(terms: Iterable<string>, short: boolean): MatchDoc[]
  /** The full record of a candidate (for admitted cards). */
  hydrate(doc: MatchDoc): CardDoc
  close(): void
  rebuilt: boolean
}

export const REGIONS = ['stamps', 'files', 'terms', 'termAt', 'matchAt', 'rankAt', 'match', 'rank'] as const
export type Region = (typeof REGIONS)[number]

export interface Header {
  version: number
  stores: string[]
  config: {stamp: Stamp; settings: Settings}
  signals: {stamp: Stamp; list: Signal[]}
  n: number
  avgLen: Partial<Record<Field, number>>
  /** [offset from the end of the header, length] of each region. */
  regions: Record<Region, [number, number]>
}

export interface Found {
  store: number
  rel: string
  file: string
  size: number
  mtime: number
}

export const stampsText = (found: readonly Found[]): string => found.map(f => `${f.store}\t${f.rel}\t${f.size}\t${f.mtime}\n`).join('')

export interface IndexRecord {
  match: string
  rank: string
  visible: boolean
  strong: ReturnType<typeof strongPhrases>
  support: Set<string>
  tf: CardDoc['tf']
  len: CardDoc['len']
}

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
  private readonly support = new Map<string, number[]>()
  private readonly sum: Partial<Record<Field, number>> = {}
  private readonly match: Buffer[] = []
  private readonly rank: Buffer[] = []
  private visible = 0

  /** Adds a record and returns its index. */
  add(r: IndexRecord): number {
    const i = this.match.length
    this.match.push(Buffer.from(r.match))
    this.rank.push(Buffer.from(r.rank))
    if (!r.visible) return i
    this.visible++
    const terms = new Set<string>()
    for (const [f, counts] of Object.entries(r.tf) as [Field, [string, number][]][]) {
      this.sum[f] = (this.sum[f] ?? 0) + (r.len[f] ?? 0)
      for (const [t] of counts) terms.add(t)
    }
    for (const t of terms) this.df.set(t, (this.df.get(t) ?? 0) + 1)
    for (const p of r.strong) for (const t of new Set(p.terms)) post(this.strong, t, `${i}:${p.index}:${p.total}:${p.slack}`)
    for (const t of r.support) post(this.support, t, i)
    return i
  }

  finish(base: Pick<Header, 'version' | 'stores' | 'config' | 'signals'>, found: readonly Found[], files: [number, 0 | 1][]): Buffer {
    const {df, strong, support} = this
    const vocab = [...new Set([...df.keys(), ...strong.keys(), ...support.keys()])].filter(t => !/[\t\n]/.test(t)).sort(compareTerms)
    const lines = vocab.map(t => Buffer.from(`${t}\t${df.get(t) ?? 0}\t${strong.get(t)?.join(',') ?? ''}\t${support.get(t)?.join(',') ?? ''}\n`))
    const avgLen: Partial<Record<Field, number>> = {}
    for (const [f, total] of Object.entries(this.sum) as [Field, number][]) avgLen[f] = this.visible ? total / this.visible : 0
    const body: Record<Region, Buffer> = {
      stamps: Buffer.from(stampsText(found)),
      files: Buffer.from(JSON.stringify(files)),
      terms: Buffer.concat(lines),
      termAt: u32(offsets(lines)),
      matchAt: u32(offsets(this.match)),
      rankAt: u32(offsets(this.rank)),
      match: Buffer.concat(this.match),
      rank: Buffer.concat(this.rank),
    }
    const regions = {} as Record<Region, [number, number]>
    let at = 0
    for (const r of REGIONS) {
      regions[r] = [at, body[r].length]
      at += body[r].length
    }
    const json = Buffer.from(JSON.stringify({...base, n: this.visible, avgLen, regions}))
    return Buffer.concat([Buffer.from(`${MAGIC} ${INDEX_VERSION} ${json.length}\n`), json, ...REGIONS.map(r => body[r])])
  }
}

function post<T>(table: Map<string, T[]>, t: string, v: T): void {
  const list = table.get(t)
  if (list) list.push(v)
  else table.set(t, [v])
}

function offsets(parts: Buffer[]): number[] {
  const at = [0]
  for (const p of parts) at.push(at[at.length - 1] + p.length)
  return at
}

/** Byte order of UTF-8, which is what the reader's binary search compares. */
export const compareTerms = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b))
