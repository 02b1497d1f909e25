import fs from 'node:fs'
import path from 'node:path'
import type {CorpusStats} from '../domain/recall/bm25.js'
import {decodeMatch, decodeRank, joinDoc, unitWeight} from '../domain/recall/codec.js'
import type {CardDoc, MatchDoc} from '../domain/recall/doc.js'
import {MIN_STRONG, phraseBound} from '../domain/recall/evidence.js'
import type {Signal} from '../domain/recall/signals.js'
import {CARD_TYPES} from '../domain/card/types.js'
import {abs, configRel, rel, type Store, storeDir} from './layout.js'
import {type Found, type Header, INDEX_VERSION, MAGIC, type Region, type Settings, type Stamp, stampsText} from './recall-index-format.js'

/**
 * The recall index in <store>/.cache/ (layout in recall-index-format.ts): derived and never
 * committed, so it is written directly, not through a transaction. A warm prompt stats the card
 * files, compares their stamps with the cached ones as one string, looks its terms up by binary
 * search, and decodes only the cards that can still be admitted: never a card file, YAML or zod.
 * A changed (path, size, mtime) re-parses that file alone; a corrupt, old or foreign cache is
 * rebuilt without a word.
 */
export const INDEX_FILE = 'recall-index'
export const indexPath = (primary: Store): string => path.join(storeDir(primary), '.cache', INDEX_FILE)

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

export function stamp(file: string): Stamp {
  try {
    const s = fs.statSync(file)
    return [s.size, s.mtimeMs]
  } catch {
    return null
  }
}

export const sameStamp = (a: Stamp, b: Stamp): boolean => (a === null ? b === null : b !== null && a[0] === b[0] && a[1] === b[1])

/** Active-card candidates: the files under cards/<type>/ of each store, project first. */
function scan(stores: readonly Store[]): Found[] {
  const out: Found[] = []
  stores.forEach((store, si) => {
    const base = abs(store, rel(store, 'cards'))
    for (const type of CARD_TYPES) {
      let names: string[]
      try {
        names = fs.readdirSync(`${base}/${type}`)
      } catch {
        continue
      }
      for (const name of names) {
        if (!name.endsWith('.md') || name.startsWith('.')) continue
        const file = `${base}/${type}/${name}`
        const s = stamp(file)
        if (s) out.push({store: si, rel: `${type}/${name}`, file, size: s[0], mtime: s[1]})
      }
    }
  })
  return out
}

/** An index file opened: its header and where its regions start. */
export interface Opened {
  header: Header
  fd: number
  body: number
  /** Set when the index was just built: regions are read from memory. */
  bytes?: Buffer
}

export function region(o: Opened, name: Region, from = 0, to?: number): Buffer {
  const [at, length] = o.header.regions[name]
  const end = to ?? length
  if (o.bytes) return o.bytes.subarray(o.body + at + from, o.body + at + end)
  const buf = Buffer.alloc(end - from)
  fs.readSync(o.fd, buf, 0, end - from, o.body + at + from)
  return buf
}

/** The header of an index, or null when the file is missing, corrupt or of another version. */
export function openIndexFile(file: string): Opened | null {
  let fd: number
  try {
    fd = fs.openSync(file, 'r')
  } catch {
    return null
  }
  try {
    return {...parseHead(fd), fd}
  } catch {
    fs.closeSync(fd)
    return null
  }
}

function parseHead(source: number | Buffer): {header: Header; body: number} {
  const first = Buffer.alloc(64)
  const got = typeof source === 'number' ? fs.readSync(source, first, 0, 64, 0) : source.copy(first, 0, 0, 64)
  const line = first.toString('latin1', 0, got).split('\n')[0]
  const [magic, version, bytes] = line.split(' ')
  if (magic !== MAGIC || Number(version) !== INDEX_VERSION || !(Number(bytes) > 0)) throw new Error('not a recall index')
  const size = Number(bytes)
  const json = Buffer.alloc(size)
  const read = typeof source === 'number' ? fs.readSync(source, json, 0, size, line.length + 1) : source.copy(json, 0, line.length + 1, line.length + 1 + size)
  if (read !== size) throw new Error('truncated')
  const header = JSON.parse(json.toString('utf8')) as Header
  if (header.version !== INDEX_VERSION || !header.regions?.rank) throw new Error('bad header')
  return {header, body: line.length + 1 + size}
}

/** Opens the index for these stores (primary first), bringing it up to date on the way. */
export async function openIndex(stores: readonly Store[]): Promise<RecallIndex> {
  const file = indexPath(stores[0])
  const found = scan(stores)
  const stamps = stampsText(found)
  const configStamp = stamp(abs(stores[0], configRel(stores[0])))
  const signalsStamp = stores[0].kind === 'project' ? stamp(abs(stores[0], rel(stores[0], 'signals.yaml'))) : null
  const cached = openIndexFile(file)
  try {
    if (cached && fresh(cached, stores, stamps, configStamp, signalsStamp)) return view(cached, false)
  } catch {
    // A region that cannot be read is as good as no cache.
  }
  // The cold path's modules (card parser, YAML, zod, crypto for atomic writes) load only here.
  const [{rebuild}, {writeFileAtomic}] = await Promise.all([import('./recall-index-build.js'), import('./fsutil.js')])
  let bytes: Buffer
  try {
    bytes = rebuild({stores, found, cached, configStamp, signalsStamp})
  } finally {
    if (cached) fs.closeSync(cached.fd)
  }
  try {
    writeFileAtomic(file, bytes)
  } catch {
    // A read-only or full disk costs speed, not correctness: the index is rebuilt next time.
  }
  return view({...parseHead(bytes), fd: -1, bytes}, true)
}

