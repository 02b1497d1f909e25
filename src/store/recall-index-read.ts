import fs from 'node:fs'
import path from 'node:path'
import {decodeMatch, decodeRank, joinDoc, unitWeight} from '../domain/recall/codec.js'
import type {CardDoc, MatchDoc} from '../domain/recall/doc.js'
import {MIN_STRONG, phraseBound} from '../domain/recall/evidence.js'
import {type Header, INDEX_VERSION, MAGIC, type RecallIndex, type Region} from './recall-index-format.js'

/** Reading an index file: its header, its regions by positioned reads, and the candidate lookup. */

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

/**
 * Whether the index may be read or written at this path: its directory is a real directory and
 * the file, if present, a regular file. A symlinked .cache/ or index would lead reads and writes
 * outside the store, so the index then goes uncached.
 */
export function cacheUsable(file: string): boolean {
  try {
    if (!fs.lstatSync(path.dirname(file)).isDirectory()) return false
  } catch {
    return true // no .cache/ yet: the write creates it
  }
  try {
    return fs.lstatSync(file).isFile()
  } catch {
    return true
  }
}

/** The header of an index, or null when the file is missing, corrupt, of another version, or a link. */
export function openIndexFile(file: string): Opened | null {
  if (!cacheUsable(file)) return null
  let fd: number
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
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

export function parseHead(source: number | Buffer): {header: Header; body: number} {
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

/** The index as the matcher uses it: term lookups and record decoding, lazily. */
export function view(o: Opened, rebuilt: boolean): RecallIndex {
  const h = o.header
  let termAt: Buffer | undefined
  // Binary search by small positioned reads: a prompt touches a few lines of a table that runs to megabytes.
  const line = (k: number, limit?: number): Buffer => {
    const start = termAt!.readUInt32LE(k * 4)
    const end = termAt!.readUInt32LE(k * 4 + 4) - 1
    return region(o, 'terms', start, limit === undefined ? end : Math.min(end, start + limit))
  }
  const lookup = (term: string): string[] | undefined => {
    termAt ??= region(o, 'termAt')
    const key = Buffer.from(term)
    let lo = 0
    let hi = termAt.length / 4 - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      let head = line(mid, key.length + 1)
      let tab = head.indexOf(9)
      if (tab < 0) {
        head = line(mid)
        tab = head.indexOf(9)
      }
      const c = Buffer.compare(head.subarray(0, tab < 0 ? head.length : tab), key)
      if (c === 0) return line(mid).toString('utf8').split('\t')
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

/** A cached record: the stamp it was built from, and its two halves, read when asked for. */
export interface CachedRecord {
  size: number
  mtime: number
  /** The match half, or undefined when the file is not an active card. */
  match: () => MatchDoc | undefined
  hydrate: (doc: MatchDoc) => CardDoc
}

/**
 * Cached records by absolute card path, for `cairn recall`: a candidate found by ripgrep whose
 * size and mtime still match reuses its record instead of being parsed again. Records are read
 * on demand; close() releases the file. An absent or unreadable index means every candidate is parsed.
 */
export function cachedRecords(indexFile: string): {records: Map<string, CachedRecord>; close(): void} {
  const records = new Map<string, CachedRecord>()
  const o = openIndexFile(indexFile)
  const close = () => {
    if (o && o.fd >= 0) fs.closeSync(o.fd)
    if (o) o.fd = -1
  }
  if (!o) return {records, close}
  try {
    const stamps = region(o, 'stamps').toString('utf8').split('\n')
    const files = JSON.parse(region(o, 'files').toString('utf8')) as [number, 0 | 1][]
    const matchAt = region(o, 'matchAt')
    const rankAt = region(o, 'rankAt')
    const half = (name: 'match' | 'rank', at: Buffer, i: number) => region(o, name, at.readUInt32LE(i * 4), at.readUInt32LE(i * 4 + 4)).toString('utf8')
    files.forEach(([i], k) => {
      const [store, relPath, size, mtime] = stamps[k].split('\t')
      records.set(path.join(o.header.stores[Number(store)], 'cards', relPath), {
        size: Number(size),
        mtime: Number(mtime),
        match: () => (i < 0 ? undefined : decodeMatch(half('match', matchAt, i))),
        hydrate: d => joinDoc(d, decodeRank(half('rank', rankAt, i))),
      })
    })
  } catch {
    records.clear()
  }
  return {records, close}
}
