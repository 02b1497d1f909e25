import type {StoreKind} from '../domain/org.js'
import {type CardStatus, type CardType, LEGACY_PENDING, type Load} from '../domain/card/types.js'
import type {Context} from '../context.js'
import {isDeferred} from '../domain/lifecycle.js'
import {type StoreChoice} from '../store/stores.js'
import {openStores} from './stores.js'

export interface ListInput {
  /** Only cards in this state; draft, the older name of pending, gives the pending cards. */
  status?: CardStatus | 'archived' | typeof LEGACY_PENDING
  type?: CardType
  load?: Load
  /** Only cards whose category is this one (the catalog at session start names them). */
  category?: string
  store?: StoreChoice
}

export interface ListedCard {
  id: string
  type: CardType
  status: CardStatus | 'archived'
  load: Load
  store: StoreKind
  title: string
  path: string
  /** Until when review leaves this pending card out (cairn review defer); null when it is not deferred, or no longer. */
  deferred_until: string | null
}

export interface ListResult {
  cards: ListedCard[]
  /** Files that could not be read as cards ("cairn lint" explains each). */
  unreadable: string[]
}

/** The warning a list gives when some card files could not be read. */
export const unreadableWarnings = (r: ListResult): string[] =>
  r.unreadable.length ? [`${r.unreadable.length} card file(s) could not be read; run "cairn lint"`] : []

export async function list(ctx: Context, input: ListInput = {}): Promise<ListResult> {
  const cards: ListedCard[] = []
  const unreadable: string[] = []
  const stores = openStores(ctx)
  const readable = stores.readable(input.store)
  const wanted = input.status === LEGACY_PENDING ? 'pending' : input.status
  const now = ctx.now()
  stores.noteInterrupted(readable)
  for (const store of readable) {
    const loaded = await stores.summaries(store, {archive: wanted === 'archived'})
    unreadable.push(...loaded.unreadable.map(f => f.path))
    for (const {summary: c, location, path} of loaded.cards) {
      const status = location === 'archive' ? 'archived' : c.status
      if (wanted && status !== wanted) continue
      if (input.type && c.type !== input.type) continue
      if (input.load && c.load !== input.load) continue
      if (input.category !== undefined && c.category !== input.category) continue
      cards.push({
        id: c.id,
        type: c.type,
        status,
        load: c.load,
        store: store.kind,
        title: c.title,
        path,
        deferred_until: location === 'pending' && isDeferred(c.deferred_until, now) ? c.deferred_until : null,
      })
    }
  }
  return {cards, unreadable}
}
