import type {CardDoc, Field, strongPhrases} from '../domain/recall/doc.js'
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
export const INDEX_VERSION = 3
export const MAGIC = 'cairn-recall-index'

export type Stamp = [number, number] | null

export interface Settings {
  maxCards: number
  budgetChars: number
  /** project_key from config, if set; the origin remote is read fresh each time. */
  projectKey: string | null
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

function offsets(parts: Buffer[]): number[] {
  const at = [0]
  for (const p of parts) at.push(at[at.length - 1] + p.length)
  return at
}

export function serialize(base: Pick<Header, 'version' | 'stores' | 'config' | 'signals'>, found: readonly Found[], files: [number, 0 | 1][], records: IndexRecord[]): Buffer {
  const df = new Map<string, number>()
  const strong = new Map<string, string[]>()
  const support = new Map<string, number[]>()
  const sum: Partial<Record<Field, number>> = {}
  let n = 0
  const post = <T>(table: Map<string, T[]>, t: string, v: T) => {
    const list = table.get(t)
    if (list) list.push(v)
    else table.set(t, [v])
  }
  records.forEach((r, i) => {
    if (!r.visible) return
    n++
    const terms = new Set<string>()
    for (const [f, counts] of Object.entries(r.tf) as [Field, Record<string, number>][]) {
      sum[f] = (sum[f] ?? 0) + (r.len[f] ?? 0)
      for (const t of Object.keys(counts)) terms.add(t)
    }
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1)
    for (const p of r.strong) for (const t of new Set(p.terms)) post(strong, t, `${i}:${p.index}:${p.total}:${p.slack}`)
    for (const t of r.support) post(support, t, i)
  })
  const vocab = [...new Set([...df.keys(), ...strong.keys(), ...support.keys()])].filter(t => !/[\t\n]/.test(t)).sort(compareTerms)
  const lines = vocab.map(t => Buffer.from(`${t}\t${df.get(t) ?? 0}\t${strong.get(t)?.join(',') ?? ''}\t${support.get(t)?.join(',') ?? ''}\n`))
  const match = records.map(r => Buffer.from(r.match))
  const rank = records.map(r => Buffer.from(r.rank))
  const avgLen: Partial<Record<Field, number>> = {}
  for (const [f, total] of Object.entries(sum) as [Field, number][]) avgLen[f] = n ? total / n : 0
  const body: Record<Region, Buffer> = {
    stamps: Buffer.from(stampsText(found)),
    files: Buffer.from(JSON.stringify(files)),
    terms: Buffer.concat(lines),
    termAt: u32(offsets(lines)),
    matchAt: u32(offsets(match)),
    rankAt: u32(offsets(rank)),
    match: Buffer.concat(match),
    rank: Buffer.concat(rank),
  }
  const regions = {} as Record<Region, [number, number]>
  let at = 0
  for (const r of REGIONS) {
    regions[r] = [at, body[r].length]
    at += body[r].length
  }
  const json = Buffer.from(JSON.stringify({...base, n, avgLen, regions}))
  return Buffer.concat([Buffer.from(`${MAGIC} ${INDEX_VERSION} ${json.length}\n`), json, ...REGIONS.map(r => body[r])])
}

/** Byte order of UTF-8, which is what the reader's binary search compares. */
export const compareTerms = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b))
