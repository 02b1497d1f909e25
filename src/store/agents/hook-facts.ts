import fs from 'node:fs'
import {abs, isRecordName, rel, type Store} from '../layout.js'
import {cardFileStats} from '../files/safe-read.js'
import {listIn} from '../files/store-files.js'

/**
 * Cheap facts the hooks need about a store, from directory listings and a few bytes of each file:
 * no card parser, no git, so session start and stop stay inside their deadline.
 */

export interface PendingFacts {
  count: number
  /** The earliest `created` among the pending cards (the file's mtime when it has none). */
  oldest: Date | null
}

const CREATED = /^created:\s*['"]?([0-9T:.+\-Z]+)/m

export function pendingFacts(store: Store): PendingFacts {
  const files = cardFileStats(abs(store, rel(store, 'pending')))
  let oldest: number | null = null
  for (const f of files) {
    const at = createdAt(f.file, f.mtime)
    if (oldest === null || at < oldest) oldest = at
  }
  return {count: files.length, oldest: oldest === null ? null : new Date(oldest)}
}

/** The card's created time from the head of its frontmatter, else the file's mtime. */
function createdAt(file: string, mtime: number): number {
  let fd: number | undefined
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0))
    const buf = Buffer.alloc(4096)
    const n = fs.readSync(fd, buf, 0, buf.length, 0)
    const head = buf.subarray(0, n).toString('utf8')
    const end = head.indexOf('\n---', 3)
    const m = CREATED.exec(end > 0 ? head.slice(0, end) : head)
    const t = m ? Date.parse(m[1]) : Number.NaN
    return Number.isNaN(t) ? mtime : t
  } catch {
    return mtime
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** Whether the store has a board (any committed batch record). */
export function hasBoard(store: Store): boolean {
  try {
    return listIn(store.root, rel(store, 'board', 'batches')).some(isRecordName)
  } catch {
    return false
  }
}
