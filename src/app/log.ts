import type {Context} from '../context.js'
import {assertSafeId, type StoreChoice} from '../store/stores.js'
import {openStores} from './stores.js'

export interface LogInput {
  id?: string
  store?: StoreChoice
  limit?: number
}

export interface LogEntry {
  sha: string
  at: string
  op: string
  actor: string | null
  cards: string[]
  batch: string | null
  subject: string
  store: 'project' | 'personal'
}

/** The cairn history, read back from commit trailers; with an id, that card's history across renames. */
export async function log(ctx: Context, input: LogInput = {}): Promise<{entries: LogEntry[]}> {
  if (input.id) assertSafeId(input.id)
  const entries: LogEntry[] = []
  const stores = openStores(ctx)
  for (const store of stores.readable(input.store)) {
    // Newest first: a rename "old -> new" of a name we follow adds the old name for older commits.
    const names = new Set(input.id ? [input.id] : [])
    for (const c of await stores.logByTrailer(store)) {
      if (input.id) {
        const touches = c.trailers.cards.some(id => names.has(id)) || c.trailers.renames.some(([, to]) => names.has(to))
        if (!touches) continue
        for (const [from, to] of c.trailers.renames) if (names.has(to)) names.add(from)
      }
      entries.push({
        sha: c.sha,
        at: c.at,
        op: c.trailers.op ?? 'unknown',
        actor: c.trailers.actor ?? null,
        cards: c.trailers.cards,
        batch: c.trailers.batch ?? null,
        subject: c.subject,
        store: store.kind,
      })
    }
  }
  // No history and no such card anywhere is a mistyped id (exit 4, with the closest ids), not an empty log.
  if (input.id && entries.length === 0) await stores.findCard(input.id, {store: input.store, archive: true})
  entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
  return {entries: input.limit ? entries.slice(0, input.limit) : entries}
}
