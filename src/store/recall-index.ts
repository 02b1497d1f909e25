import fs from 'node:fs'
import path from 'node:path'
import type {CorpusStats} from '../domain/recall/bm25.js'
import {admittingTerms, type CardDoc, FIELDS, type Field} from '../domain/recall/doc.js'
import type {Signal} from '../domain/recall/signals.js'
import {CARD_TYPES} from '../domain/card/types.js'
import {writeFileAtomic} from './fsutil.js'
import {abs, configRel, rel, type Store, storeDir} from './layout.js'

/**
 * The recall index in <store>/.cache/: derived, never committed, so it is written directly rather
 * than through a transaction. A header (JSON, one line) holds the file stamps, settings, term
 * table and record offsets; each card's record follows as its own JSON, parsed only when a
 * prompt shares a term with it. A warm prompt therefore stats the card files and parses the
 * header, and never reads a card file, YAML or zod. Any difference in a file's (path, size,
 * mtime) re-parses just that file; a corrupt, stale-version or foreign cache is rebuilt silently.
 */
export const INDEX_VERSION = 1
export const INDEX_FILE = 'recall-index.json'

type Stamp = [number, number] | null
/** [absolute path, size, mtimeMs, record index or -1 when not an active card, visible (project wins)]. */
type FileEntry = [string, number, number, number, 0 | 1]

export interface Settings {
  maxCards: number
  budgetChars: number
  /** project_key from config, if set; the origin remote is read fresh each time. */
  projectKey: string | null
}

interface Header {
  version: number
  stores: string[]
  files: FileEntry[]
  config: {stamp: Stamp; settings: Settings}
  signals: {stamp: Stamp; list: Signal[]}
  n: number
  avgLen: Partial<Record<Field, number>>
  /** term → "df" or "df;i,j,..." where i, j are visible records whose admitting fields hold the term. */
  terms: Record<string, string>
  offsets: number[]
}

export interface RecallIndex {
  settings: Settings
  signals: Signal[]
  stats: CorpusStats
  /** Visible records that share an admitting term with the prompt. */
  candidates(terms: Iterable<string>): CardDoc[]
  /** Every visible record (explain and tests). */
  all(): CardDoc[]
  rebuilt: boolean
}

export const indexPath = (primary: Store): string => path.join(storeDir(primary), '.cache', INDEX_FILE)

function stamp(file: string): Stamp {
  try {
    const s = fs.statSync(file)
    return [s.size, s.mtimeMs]
  } catch {
    return null
  }
}

const sameStamp = (a: Stamp, b: Stamp): boolean => (a === null ? b === null : b !== null && a[0] === b[0] && a[1] === b[1])

/** Active-card candidates: the files under cards/<type>/ of each store, project first. */
function scan(stores: readonly Store[]): {store: Store; file: string; size: number; mtime: number}[] {
  const out = []
  for (const store of stores) {
    for (const type of CARD_TYPES) {
      const dir = abs(store, rel(store, 'cards', type))
      let names: string[]
      try {
        names = fs.readdirSync(dir)
      } catch {
        continue
      }
      for (const name of names) {
        if (!name.endsWith('.md') || name.startsWith('.')) continue
        const file = path.join(dir, name)
        const s = stamp(file)
        if (s) out.push({store, file, size: s[0], mtime: s[1]})
      }
    }
  }
  return out
}

function readHeader(file: string): {header: Header; buf: Buffer; body: number} | null {
  try {
    const buf = fs.readFileSync(file)
    const nl = buf.indexOf(10)
    const header = JSON.parse(buf.toString('utf8', 0, nl)) as Header
    if (header.version !== INDEX_VERSION || !Array.isArray(header.files) || !Array.isArray(header.offsets)) return null
    return {header, buf, body: nl + 1}
  } catch {
    return null
  }
}

