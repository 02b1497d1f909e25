import fs from 'node:fs'
import path from 'node:path'
import {jsonLines} from '../../domain/json-lines.js'
import {rel, type Store} from '../layout.js'
import {appendFileIn, dirIn, isFileIn, readTextIn, removeFileIn, writeFileIn} from '../files/store-files.js'

/**
 * Machine-local state under .local/ (never committed): the event ledger and markers. Everything
 * here is a hint that helps the next session; a torn or missing file costs a hint, never a card.
 */

/** Repo-relative: what store-files.ts takes, and what its errors name. */
export const localRel = (store: Store, ...parts: string[]): string => rel(store, '.local', ...parts)

/**
 * The directory .local/<sub...>, made if missing, every level a real directory: never a link. A
 * cloned repo could carry a link named .local (or .local/sessions) to anywhere, and hooks write
 * and prune there on every event, so a link is refused, as card reads refuse links under .cairn/.
 */
export const localDir = (store: Store, ...sub: string[]): string =>
  dirIn(store.root, localRel(store, ...sub), {create: true}) as string

/** .local/<sub...> when it exists and every level is a real directory (no link); else null. */
export function existingLocalDir(store: Store, ...sub: string[]): string | null {
  try {
    return dirIn(store.root, localRel(store, ...sub))
  } catch {
    return null
  }
}

export const EVENTS = 'events.jsonl'
/** The ledger before the last rotation: kept so usage counts survive one rotation. */
export const EVENTS_OLD = 'events.1.jsonl'
/** One ledger line at most (DESIGN: lines ≤ 4 KB), so an append stays one small write. */
export const MAX_EVENT_BYTES = 4096
/** The ledger rotates past this size, so a hook never reads more than about this much. */
export const ROTATE_EVENTS_AT = 1024 * 1024
/** Rotation keeps a ledger near 1 MB; one far larger is not cairn's, and is not read. */
const MAX_LEDGER_BYTES = 2 * ROTATE_EVENTS_AT

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
  rotateIfLarge(path.join(localDir(store), EVENTS))
  appendFileIn(store.root, localRel(store, EVENTS), eventLine(event))
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
      const lists = {
        ...(event.paths ? {paths: paths.slice(0, keepPaths)} : {}),
        ...(event.cards ? {cards: cards.slice(0, keepCards)} : {}),
      }
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
    let text: string | null
    try {
      text = readTextIn(store.root, localRel(store, name), MAX_LEDGER_BYTES)
    } catch {
      continue // a link, a FIFO, or a file no ledger of cairn's grows to
    }
    if (text === null) continue
    for (const e of jsonLines(text) as LedgerEvent[]) if (typeof e?.event === 'string') out.push(e)
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
  writeFileIn(store.root, localRel(store, PENDING_FIX), `${JSON.stringify(marker, null, 2)}\n`)
}

export function clearPendingFix(store: Store): void {
  try {
    removeFileIn(store.root, localRel(store, PENDING_FIX))
  } catch {
    // A link on the way: nothing of cairn's is behind it.
  }
}

export const hasPendingFix = (store: Store): boolean => isFileIn(store.root, localRel(store, PENDING_FIX))
