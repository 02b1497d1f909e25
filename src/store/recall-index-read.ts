import fs from 'node:fs'
import path from 'node:path'
import {crc32} from 'node:zlib'
import {decodeMatch, decodeRank, joinDoc, unitWeight} from '../domain/recall/codec.js'
import type {CardDoc, MatchDoc} from '../domain/recall/doc.js'
import {MIN_STRONG, phraseBound} from '../domain/recall/evidence.js'
import type {CatalogEntry, CoreEntry, FileEntry, Header, PathEntry, RecallIndex, Region} from './recall-index-format.js'
import {INDEX_VERSION, IndexCorruptError, isIndexCorrupt, MAGIC} from './recall-index-format.js'

/** Reading an index file: its header, its regions by positioned reads, and the candidate lookup. */

/** An index file opened: its header, where its body starts, and the body blocks checked so far. */
export interface Opened {
  header: Header
  fd: number
  body: number
  /** The CRC-32 of each body block (the block table). */
  crcs: Buffer
  /** Body blocks read and found intact, by number. */
  blocks: Map<number, Buffer>
  /** The file the fd was opened from: removed when a block fails its check. */
  file?: string
  /** Set when the index was just built: regions are read from memory, unchecked. */
  bytes?: Buffer
}

/**
 * Bytes [from, to) of a region. From a file, only the blocks the range touches are read, each
 * checked against its CRC once and kept; a mismatch or a short read throws IndexCorruptError.
 */
export function region(o: Opened, name: Region, from = 0, to?: number): Buffer {
  const [at, length] = o.header.regions[name]
  const start = at + from
  const end = at + (to ?? length)
  if (o.bytes) return o.bytes.subarray(o.body + start, o.body + end)
  if (end <= start) return Buffer.alloc(0)
  const size = o.header.block
  const first = Math.floor(start / size)
  const last = Math.floor((end - 1) / size)
  for (let b = first; b <= last; b++) {
    if (o.blocks.has(b)) continue
    let upto = b
    while (upto < last && !o.blocks.has(upto + 1)) upto++
    readBlocks(o, b, upto)
    b = upto
  }
  if (first === last) return o.blocks.get(first)!.subarray(start - first * size, end - first * size)
  const parts: Buffer[] = []
  for (let b = first; b <= last; b++) parts.push(o.blocks.get(b)!)
  return Buffer.concat(parts).subarray(start - first * size, end - first * size)
}

/** Reads blocks first..last in one call and checks each. */
function readBlocks(o: Opened, first: number, last: number): void {
  const size = o.header.block
  const buf = Buffer.allocUnsafe((last - first + 1) * size)
  const got = fs.readSync(o.fd, buf, 0, buf.length, o.body + first * size)
  for (let b = first; b <= last; b++) {
    const block = buf.subarray((b - first) * size, Math.min((b - first + 1) * size, got))
    if (b * 4 + 4 > o.crcs.length || crc32(block) !== o.crcs.readUInt32LE(b * 4)) throw corrupt(o, `block ${b} fails its checksum`)
    o.blocks.set(b, block)
  }
}

/**
 * Removes a corrupt file, unless a rebuild has replaced it since it was opened, so whoever opens
 * the index next rebuilds it (the background rebuild included) instead of failing on it again.
 */
function corrupt(o: Opened, what: string): IndexCorruptError {
  try {
    if (o.file && fs.statSync(o.file).ino === fs.fstatSync(o.fd).ino) fs.rmSync(o.file, {force: true})
  } catch {
    // Gone already, or not removable: it then fails its check again next time.
  }
  return new IndexCorruptError(what)
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

/**
 * The head of an index, or null when the file is missing, a link, or of another version; throws
 * IndexCorruptError when it is damaged (too short or long, or its head fails its checksum).
 */
export function openIndexFile(file: string): Opened | null {
  if (!cacheUsable(file)) return null
  let fd: number
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
  } catch {
    return null
  }
  try {
    const head = parseHead(fd)
    if (head) return {...head, fd, blocks: new Map(), file}
  } catch (error) {
    fs.closeSync(fd)
    throw error
  }
  fs.closeSync(fd)
  return null
}