/** Opens the index for these stores (primary first), bringing it up to date on the way. */
export async function openIndex(stores: readonly Store[]): Promise<RecallIndex> {
  const file = indexPath(stores[0])
  const found = scan(stores)
  const cached = readHeader(file)
  const configFile = abs(stores[0], configRel(stores[0]))
  const signalsFile = stores[0].kind === 'project' ? abs(stores[0], rel(stores[0], 'signals.yaml')) : null
  const configStamp = stamp(configFile)
  const signalsStamp = signalsFile ? stamp(signalsFile) : null
  if (cached && fresh(cached.header, stores, found, configStamp, signalsStamp)) return view(cached.header, cached.buf, cached.body, false)
  const {rebuild} = await import('./recall-index-build.js')
  const built = await rebuild({stores, found, cached, configStamp, signalsStamp, primary: stores[0]})
  try {
    writeFileAtomic(file, built.bytes)
  } catch {
    // A read-only or full disk costs speed, not correctness: the index is rebuilt next time.
  }
  return view(built.header, built.bytes, built.body, true)
}

function fresh(h: Header, stores: readonly Store[], found: ReturnType<typeof scan>, configStamp: Stamp, signalsStamp: Stamp): boolean {
  if (h.stores.join('\n') !== stores.map(storeDir).join('\n')) return false
  if (!sameStamp(h.config.stamp, configStamp) || !sameStamp(h.signals.stamp, signalsStamp)) return false
  if (h.files.length !== found.length) return false
  for (let i = 0; i < found.length; i++) {
    const [p, size, mtime] = h.files[i]
    const f = found[i]
    if (p !== f.file || size !== f.size || mtime !== f.mtime) return false
  }
  return true
}

function view(h: Header, buf: Buffer, body: number, rebuilt: boolean): RecallIndex {
  const memo = new Map<number, CardDoc>()
  const record = (i: number): CardDoc => {
    let d = memo.get(i)
    if (!d) {
      d = JSON.parse(buf.toString('utf8', body + h.offsets[i], body + h.offsets[i + 1])) as CardDoc
      memo.set(i, d)
    }
    return d
  }
  const visible = () => h.files.filter(f => f[3] >= 0 && f[4] === 1).map(f => f[3])
  return {
    settings: h.config.settings,
    signals: h.signals.list,
    stats: {n: h.n, avgLen: h.avgLen, df: t => Number.parseInt(h.terms[t] ?? '0', 10)},
    candidates(terms) {
      const ids = new Set<number>()
      for (const t of terms) {
        const entry = h.terms[t]
        const semi = entry ? entry.indexOf(';') : -1
        if (semi < 0) continue
        for (const x of entry.slice(semi + 1).split(',')) ids.add(Number(x))
      }
      return [...ids].sort((a, b) => a - b).map(record)
    },
    all: () => visible().map(record),
    rebuilt,
  }
}

/** Header and records as bytes: the header line, then the records back to back. */
export function serialize(h: Omit<Header, 'offsets' | 'n' | 'avgLen' | 'terms'>, docs: {json: string; visible: boolean; doc?: CardDoc}[], parse: (json: string) => CardDoc): {header: Header; bytes: Buffer; body: number} {
  const offsets = [0]
  for (const d of docs) offsets.push(offsets[offsets.length - 1] + Buffer.byteLength(d.json))
  const df = new Map<string, number>()
  const post = new Map<string, number[]>()
  const sum: Partial<Record<Field, number>> = {}
  let n = 0
  docs.forEach((d, i) => {
    if (!d.visible) return
    const doc = d.doc ?? parse(d.json)
    n++
    const terms = new Set<string>()
    for (const f of FIELDS) {
      sum[f] = (sum[f] ?? 0) + (doc.len[f] ?? 0)
      for (const t of Object.keys(doc.tf[f] ?? {})) terms.add(t)
    }
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1)
    for (const t of admittingTerms(doc)) {
      const list = post.get(t)
      if (list) list.push(i)
      else post.set(t, [i])
    }
  })
  const terms: Record<string, string> = {}
  for (const t of new Set([...df.keys(), ...post.keys()])) terms[t] = post.has(t) ? `${df.get(t) ?? 0};${post.get(t)!.join(',')}` : String(df.get(t) ?? 0)
  const avgLen: Partial<Record<Field, number>> = {}
  for (const f of FIELDS) avgLen[f] = n ? (sum[f] ?? 0) / n : 0
  const header: Header = {...h, n, avgLen, terms, offsets}
  const head = Buffer.from(`${JSON.stringify(header)}\n`)
  return {header, bytes: Buffer.concat([head, ...docs.map(d => Buffer.from(d.json))]), body: head.length}
}
