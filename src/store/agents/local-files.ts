import type {Receipt} from '../../domain/receipts.js'
import type {Store} from '../layout.js'
import {pruneSessions, type SessionState, updateSession, writeDigest} from './hook-session.js'
import {
  appendEvent,
  clearPendingFix,
  hasPendingFix,
  type LedgerEvent,
  readEvents,
  readUsage,
  recordUsage,
  writePendingFix,
} from './local.js'

/**
 * One store's machine-local files under .local/ (never committed), as Stores.local hands them out: the event
 * ledger and the usage it counts, the injection receipts, the .pending-fix marker, and what the hooks remember of
 * each agent session.
 */
export interface LocalFiles {
  /** Appends one event to the ledger as one line (O_APPEND; a line over 4 KB drops entries and counts them). */
  appendEvent(event: LedgerEvent): void
  /** The ledger's events, oldest first (the rotated file, then the current one); torn lines are skipped. */
  readEvents(): LedgerEvent[]
  /** How often each card was shown to or read by an agent: maintain's usage counts. */
  readUsage(): Map<string, number>
  /** Records an event for the hooks' signals and maintain's usage counts; best effort, it never throws. */
  recordUsage(event: {event: string} & Partial<LedgerEvent>, now: Date): void
  /**
   * Appends one receipt line (.local/receipts.jsonl, O_APPEND, no git); rotates the file past 1 MB. Loaded on first
   * use: a hook that gives no card never pays for the receipt module and its lock.
   */
  appendReceipt(line: string): Promise<void>
  /** Every receipt kept (the older generations, then the current file), oldest first; torn lines are skipped. */
  readReceipts(): Promise<Receipt[]>
  /** The marker that tells the next agent turn to run `cairn maintain --apply`. */
  writePendingFix(marker: unknown): void
  clearPendingFix(): void
  hasPendingFix(): boolean
  /** Reads one agent session's state, lets `change` update it and writes it back, under the session's lock. */
  updateSession<T>(session: string, change: (state: SessionState) => T): T
  /** Drops the state and digests of sessions idle for 30 days, and temp files killed hooks left. */
  pruneSessions(now: Date): void
  /** Writes the session's digest atomically; returns its path. */
  writeDigest(session: string, text: string): string
}

export function openLocalFiles(store: Store): LocalFiles {
  return {
    appendEvent: event => appendEvent(store, event),
    readEvents: () => readEvents(store),
    readUsage: () => readUsage(store),
    recordUsage: (event, now) => recordUsage(store, event, now),
    appendReceipt: async line => (await import('./receipts.js')).appendReceipt(store, line),
    readReceipts: async () => (await import('./receipts.js')).readReceipts(store),
    writePendingFix: marker => writePendingFix(store, marker),
    clearPendingFix: () => clearPendingFix(store),
    hasPendingFix: () => hasPendingFix(store),
    updateSession: (session, change) => updateSession(store, session, change),
    pruneSessions: now => pruneSessions(store, now),
    writeDigest: (session, text) => writeDigest(store, session, text),
  }
}
