import {createHash, randomBytes} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {CairnError} from '../../domain/errors.js'
import {type LockRecord, ownRecord, parseRecord, processStart, type Staleness, staleReason} from './lock-record.js'

/**
 * cairn's one lock primitive: a file naming the process that holds it (lock-record.ts), used for the writers' lock
 * (.git/cairn.lock, lock.ts) and the recall index's background rebuild (<store>/.cache/recall-index.lock).
 *
 * - A lock file is created whole: the record goes to a temp file first, then link(2) puts it in place, failing with
 *   EEXIST when a lock exists. So a reader never sees half a record, and creation is exclusive.
 * - A stale lock (staleReason, with the lock's own Staleness) is taken over by the claim protocol of takeOver; a
 *   live one is waited for (acquire) or left alone (tryAcquire).
 * - A holder may hand the lock over to a process it spawned (handOver), and anyone who knows the lock's token may
 *   release it, from any process (releaseLockByToken).
 * - No link is ever followed at the lock's names: a read opens with O_NOFOLLOW and takes a regular file only (a
 *   link or anything else at the lock's name is no lock, and stale at once); creation is link(2), an exclusive
 *   create or a rename, and removal unlinks the name itself. `dir` is the caller's to check (store-files.ts dirIn).
 */
export interface LockSpec {
  /** The directory that holds the lock file, its temp files and takeover claims; checked by the caller. */
  dir: string
  /** The lock file's name; its temp files and claims are named after it. */
  name: string
  staleness: Staleness
  /**
   * Write the record's `at` in milliseconds since the epoch, which its age then counts from (the recall index's
   * lock, as every cairn has read it); else ISO 8601 text for people, its age the file's mtime (cairn.lock).
   */
  atInMs?: boolean
}

export interface HeldLock {
  path: string
  /** Tells this lock file from any other: whoever knows it may release the lock, from any process. */
  token: string
  /**
   * Names another process (one this one spawned) as the holder, with its start time where /proc tells: the lock
   * then lives as long as that process does. Rewrites the record in place, in one write; false when the lock is no
   * longer this one (that process released it already), and then writes nothing.
   */
  handOver(pid: number): boolean
  /** Removes the lock if it is still this one: if a mistaken takeover replaced it, the file is someone else's. */
  release(): void
}

export type LockState =
  {state: 'free'} | {state: 'held'; holder: LockRecord} | {state: 'stale'; holder?: LockRecord; reason: string}

interface Seen {
  /** Identifies this lock file instance: its token, else a hash of its bytes, inode and mtime. */
  key: string
  mtimeMs: number
  record?: LockRecord
  /** A link, or no regular file, at the lock's name: no lock at all. */
  foreign?: boolean
}

/** Far above any record: a bigger file is damaged, and read as unreadable. */
const RECORD_CAP = 64 * 1024
/** 0 where the platform lacks the flag (Windows): an lstat first carries the rule there. */
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0
/** A FIFO at the lock's name must not block the open. */
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0

const lockPath = (spec: LockSpec) => path.join(spec.dir, spec.name)
const hashKey = (...parts: (string | bigint)[]) =>
  createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32)

