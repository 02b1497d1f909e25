import fs from 'node:fs'
import path from 'node:path'
import {jsonLines} from '../../domain/json-lines.js'
import {asReceipt, type Receipt} from '../../domain/receipts.js'
import {appendLineIn, readTextIn} from '../files/store-files.js'
import type {Store} from '../layout.js'
import {tryAcquire} from '../locks/lock-file.js'
import {localDir, localRel} from './local.js'

/**
 * The receipts file, .local/receipts.jsonl (machine-local, never committed), and its older generations. A hook
 * appends one line per injection with one O_APPEND write and no git; past ROTATE_RECEIPTS_AT the file becomes
 * receipts.1.jsonl, that one receipts.2.jsonl, and the oldest goes. Readers read every generation, oldest first.
 */
export const RECEIPTS = 'receipts.jsonl'
/** A file rotates once it passes this size: about 5,000 receipts, weeks of a busy user's sessions. */
export const ROTATE_RECEIPTS_AT = 1024 * 1024
/** Older generations kept besides the current file. */
export const RECEIPT_GENERATIONS = 2
/** A file rotation keeps near 1 MB; one far larger is not cairn's, and is not read. */
const MAX_RECEIPTS_BYTES = 4 * ROTATE_RECEIPTS_AT
/** A rotation takes a few renames: a lock older than this is a holder that hangs, and is taken over. */
const ROTATION_LOCK = {uncheckedMaxAgeMs: 30_000, liveMaxAgeMs: 30_000}

/** receipts.jsonl, receipts.1.jsonl, receipts.2.jsonl. */
export const receiptsName = (generation: number): string =>
  generation === 0 ? RECEIPTS : RECEIPTS.replace(/\.jsonl$/, `.${generation}.jsonl`)

/** Appends one receipt line (receiptLine's), and rotates the file when it has passed its size. */
export function appendReceipt(store: Store, line: string): void {
  const size = appendLineIn(store.root, localRel(store, RECEIPTS), line)
  if (size >= ROTATE_RECEIPTS_AT) rotateReceipts(store)
}

/**
 * Rotation under a lock file that names its holder (a killed holder's lock is stale at once), with the size looked at
 * again once it is held: two hooks that both passed the size must not rotate twice (the second would push the full
 * generation out for a file of a few lines). A hook that finds the lock held appends on, into the current file.
 * A writer that opened the file before the rename writes into receipts.1.jsonl: its line is kept, one generation on.
 */
export function rotateReceipts(store: Store): boolean {
  const dir = localDir(store)
  const lock = tryAcquire({dir, name: `${RECEIPTS}.rotating`, staleness: ROTATION_LOCK})
  if (!lock) return false
  try {
    const at = (g: number) => path.join(dir, receiptsName(g))
    const size = fs.lstatSync(at(0), {throwIfNoEntry: false})?.size ?? 0
    if (size < ROTATE_RECEIPTS_AT) return false
    for (let g = RECEIPT_GENERATIONS; g > 1; g--) {
      try {
        fs.renameSync(at(g - 1), at(g))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
    }
    fs.renameSync(at(0), at(1))
    return true
  } finally {
    lock.release()
  }
}

/** Every receipt kept, oldest first (the oldest generation first); torn and foreign lines are skipped. */
export function readReceipts(store: Store): Receipt[] {
  const out: Receipt[] = []
  for (let g = RECEIPT_GENERATIONS; g >= 0; g--) {
    let text: string | null
    try {
      text = readTextIn(store.root, localRel(store, receiptsName(g)), MAX_RECEIPTS_BYTES)
    } catch {
      continue // a link, a FIFO, or a file no receipts of cairn's grow to
    }
    if (text === null) continue
    for (const line of jsonLines(text)) {
      const r = asReceipt(line)
      if (r) out.push(r)
    }
  }
  return out
}
