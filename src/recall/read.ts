import fs from 'node:fs'
import path from 'node:path'
import {crc32} from 'node:zlib'
import type {Header, Region} from './format.js'
import {INDEX_VERSION, IndexCorruptError, isIndexCorrupt, MAGIC} from './format.js'
import {rel, type Store, storeDir} from '../store/layout.js'
import {usableIn} from '../store/files/store-files.js'

/** Reading an index file: its head, checked at open, and its regions by positioned reads, checked per block. */

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
    const intact = b * 4 + 4 <= o.crcs.length && crc32(block) === o.crcs.readUInt32LE(b * 4)
    if (!intact) throw corrupt(o, `block ${b} fails its checksum`)
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

export const INDEX_FILE = 'recall-index'
export const indexPath = (primary: Store): string => path.join(storeDir(primary), '.cache', INDEX_FILE)
/** Whether the index may be read and written at its place: real directories on the way, no link at its name. */
export const indexUsable = (primary: Store): boolean => usableIn(primary.root, rel(primary, '.cache', INDEX_FILE))

/**
 * The head of an index, or null when the file is missing, a link, or of another version; throws
 * IndexCorruptError when it is damaged (too short or long, or its head fails its checksum).
 */
export function openIndexFile(primary: Store): Opened | null {
  if (!indexUsable(primary)) return null
  const file = indexPath(primary)
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
    const got =
      typeof source === 'number' ? fs.readSync(source, buf, 0, length, at) : source.copy(buf, 0, at, at + length)
    if (got !== length) throw new IndexCorruptError('its head is cut short')
    return buf
  }
  const fileSize = typeof source === 'number' ? fs.fstatSync(source).size : source.length
  const first = read(0, Math.min(128, fileSize))
  const nl = first.indexOf(10)
  const [magic, version, ...sizes] = first.toString('latin1', 0, nl < 0 ? first.length : nl).split(' ')
  if (magic === MAGIC && /^\d+$/.test(version) && Number(version) !== INDEX_VERSION) return null
  const [jsonBytes, tableBytes, totalBytes, crc] = sizes.map(Number)
  if (magic !== MAGIC || nl < 0 || sizes.length !== 4 || !sizes.every(x => /^\d+$/.test(x))) {
    throw new IndexCorruptError('its first line is damaged')
  }
  if (totalBytes !== fileSize) throw new IndexCorruptError(`it is ${fileSize} bytes long, not ${totalBytes}`)
  const json = read(nl + 1, jsonBytes)
  const crcs = read(nl + 1 + jsonBytes, tableBytes)
  if (crc32(crcs, crc32(json)) !== crc) throw new IndexCorruptError('its head fails its checksum')
  const header = JSON.parse(json.toString('utf8')) as Header
  const body = nl + 1 + jsonBytes + tableBytes
  const bodyBytes = Object.values(header.regions).reduce((n, [, length]) => n + length, 0)
  if (body + bodyBytes !== fileSize || tableBytes !== Math.ceil(bodyBytes / header.block) * 4) {
    throw new IndexCorruptError('its regions do not fill it')
  }
  return {header, body, crcs}
}
