import {createHash, randomBytes} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {CairnError} from '../../domain/errors.js'
import {gitDir} from '../repo.js'
import {type LockRecord, ownRecord, parseRecord, type Staleness, staleReason, UNCHECKED_MAX_AGE_MS} from './lock-record.js'

export {type LockRecord, UNCHECKED_MAX_AGE_MS} from './lock-record.js'

export const LOCK_NAME = 'cairn.lock'
/** How long a write waits for a live holder before it gives up with exit 5. */
export const LOCK_WAIT_MS = 60_000
/** The writers' lock: a live holder on this host keeps it however long it runs; one we cannot check, until UNCHECKED_MAX_AGE_MS. */
const WRITERS: Staleness = {uncheckedMaxAgeMs: UNCHECKED_MAX_AGE_MS}

export interface Lock {
  path: string
  release(): void
}

export interface LockOptions {
  /** Milliseconds to wait for a live holder (default LOCK_WAIT_MS); 0 tries once. */
  waitMs?: number
}

export type LockState =
  | {state: 'free'}
  | {state: 'held'; holder: LockRecord}
  | {state: 'stale'; holder?: LockRecord; reason: string}

interface Seen {
  /** Identifies this lock file instance: its token, else a hash of its bytes, inode and mtime. */
  key: string
  mtimeMs: number
  record?: LockRecord
}