/** Opens the lock file without following a link: its fd, null when there is none, or what is there instead. */
function openLock(file: string, flags: number): number | null | {foreign: fs.BigIntStats} {
  try {
    const link = NOFOLLOW ? undefined : fs.lstatSync(file, {bigint: true})
    if (link?.isSymbolicLink()) return {foreign: link}
    return fs.openSync(file, flags | NOFOLLOW | NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    // ELOOP (EMLINK on FreeBSD): a link; ENXIO: a socket; EISDIR: a directory opened for writing.
    if (code !== 'ELOOP' && code !== 'EMLINK' && code !== 'ENXIO' && code !== 'EISDIR') throw error
  }
  try {
    return {foreign: fs.lstatSync(file, {bigint: true})}
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** The file's bytes from an fd whose stat says `size`. */
function readAll(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size)
  let total = 0
  while (total < size) {
    const n = fs.readSync(fd, buf, total, size - total, total)
    if (n === 0) break
    total += n
  }
  return buf.subarray(0, total)
}

const foreignSeen = (stat: fs.BigIntStats): Seen => ({
  key: hashKey('foreign', stat.ino, stat.mtimeNs),
  mtimeMs: Number(stat.mtimeMs),
  foreign: true,
})

function readLock(file: string): Seen | undefined {
  const fd = openLock(file, fs.constants.O_RDONLY)
  if (fd === null) return undefined
  if (typeof fd !== 'number') return foreignSeen(fd.foreign)
  try {
    const stat = fs.fstatSync(fd, {bigint: true})
    if (!stat.isFile()) return foreignSeen(stat)
    const raw = stat.size > RECORD_CAP ? '' : readAll(fd, Number(stat.size)).toString('utf8')
    const record = parseRecord(raw)
    return {key: record?.token ?? hashKey(raw, stat.ino, stat.mtimeNs), mtimeMs: Number(stat.mtimeMs), record}
  } finally {
    fs.closeSync(fd)
  }
}

const verdict = (seen: Seen, spec: LockSpec): string | undefined =>
  seen.foreign ? 'it is a link or no regular file' : staleReason(seen.record, seen.mtimeMs, spec.staleness)

/** The state of the lock, with the reason when it is stale. */
export function inspectLockFile(spec: LockSpec): LockState {
  const seen = readLock(lockPath(spec))
  if (!seen) return {state: 'free'}
  const reason = verdict(seen, spec)
  if (reason) return {state: 'stale', holder: seen.record, reason}
  return {state: 'held', holder: seen.record ?? {pid: -1, host: 'unknown'}}
}

/** Whether the lock file is the one `token` names (whoever holds it, however stale). */
export const heldByToken = (spec: LockSpec, token: string): boolean => readLock(lockPath(spec))?.key === token

/** Removes the lock if it is the one `token` names, from any process; returns whether it did. */
export function releaseLockByToken(spec: LockSpec, token: string): boolean {
  const file = lockPath(spec)
  if (readLock(file)?.key !== token) return false
  fs.rmSync(file, {force: true})
  return true
}

interface Attempt {
  spec: LockSpec
  file: string
  token: string
  /** Our record, whole, waiting to be linked into place. */
  temp: string
}

function prepare(spec: LockSpec): Attempt {
  const file = lockPath(spec)
  const token = randomBytes(8).toString('hex')
  const temp = `${file}.new-${token}`
  fs.writeFileSync(temp, JSON.stringify(ownRecord(token, spec.atInMs ? Date.now() : new Date().toISOString())), {
    flag: 'wx',
  })
  return {spec, file, token, temp}
}

/** One try: the lock (created, or taken over from a stale holder), or the lock file found and why it is stale; undefined when it vanished meanwhile. */
function attempt(a: Attempt): {held: HeldLock} | {seen: Seen; reason?: string} | undefined {
  if (createExclusive(a.temp, a.file)) return {held: held(a)}
  const seen = readLock(a.file)
  if (!seen) return undefined
  const reason = verdict(seen, a.spec)
  if (reason && takeOver(a, seen)) return {held: held(a, seen.key)}
  return {seen, reason}
}

/**
 * Takes the lock without waiting: null when a live holder has it (or another process is taking a stale one over).
 * A live lock is seen before any file is written, so a caller that finds one held pays one read.
 */
export function tryAcquire(spec: LockSpec): HeldLock | null {
  const found = readLock(lockPath(spec))
  if (found && !verdict(found, spec)) return null
  const a = prepare(spec)
  try {
    for (let tries = 0; tries < 3; tries++) {
      const r = attempt(a)
      if (r) return 'held' in r ? r.held : null
    }
    return null
  } finally {
    fs.rmSync(a.temp, {force: true})
  }
}

/** Takes the lock, waiting up to waitMs for a live holder (0 tries once); a conflict error after that. */
export async function acquire(spec: LockSpec, waitMs: number): Promise<HeldLock> {
  const deadline = Date.now() + waitMs
  const a = prepare(spec)
  try {
    for (;;) {
      const r = attempt(a)
      if (!r) continue
      if ('held' in r) return r.held
      if (Date.now() >= deadline) throw busy(a, r.seen, r.reason)
      await new Promise(resolve => setTimeout(resolve, 20 + Math.random() * 40))
    }
  } finally {
    fs.rmSync(a.temp, {force: true})
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

function busy(a: Attempt, seen: Seen, reason: string | undefined): CairnError {
  const at = seen.record?.at
  const since = at === undefined ? '' : `, since ${typeof at === 'number' ? new Date(at).toISOString() : at}`
  const who = seen.record ? `pid ${seen.record.pid} on ${seen.record.host}${since}` : 'unreadable record'
  if (reason)
    return new CairnError(
      'conflict',
      `${a.file} is stale, ${reason}, but other cairn processes kept taking it over. Fix: run the command again`,
    )
  const minutes = a.spec.staleness.uncheckedMaxAgeMs / 60_000
  return new CairnError(
    'conflict',
    `Another cairn process, ${who}, holds ${a.file}. Fix: wait for it to finish, or remove the file if that process is gone; a lock from another host counts as stale after ${minutes} minutes`,
  )
}

function held(a: Attempt, takenKey?: string): HeldLock {
  sweep(a.spec, takenKey)
  const {spec, file, token} = a
  return {
    path: file,
    token,
    handOver: pid => handOver(file, token, pid),
    release: () => {
      releaseLockByToken(spec, token)
    },
  }
}

/** Rewrites the record to name `pid`, through one fd that is checked to be our lock file: see HeldLock.handOver. */
function handOver(file: string, token: string, pid: number): boolean {
  const fd = openLock(file, fs.constants.O_RDWR)
  if (typeof fd !== 'number') return false
  try {
    const stat = fs.fstatSync(fd)
    if (!stat.isFile() || stat.size > RECORD_CAP) return false
    const record = parseRecord(readAll(fd, stat.size).toString('utf8'))
    if (!record || record.token !== token) return false
    const next = Buffer.from(JSON.stringify({...record, pid, start: processStart(pid)}))
    // Padded to the old record's size: a shorter record leaves no bytes of the old one behind it.
    const bytes = next.length >= stat.size ? next : Buffer.concat([next, Buffer.alloc(stat.size - next.length, ' ')])
    fs.writeSync(fd, bytes, 0, bytes.length, 0)
    return true
  } finally {
    fs.closeSync(fd)
  }
}

const claimPrefix = (spec: LockSpec, key: string) => `${spec.name}.claim-${key}-`

/**
 * Replaces the stale lock `seen` with ours (the record in the temp file), unless another live process is doing the
 * same. Returns true when we hold the lock.
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
 * (Staleness.uncheckedMaxAgeMs) for a lock or claim from another host. A lock kind with a liveMaxAgeMs accepts that
 * a holder that old is taken over alive.
 */
function takeOver(a: Attempt, seen: Seen): boolean {
  const prefix = claimPrefix(a.spec, seen.key)
  const claim = path.join(a.spec.dir, prefix + a.token)
  fs.copyFileSync(a.temp, claim, fs.constants.COPYFILE_EXCL)
  let won = false
  try {
    const rivals = fs.readdirSync(a.spec.dir).filter(n => n.startsWith(prefix) && n !== prefix + a.token)
    if (rivals.some(n => isLive(path.join(a.spec.dir, n), a.spec))) return false
    if (readLock(a.file)?.key !== seen.key) return false
    fs.renameSync(a.temp, a.file)
    won = true
    return true
  } finally {
    if (!won) fs.rmSync(claim, {force: true})
  }
}

function isLive(file: string, spec: LockSpec): boolean {
  const seen = readLock(file)
  return seen !== undefined && !verdict(seen, spec)
}

/**
 * Removes the leftovers of killed processes beside the lock (temp records, claims), and after a takeover every
 * claim on the lock we replaced: it is gone for good, so a late claimant will find the lock changed and give up.
 */
function sweep(spec: LockSpec, takenKey: string | undefined): void {
  let names: string[]
  try {
    names = fs.readdirSync(spec.dir)
  } catch {
    return // housekeeping never costs the lock just taken: the next acquire sweeps
  }
  for (const name of names) {
    if (!name.startsWith(`${spec.name}.new-`) && !name.startsWith(`${spec.name}.claim-`)) continue
    const file = path.join(spec.dir, name)
    try {
      if ((takenKey && name.startsWith(claimPrefix(spec, takenKey))) || !isLive(file, spec))
        fs.rmSync(file, {force: true})
    } catch {
      // Housekeeping only: a file we cannot judge or remove now is tried again by the next acquire.
    }
  }
}