/**
 * Reads and checks the first line, header and block table: the file length, then the head CRC.
 * Null for an index of another version (rebuilt without a word); anything else unreadable is corrupt.
 */
export function parseHead(source: number | Buffer): {header: Header; body: number; crcs: Buffer} | null {
  try {
    return readHead(source)
  } catch (error) {
    throw isIndexCorrupt(error) ? error : new IndexCorruptError('its head cannot be read')
  }
}

function readHead(source: number | Buffer): {header: Header; body: number; crcs: Buffer} | null {
  const read = (at: number, length: number): Buffer => {
    const buf = Buffer.alloc(length)
    const got = typeof source === 'number' ? fs.readSync(source, buf, 0, length, at) : source.copy(buf, 0, at, at + length)
    if (got !== length) throw new IndexCorruptError('its head is cut short')
    return buf
  }
  const fileSize = typeof source === 'number' ? fs.fstatSync(source).size : source.length
  const first = read(0, Math.min(128, fileSize))
  const nl = first.indexOf(10)
  const [magic, version, ...sizes] = first.toString('latin1', 0, nl < 0 ? first.length : nl).split(' ')
  if (magic === MAGIC && /^\d+$/.test(version) && Number(version) !== INDEX_VERSION) return null
  const [jsonBytes, tableBytes, totalBytes, crc] = sizes.map(Number)
  if (magic !== MAGIC || nl < 0 || sizes.length !== 4 || !sizes.every(x => /^\d+$/.test(x))) throw new IndexCorruptError('its first line is damaged')
  if (totalBytes !== fileSize) throw new IndexCorruptError(`it is ${fileSize} bytes long, not ${totalBytes}`)
  const json = read(nl + 1, jsonBytes)
  const crcs = read(nl + 1 + jsonBytes, tableBytes)
  if (crc32(crcs, crc32(json)) !== crc) throw new IndexCorruptError('its head fails its checksum')
  const header = JSON.parse(json.toString('utf8')) as Header
  const body = nl + 1 + jsonBytes + tableBytes
  const bodyBytes = Object.values(header.regions).reduce((n, [, length]) => n + length, 0)
  if (body + bodyBytes !== fileSize || tableBytes !== Math.ceil(bodyBytes / header.block) * 4) throw new IndexCorruptError('its regions do not fill it')
  return {header, body, crcs}
}

/** The index as the matcher uses it: term lookups and record decoding, lazily. */
export function view(o: Opened, state: {rebuilt: boolean; stale: boolean}): RecallIndex {
  const h = o.header
  const json = <T>(name: 'core' | 'catalog' | 'paths') => JSON.parse(region(o, name).toString('utf8')) as T
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
    coreCards: () => json<CoreEntry[]>('core'),
    catalog: () => json<CatalogEntry[]>('catalog'),
    pathCards: () => json<PathEntry[]>('paths'),
    close() {
      if (o.fd >= 0) fs.closeSync(o.fd)
      o.fd = -1
      o.blocks.clear()
    },
    ...state,
  }
}

/** A cached record: the stamp it was built from, and its two halves, read when asked for. */
export interface CachedRecord {
  size: number
  mtime: number
  /** The match half, or undefined when the file is not an active card. Both throw IndexCorruptError on a bad block. */
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
  let o: Opened | null = null
  try {
    o = openIndexFile(indexFile)
  } catch {
    // Corrupt: every candidate is parsed.
  }
  const close = () => {
    if (o && o.fd >= 0) fs.closeSync(o.fd)
    if (o) o.fd = -1
    o?.blocks.clear()
  }
  if (!o) return {records, close}
  const opened = o
  try {
    const stamps = region(opened, 'stamps').toString('utf8').split('\n')
    const files = JSON.parse(region(opened, 'files').toString('utf8')) as FileEntry[]
    const matchAt = region(opened, 'matchAt')
    const rankAt = region(opened, 'rankAt')
    const half = (name: 'match' | 'rank', at: Buffer, i: number) => region(opened, name, at.readUInt32LE(i * 4), at.readUInt32LE(i * 4 + 4)).toString('utf8')
    files.forEach(({record: i}, k) => {
      const [store, relPath, size, mtime] = stamps[k].split('\t')
      records.set(path.join(opened.header.stores[Number(store)], 'cards', relPath), {
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
