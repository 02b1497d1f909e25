import fs from 'node:fs'
import path from 'node:path'
import {abs, rel, type Store} from './layout.js'
import {writeFileAtomic} from './fsutil.js'

/**
 * Machine-local state under .local/ (never committed): the event ledger and markers. Everything
 * here is a hint that helps the next session; a torn or missing file costs a hint, never a card.
 */

export const localPath = (store: Store, ...parts: string[]): string => abs(store, rel(store, '.local', ...parts))

/**
 * The directory .local/<sub...>, made if missing, every level a real directory: never a link. A
 * cloned repo could carry a link named .local (or .local/sessions) to anywhere, and hooks write
 * and prune there on every event, so a link is refused, as card reads refuse links under .cairn/.
 */
export function localDir(store: Store, ...sub: string[]): string {
  let dir = localPath(store)
  for (const part of ['', ...sub]) {
    if (part) dir = path.join(dir, part)
    try {
      const st = fs.lstatSync(dir)
      if (!st.isDirectory()) throw new Error(`${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; cairn does not write through it. Remove it`)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      fs.mkdirSync(dir)
    }
  }
  return dir
}

/** .local/<sub...> when it exists and every level is a real directory (no link); else null. */
export function existingLocalDir(store: Store, ...sub: string[]): string | null {
  let dir = localPath(store)
  for (const part of ['', ...sub]) {
    if (part) dir = path.join(dir, part)
    try {
      if (!fs.lstatSync(dir).isDirectory()) return null
    } catch {
      return null
    }
  }
  return dir
}

/** Opens a file in a checked directory for appending, never following a link at its own name. */
export function appendNoFollow(file: string, text: string): void {
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK, 0o644)
  try {
    const st = fs.fstatSync(fd)
    if (!st.isFile()) throw new Error(`${file} is not a regular file; cairn does not append to it`)
    fs.writeSync(fd, text)
  } finally {
    fs.closeSync(fd)
  }
}

export const EVENTS = 'events.jsonl'
/** The ledger before the last rotation: kept so usage counts survive one rotation. */
export const EVENTS_OLD = 'events.1.jsonl'
/** One ledger line at most (DESIGN: lines ≤ 4 KB), so an append stays one small write. */
export const MAX_EVENT_BYTES = 4096
/** The ledger rotates past this size, so a hook never reads more than about this much. */
export const ROTATE_EVENTS_AT = 1024 * 1024

export interface LedgerEvent {
  ts: string
  event: string
  session?: string
  agent?: string
  cards?: string[]
  paths?: string[]
  [key: string]: unknown
}

/**
 * Appends one event as one JSON line. O_APPEND keeps concurrent hooks from overwriting each other;
 * a line over 4 KB drops path and card entries until it fits, and says how many it dropped.
 */
export function appendEvent(store: Store, event: LedgerEvent): void {
  const file = path.join(localDir(store), EVENTS)
  rotateIfLarge(file)
  appendNoFollow(file, eventLine(event))
}

/**
 * The event as one line under MAX_EVENT_BYTES. Entries go from the end of the longer list (paths
 * on a tie), one at a time, and `truncated` counts them. Each step's size is worked out from the
 * bytes each entry adds, so the line is written twice at most, not once per entry dropped
 * (20,000 paths took 39 s that way).
 */
export function eventLine(event: LedgerEvent): string {
  const whole = JSON.stringify(event)
  if (Buffer.byteLength(whole) < MAX_EVENT_BYTES) return `${whole}\n`
  const paths = Array.isArray(event.paths) ? event.paths : []
  const cards = Array.isArray(event.cards) ? event.cards : []
  const emptied = {...event, ...(event.paths ? {paths: []} : {}), ...(event.cards ? {cards: []} : {})}
  // The line with both lists empty and `truncated: 0`; each list then adds its entries and the commas between them.
  const bare = Buffer.byteLength(JSON.stringify({...emptied, truncated: 0})) - 1
  const pathBytes = entryBytes(paths)
  const cardBytes = entryBytes(cards)
  let keepPaths = paths.length
  let keepCards = cards.length
  for (let dropped = 1; keepPaths + keepCards > 0; dropped++) {
    if (keepPaths >= keepCards) keepPaths--
    else keepCards--
    const size = bare + String(dropped).length + listBytes(pathBytes, keepPaths) + listBytes(cardBytes, keepCards)
    if (size < MAX_EVENT_BYTES) {
      const lists = {...(event.paths ? {paths: paths.slice(0, keepPaths)} : {}), ...(event.cards ? {cards: cards.slice(0, keepCards)} : {})}
      return `${JSON.stringify({...event, ...lists, truncated: dropped})}\n`
    }
  }
  // Nothing left to drop: keep only the fields every reader needs.
  return `${JSON.stringify({ts: event.ts, event: event.event, session: event.session?.slice(0, 200), truncated: true})}\n`
}

