import {createHash} from 'node:crypto'
import fs from 'node:fs'
import {removeOldFiles, TMP_MARK} from '../files/fsutil.js'
import type {Store} from '../layout.js'
import {existingLocalDir, localRel} from './local.js'
import {appendFileIn, dirIn, fileIn, readJsonIn, SMALL_FILE, statIn, writeFileIn} from '../files/store-files.js'

/**
 * What the hooks remember about one agent session, in .local/sessions/<session>.json: which cards
 * it has been shown, which enforced cards already denied a write, whether stop has blocked, and
 * whether its digest is written. Written whole and atomically, so a killed hook leaves the old
 * state or the new, never half of one.
 */
export interface SessionState {
  shown: string[]
  denied: string[]
  blocked: boolean
  digest: boolean
}

/** A new empty state each time: the lists are mutated by updateSession's callers. */
const empty = (): SessionState => ({shown: [], denied: [], blocked: false, digest: false})
/** Session files older than this are pruned when a session starts. */
const SESSION_TTL_MS = 30 * 24 * 3600 * 1000
const MAX_ERROR_LOG = 256 * 1024

/** A file name for a session id from the payload: kept when plain, else hashed (no traversal, no odd bytes). */
export function sessionFileName(session: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(session)) return session
  return `h-${createHash('sha256').update(session).digest('hex').slice(0, 32)}`
}

const sessionRel = (store: Store, session: string): string =>
  localRel(store, 'sessions', `${sessionFileName(session)}.json`)

export function readSession(store: Store, session: string): SessionState {
  const raw = readJsonIn(store.root, sessionRel(store, session), SMALL_FILE) as Record<string, unknown> | undefined
  if (!raw || typeof raw !== 'object') return empty()
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter(x => typeof x === 'string') : [])
  return {shown: list(raw.shown), denied: list(raw.denied), blocked: raw.blocked === true, digest: raw.digest === true}
}

export function writeSession(store: Store, session: string, state: SessionState): void {
  writeFileIn(store.root, sessionRel(store, session), `${JSON.stringify(state)}\n`)
}

const LOCK_WAIT_MS = 300
const LOCK_STALE_MS = 2000
const pause = new Int32Array(new SharedArrayBuffer(4))

/**
 * Reads the session's state, lets `change` update it, and writes it back, under a small lock file:
 * a client may run the hooks of parallel tool calls at once, and an enforced card must not deny
 * twice because two hooks read the same old state. A lock held past 300 ms (a killed hook's is
 * stale after 2 s) is not waited for: the hook goes on without it rather than miss its deadline.
 */
export function updateSession<T>(store: Store, session: string, change: (state: SessionState) => T): T {
  const lock = `${fileIn(store.root, sessionRel(store, session), {create: true})}.lock`
  const held = acquire(lock)
  try {
    const state = readSession(store, session)
    const result = change(state)
    writeSession(store, session, state)
    return result
  } finally {
    if (held) fs.rmSync(lock, {force: true})
  }
}

function acquire(lock: string): boolean {
  const until = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx'))
      return true
    } catch {
      try {
        if (Date.now() - fs.lstatSync(lock).mtimeMs > LOCK_STALE_MS) fs.rmSync(lock, {force: true})
      } catch {
        // Released meanwhile.
      }
    }
    if (Date.now() >= until) return false
    Atomics.wait(pause, 0, 0, 5)
  }
}

/**
 * Drops the state and digests of sessions idle for 30 days, so .local/ does not grow without end
 * (the archive skill reads only the latest digests).
 */
export function pruneSessions(store: Store, now: Date): void {
  prune(store, 'sessions', /\.json(\.lock)?$/, now, SESSION_TTL_MS)
  prune(store, 'digests', /\.md$/, now, SESSION_TTL_MS)
  // A hook killed mid-write leaves its temp file; any that old is no write in progress.
  for (const sub of ['sessions', 'digests'])
    prune(store, sub, new RegExp(TMP_MARK.replace(/[.]/g, '\\.')), now, TMP_TTL_MS)
}

const TMP_TTL_MS = 10 * 60 * 1000

function prune(store: Store, sub: string, names: RegExp, now: Date, ttl: number): void {
  // Deleting is the one thing here that could hurt: only in a real .local/<sub>/, never via a link.
  const dir = existingLocalDir(store, sub)
  if (dir) removeOldFiles(dir, name => names.test(name), now.getTime(), ttl)
}

/** Writes the session digest (already cut to 5 KB by its renderer) atomically. */
export function writeDigest(store: Store, session: string, text: string): string {
  const relPath = localRel(store, 'digests', `${sessionFileName(session)}.md`)
  writeFileIn(store.root, relPath, text)
  return fileIn(store.root, relPath) as string
}

/**
 * Appends one line to the store's .local/hook-errors.log (a project's, or $CAIRN_HOME's). It never
 * creates the store directory itself: with no such directory the line is dropped.
 */
export function logHookError(store: Store, line: string): boolean {
  try {
    if (!fs.statSync(store.root).isDirectory() || dirIn(store.root, store.prefix) === null) return false
    const log = localRel(store, 'hook-errors.log')
    if ((statIn(store.root, log)?.size ?? 0) > MAX_ERROR_LOG) {
      const file = fileIn(store.root, log) as string
      fs.renameSync(file, `${file}.1`)
    }
    appendFileIn(store.root, log, `${line.replace(/[\r\n]+/g, ' ').slice(0, 2000)}\n`)
    return true
  } catch {
    return false
  }
}