function fresh(o: Opened, stores: readonly Store[], stamps: string, configStamp: Stamp, signalsStamp: Stamp): boolean {
  const h = o.header
  if (h.stores.length !== stores.length || h.stores.some((s, i) => s !== storeDir(stores[i]))) return false
  if (!sameStamp(h.config.stamp, configStamp) || !sameStamp(h.signals.stamp, signalsStamp)) return false
  const want = Buffer.from(stamps)
  return want.length === h.regions.stamps[1] && want.equals(region(o, 'stamps'))
}

function view(o: Opened, rebuilt: boolean): RecallIndex {
  const h = o.header
  let terms: Buffer | undefined
  let termAt: Buffer | undefined
  const lookup = (term: string): string[] | undefined => {
    terms ??= region(o, 'terms')
    termAt ??= region(o, 'termAt')
    const key = Buffer.from(term)
    let lo = 0
    let hi = termAt.length / 4 - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const start = termAt.readUInt32LE(mid * 4)
      const c = Buffer.compare(terms.subarray(start, terms.indexOf(9, start)), key)
      if (c === 0) return terms.toString('utf8', start, termAt.readUInt32LE(mid * 4 + 4) - 1).split('\t')
      if (c < 0) lo = mid + 1
      else hi = mid
    }
    return undefined
  }
  let matchAt: Buffer | undefined
  const recordOf = new Map<MatchDoc, number>()
  const decode = (i: number): MatchDoc => {
    matchAt ??= region(o, 'matchAt')
    const d = decodeMatch(region(o, 'match', matchAt.readUInt32LE(i * 4), matchAt.readUInt32LE(i * 4 + 4)).toString('utf8'))
    recordOf.set(d, i)
    return d
  }
  const entries = new Map<string, string[] | undefined>()
  const entry = (t: string) => {
    if (!entries.has(t)) entries.set(t, lookup(t))
    return entries.get(t)
  }
  return {
    settings: h.config.settings,
    signals: h.signals.list,
    stats: {n: h.n, avgLen: h.avgLen, df: t => Number(entry(t)?.[1] ?? 0)},
    candidates(prompt, short) {
      // Weight of prompt terms found in each admitting phrase, and each phrase's total and slack.
      const hits = new Map<number, Map<number, [number, number, number]>>()
      const ids = new Set<number>()
      // Like the ripgrep search, a card needs a word or bigram in common; single CJK characters only tighten the bound.
      const anchored = new Set<number>()
      for (const t of prompt) {
        const e = entry(t)
        if (!e) continue
        const w = unitWeight(t)
        const anchor = w !== 0.25
        if (e[2]) {
          for (const x of e[2].split(',')) {
            const [i, j, total, slack] = x.split(':').map(Number)
            if (anchor) anchored.add(i)
            let m = hits.get(i)
            if (!m) hits.set(i, (m = new Map()))
            const p = m.get(j)
            if (p) p[0] += w
            else m.set(j, [w, total, slack])
          }
        }
        if (short && e[3]) for (const x of e[3].split(',')) ids.add(Number(x))
      }
      for (const [i, m] of hits) {
        if (!anchored.has(i)) continue
        let bound = 0
        for (const [matched, total, slack] of m.values()) bound += phraseBound(matched, total, slack)
        if (short || bound >= MIN_STRONG) ids.add(i)
      }
      return [...ids].sort((a, b) => a - b).map(decode)
    },
    hydrate(doc) {
      const i = recordOf.get(doc)
      if (i === undefined) throw new Error(`${doc.id} did not come from this index`)
      const rankAt = region(o, 'rankAt', i * 4, i * 4 + 8)
      return joinDoc(doc, decodeRank(region(o, 'rank', rankAt.readUInt32LE(0), rankAt.readUInt32LE(4)).toString('utf8')))
    },
    close() {
      if (o.fd >= 0) fs.closeSync(o.fd)
      o.fd = -1
    },
    rebuilt,
  }
}

/**
 * Cached records by absolute card path, for `cairn recall`: a candidate found by ripgrep whose
 * size and mtime still match reuses its record instead of being parsed again. Read-only; an
 * absent or unreadable index just means every candidate is parsed.
 */
export interface CachedRecord {
  size: number
  mtime: number
  /** The match half, or undefined when the file is not an active card. */
  match: () => MatchDoc | undefined
  hydrate: (doc: MatchDoc) => CardDoc
}

export function cachedRecords(primary: Store): Map<string, CachedRecord> {
  const out = new Map<string, CachedRecord>()
  const o = openIndexFile(indexPath(primary))
  if (!o) return out
  try {
    const stamps = region(o, 'stamps').toString('utf8').split('\n')
    const files = JSON.parse(region(o, 'files').toString('utf8')) as [number, 0 | 1][]
    const matchAt = region(o, 'matchAt')
    const rankAt = region(o, 'rankAt')
    const match = region(o, 'match')
    const rank = region(o, 'rank')
    files.forEach(([i], k) => {
      const [store, relPath, size, mtime] = stamps[k].split('\t')
      out.set(path.join(o.header.stores[Number(store)], 'cards', relPath), {
        size: Number(size),
        mtime: Number(mtime),
        match: () => (i < 0 ? undefined : decodeMatch(match.toString('utf8', matchAt.readUInt32LE(i * 4), matchAt.readUInt32LE(i * 4 + 4)))),
        hydrate: d => joinDoc(d, decodeRank(rank.toString('utf8', rankAt.readUInt32LE(i * 4), rankAt.readUInt32LE(i * 4 + 4)))),
      })
    })
  } catch {
    out.clear()
  } finally {
    fs.closeSync(o.fd)
  }
  return out
}