/** Bytes of the first k entries of a JSON list, by prefix sums: at[k] (commas between them added by listBytes). */
function entryBytes(list: readonly unknown[]): number[] {
  const at = [0]
  for (const entry of list) at.push(at[at.length - 1] + Buffer.byteLength(JSON.stringify(entry) ?? 'null'))
  return at
}

const listBytes = (at: readonly number[], k: number): number => at[k] + Math.max(0, k - 1)

/**
 * Rotation is rare and happens under a lock file, re-checking the size once it holds it: two hooks
 * that both saw a large ledger must not rotate twice (the second would replace the rotated
 * ledger, and with it the usage counts, with a one-line file).
 */
function rotateIfLarge(file: string): void {
  const large = (): boolean => {
    try {
      return fs.lstatSync(file).size >= ROTATE_EVENTS_AT
    } catch {
      return false
    }
  }
  if (!large()) return
  const lock = `${file}.rotating`
  try {
    fs.closeSync(fs.openSync(lock, 'wx'))
  } catch {
    return // Another hook is rotating it; appending to the old ledger a moment longer is harmless.
  }
  try {
    if (large()) fs.renameSync(file, path.join(path.dirname(file), EVENTS_OLD))
  } finally {
    fs.rmSync(lock, {force: true})
  }
}

/** The ledger's events, oldest first (the rotated file, then the current one); torn lines are skipped. */
export function readEvents(store: Store): LedgerEvent[] {
  const out: LedgerEvent[] = []
  for (const name of [EVENTS_OLD, EVENTS]) {
    let text: string
    try {
      const file = localPath(store, name)
      if (!fs.lstatSync(file).isFile()) continue
      text = fs.readFileSync(file, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue
      try {
        const e = JSON.parse(line)
        if (e && typeof e === 'object' && typeof e.event === 'string') out.push(e)
      } catch {
        // A torn write.
      }
    }
  }
  return out
}

const USAGE_EVENTS = new Set(['card_shown', 'card_read'])

/** How often each card was shown to or read by an agent: maintain's usage counts. */
export function readUsage(store: Store): Map<string, number> {
  const counts = new Map<string, number>()
  for (const e of readEvents(store)) {
    if (!USAGE_EVENTS.has(e.event)) continue
    const ids = [...(typeof e.card === 'string' ? [e.card] : []), ...(Array.isArray(e.cards) ? e.cards : [])]
    for (const id of ids) if (typeof id === 'string') counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return counts
}

/**
 * Records an event for the hooks' signals and maintain's usage counts (from the hooks, and from
 * show, propose and archive). Best effort: the caller has already done its work, and a read-only
 * or full disk must not turn it into a failure.
 */
export function recordUsage(store: Store, event: {event: string} & Partial<LedgerEvent>, now: Date): void {
  try {
    appendEvent(store, {ts: now.toISOString(), ...event})
  } catch {
    // Usage is a hint.
  }
}

export const PENDING_FIX = '.pending-fix'

/** The marker that tells the next agent turn to run `cairn maintain --apply` (seed 001). */
export function writePendingFix(store: Store, marker: unknown): void {
  writeFileAtomic(path.join(localDir(store), PENDING_FIX), `${JSON.stringify(marker, null, 2)}\n`)
}

export function clearPendingFix(store: Store): void {
  const dir = existingLocalDir(store)
  if (dir) fs.rmSync(path.join(dir, PENDING_FIX), {force: true})
}

export function hasPendingFix(store: Store): boolean {
  return fs.existsSync(localPath(store, PENDING_FIX))
}
