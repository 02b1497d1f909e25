import fs from 'node:fs'
import os from 'node:os'

/**
 * A lock whose holder we cannot check by its process (taken on another host, or recording no start time) is stale
 * past this age. The longest operation holds the writers' lock for seconds (approve --all of 1,000 cards: about
 * 6 s); ten minutes leaves room for a slow disk or a machine under load, and is a bearable wait after a crash.
 */
export const UNCHECKED_MAX_AGE_MS = 10 * 60_000
/**
 * A lock file is written whole (see lock-file.ts), so an unreadable one is an older cairn mid-write, a file system
 * without hard links (created, then filled), a rewrite read halfway, or a damaged file: stale once it is older
 * than a write can take.
 */
const UNREADABLE_GRACE_MS = 10_000

/** The parameters of the staleness rule (staleReason): each kind of lock has its own. */
export interface Staleness {
  /** A lock whose holder cannot be checked (taken on another host, or recording no start time) is stale past this age. */
  uncheckedMaxAgeMs: number
  /**
   * Past this age a lock is stale even when its holder is alive (a worker that hangs is taken over). Left out, a live
   * holder on this host keeps its lock however long it runs.
   */
  liveMaxAgeMs?: number
}

/** What a lock file (and a takeover claim) records about the process that wrote it. */
export interface LockRecord {
  pid: number
  host: string
  /** Linux: start time of the process in clock ticks since boot (field 22 of /proc/<pid>/stat). */
  start?: string
  /** Linux: /proc/sys/kernel/random/boot_id, so a lock from before a reboot is recognised. */
  boot?: string
  /**
   * When the lock was taken: ISO 8601 text, for people (the age rule then uses the file's mtime), or milliseconds
   * since the epoch (the recall index's lock, whose age the rule counts from it).
   */
  at?: string | number
  /** Random: tells this lock file from any later one. */
  token?: string
}

interface ProcStat {
  state: string
  start: string
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 2 (comm) is in parentheses and may hold spaces; fields 3 onwards follow the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return fields.length > 19 ? {state: fields[0], start: fields[19]} : undefined
  } catch {
    return undefined
  }
}

let boot: string | null | undefined
function bootId(): string | undefined {
  if (boot === undefined) {
    try {
      boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null
    } catch {
      boot = null
    }
  }
  return boot ?? undefined
}

/** Whether a process of this pid exists (EPERM: it exists but is another user's). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The start time of a process (Linux: clock ticks since boot), undefined where /proc does not tell. */
export const processStart = (pid: number): string | undefined => procStat(pid)?.start

export function ownRecord(token: string, at: string | number): LockRecord {
  return {pid: process.pid, host: os.hostname(), start: processStart(process.pid), boot: bootId(), at, token}
}

const optionalString = (v: unknown) => v === undefined || typeof v === 'string'

/** The record in a lock file, or undefined when it is not one (a pid of 0 or below would signal a process group). */
export function parseRecord(raw: string): LockRecord | undefined {
  let v: Record<string, unknown>
  try {
    v = JSON.parse(raw)
  } catch {
    return undefined
  }
  if (typeof v !== 'object' || v === null || !Number.isSafeInteger(v.pid) || (v.pid as number) <= 0) return undefined
  if (!optionalString(v.host) || !optionalString(v.start) || !optionalString(v.boot)) return undefined
  if (!optionalString(v.at) && !Number.isFinite(v.at)) return undefined
  const token = typeof v.token === 'string' && /^[0-9a-f]{16,64}$/.test(v.token) ? v.token : undefined
  // Locks written before hosts were recorded are taken as local, as they always were.
  return {
    pid: v.pid as number,
    host: (v.host as string | undefined) ?? os.hostname(),
    start: v.start as string | undefined,
    boot: v.boot as string | undefined,
    at: v.at as string | number | undefined,
    token,
  }
}

const minutes = (ms: number) => `${ms / 60_000} minutes`

/**
 * Why a lock (or claim) is stale, or undefined when its holder may be alive. Its age counts from the record's `at`
 * when that is in milliseconds, else from the file's mtime. A live process on this host that recorded its start
 * time is never judged stale before `rules.liveMaxAgeMs` (never at all without it), however old its lock.
 */
export function staleReason(record: LockRecord | undefined, mtimeMs: number, rules: Staleness): string | undefined {
  if (!record) return Date.now() - mtimeMs > UNREADABLE_GRACE_MS ? 'it holds no readable lock record' : undefined
  const age = Date.now() - (typeof record.at === 'number' ? record.at : mtimeMs)
  const {uncheckedMaxAgeMs: unchecked, liveMaxAgeMs: live = Infinity} = rules
  // Another host's processes cannot be checked from here (a recreated container gets a new hostname).
  const hostMaxAge = Math.min(unchecked, live)
  if (record.host !== os.hostname())
    return age > hostMaxAge ? `it was taken on host ${record.host} more than ${minutes(hostMaxAge)} ago` : undefined
  const ourBoot = bootId()
  if (record.boot && ourBoot && record.boot !== ourBoot) return 'the machine has restarted since it was taken'
  const proc = procStat(record.pid)
  if (!alive(record.pid) || proc?.state === 'Z') return `its process (pid ${record.pid}) is gone`
  if (age > live) return `its process (pid ${record.pid}) has held it for more than ${minutes(live)}`
  if (record.start && proc)
    return proc.start === record.start ? undefined : `pid ${record.pid} now belongs to another process`
  // No start time to compare (an older cairn, or no /proc as on macOS): the pid may have been reused.
  return age > unchecked
    ? `pid ${record.pid} cannot be checked and the lock is more than ${minutes(unchecked)} old`
    : undefined
}