function readLock(file: string): Seen | undefined {
  let fd: number
  try {
    fd = fs.openSync(file, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    const stat = fs.fstatSync(fd, {bigint: true})
    const raw = fs.readFileSync(fd, 'utf8')
    const record = parseRecord(raw)
    const key = record?.token ?? createHash('sha256').update(`${raw}\0${stat.ino}\0${stat.mtimeNs}`).digest('hex').slice(0, 32)
    return {key, mtimeMs: Number(stat.mtimeMs), record}
  } finally {
    fs.closeSync(fd)
  }
}

const verdict = (seen: Seen) => staleReason(seen.record, seen.mtimeMs, WRITERS)

/** The state of a lock file, with the reason when it is stale. */
export function inspectLock(file: string): LockState {
  const seen = readLock(file)
  if (!seen) return {state: 'free'}
  const reason = verdict(seen)
  if (reason) return {state: 'stale', holder: seen.record, reason}
  return {state: 'held', holder: seen.record ?? {pid: -1, host: 'unknown'}}
}

/** Holder of a lock file, or undefined when there is none or it is stale (see inspectLock for the reason). */
export function lockHolder(file: string): LockRecord | undefined {
  const s = inspectLock(file)
  return s.state === 'held' ? s.holder : undefined
}

/**
 * Takes .git/cairn.lock, waiting for a live holder and taking over a stale one.
 *
 * A lock file is created whole: our record goes to a temp file first, then link(2) puts it in place, failing with
 * EEXIST when a lock exists. So a reader never sees half a record, and creation is exclusive.
 */
export const acquireLock = (root: string, options: LockOptions = {}): Promise<Lock> =>
  acquireLockAt(path.join(gitDir(root), LOCK_NAME), options)

/** acquireLock for a lock file elsewhere (named LOCK_NAME, so its leftovers are swept the same way). */
export async function acquireLockAt(file: string, options: LockOptions = {}): Promise<Lock> {
  fs.mkdirSync(path.dirname(file), {recursive: true})
  const token = randomBytes(8).toString('hex')
  const temp = `${file}.new-${token}`
  const deadline = Date.now() + (options.waitMs ?? LOCK_WAIT_MS)
  fs.writeFileSync(temp, JSON.stringify(ownRecord(token, new Date().toISOString())), {flag: 'wx'})
  try {
    for (;;) {
      if (createExclusive(temp, file)) return held(file, token)
      const seen = readLock(file)
      if (!seen) continue
      const reason = verdict(seen)
      if (reason && takeOver(file, seen, temp, token)) return held(file, token, seen.key)
      if (Date.now() >= deadline) throw busy(file, seen, reason)
      await new Promise(r => setTimeout(r, 20 + Math.random() * 40))
    }
  } finally {
    fs.rmSync(temp, {force: true})
  }
}

/** Puts the lock record in place unless a lock exists; false when one does. */
function createExclusive(temp: string, file: string): boolean {
  try {
    fs.linkSync(temp, file)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error
  }
  // A file system without hard links: create and fill the file, so a reader may briefly find it empty (held).
  let fd: number
  try {
    fd = fs.openSync(file, 'wx')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    fs.writeFileSync(fd, fs.readFileSync(temp))
  } finally {
    fs.closeSync(fd)
  }
  return true
}

function busy(file: string, seen: Seen, reason: string | undefined): CairnError {
  const who = seen.record ? `pid ${seen.record.pid} on ${seen.record.host}${seen.record.at ? `, since ${seen.record.at}` : ''}` : 'unreadable record'
  if (reason) return new CairnError('conflict', `${file} is stale (${reason}) but other cairn processes kept taking it over; run the command again`)
  return new CairnError('conflict', `another cairn process (${who}) holds ${file}; wait for it to finish, or remove the file if that process is gone (a lock from another host counts as stale after ${UNCHECKED_MAX_AGE_MS / 60_000} minutes)`)
}

function held(file: string, token: string, takenKey?: string): Lock {
  sweep(path.dirname(file), takenKey)
  return {
    path: file,
    // Only our own lock: if a mistaken takeover replaced it, the file belongs to someone else now.
    release: () => {
      if (readLock(file)?.key === token) fs.rmSync(file, {force: true})
    },
  }
}

const claimPrefix = (key: string) => `${LOCK_NAME}.claim-${key}-`

/**
 * Replaces the stale lock `seen` with ours (the record in `temp`), unless another live process is doing the same.
 * Returns true when we hold the lock.
 *
 * Why at most one waiter wins, and a live lock is never removed:
 * - rename(2) of our temp over the lock file is atomic, so the lock file never goes missing during a takeover, and
 *   no third process can create one in between. (Renaming the stale file away and linking it back when it turns
 *   out live is not safe: while it is away, a third process can create a lock, and then the link back fails and
 *   two processes hold the lock.)
 * - A lock file instance never comes back once replaced (its key is a random token), so "the file is still S" is
 *   true from S's creation until the one takeover that replaces it.
 * - Each waiter that judged S stale first writes its own claim file (named after S's key), then lists the claims
 *   of S, and goes on only when no other claimant is live. Of two waiters that both go on, the one that listed
 *   later would have seen the other's claim (written before the other listed, removed only after it renamed or
 *   gave up), unless the other had already renamed, in which case the later one reads a lock that is no longer S
 *   and gives up. So only one rename over S ever happens. Two claimants that see each other both back off and
 *   retry after a random delay.
 * - Dead claimants (judged like a lock holder) are ignored, so a waiter killed mid-takeover blocks no one.
 * This relies on the staleness verdict never calling a live process dead: exact on one host with /proc, by age
 * (UNCHECKED_MAX_AGE_MS) for a lock or claim from another host.
 */
function takeOver(file: string, seen: Seen, temp: string, token: string): boolean {
  const dir = path.dirname(file)
  const prefix = claimPrefix(seen.key)
  const claim = path.join(dir, prefix + token)
  fs.copyFileSync(temp, claim)
  let won = false
  try {
    const rivals = fs.readdirSync(dir).filter(n => n.startsWith(prefix) && n !== prefix + token)
    if (rivals.some(n => isLive(path.join(dir, n)))) return false
    if (readLock(file)?.key !== seen.key) return false
    fs.renameSync(temp, file)
    won = true
    return true
  } finally {
    if (!won) fs.rmSync(claim, {force: true})
  }
}

function isLive(file: string): boolean {
  const seen = readLock(file)
  return seen !== undefined && !verdict(seen)
}

/**
 * Removes the leftovers of killed processes beside the lock (temp records, claims), and after a takeover every
 * claim on the lock we replaced: it is gone for good, so a late claimant will find the lock changed and give up.
 */
function sweep(dir: string, takenKey: string | undefined): void {
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(`${LOCK_NAME}.new-`) && !name.startsWith(`${LOCK_NAME}.claim-`)) continue
    const file = path.join(dir, name)
    try {
      if ((takenKey && name.startsWith(claimPrefix(takenKey))) || !isLive(file)) fs.rmSync(file, {force: true})
    } catch {
      // Housekeeping only: a file we cannot judge or remove now is tried again by the next acquire.
    }
  }
}
