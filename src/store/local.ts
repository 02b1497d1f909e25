import fs from 'node:fs'
import {abs, rel, type Store} from './layout.js'
import {writeFileAtomic} from './fsutil.js'

/** Machine-local state under .local/ (never committed): the event ledger and markers. */

export const localPath = (store: Store, ...parts: string[]): string => abs(store, rel(store, '.local', ...parts))

const USAGE_EVENTS = new Set(['card_shown', 'card_read', 'shown', 'read'])

/**
 * How often each card was shown to or read by an agent, from .local/events.jsonl. Lines that
 * are not JSON (a torn write) are skipped: usage is a hint, never a reason to fail.
 */
export function readUsage(store: Store): Map<string, number> {
  const counts = new Map<string, number>()
  let text: string
  try {
    text = fs.readFileSync(localPath(store, 'events.jsonl'), 'utf8')
  } catch {
    return counts
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    let event: {event?: string; kind?: string; card?: unknown; cards?: unknown}
    try {
      event = JSON.parse(line)
    } catch {
      continue
    }
    if (!USAGE_EVENTS.has(String(event.event ?? event.kind))) continue
    const ids = [...(typeof event.card === 'string' ? [event.card] : []), ...(Array.isArray(event.cards) ? event.cards.filter(c => typeof c === 'string') : [])]
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return counts
}

export const PENDING_FIX = '.pending-fix'

/** The marker that tells the next agent turn to run `cairn maintain --apply` (seed 001). */
export function writePendingFix(store: Store, marker: unknown): void {
  writeFileAtomic(localPath(store, PENDING_FIX), `${JSON.stringify(marker, null, 2)}\n`)
}

export function clearPendingFix(store: Store): void {
  fs.rmSync(localPath(store, PENDING_FIX), {force: true})
}
