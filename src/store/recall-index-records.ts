import fs from 'node:fs'
import path from 'node:path'
import {decodeMatch, decodeRank, joinDoc} from '../domain/recall/codec.js'
import type {CardDoc, MatchDoc} from '../domain/recall/doc.js'
import type {FileEntry} from './recall-index-format.js'
import {type Opened, openIndexFile, region} from './recall-index-read.js'

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
