import type {StoreKind} from '../domain/org.js'
import {type CardStatus, type CardType, LEGACY_PENDING, type Load} from '../domain/card/types.js'
import type {Context} from '../context.js'
import {isDeferred} from '../domain/lifecycle.js'
import {type StoreChoice} from '../store/stores.js'
import {openStores} from './stores.js'
import {layerField, readLayers, shadowing} from './layers.js'

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
  /** An org card's layer, "org:<name>"; absent for a project or personal card. */
  layer?: string
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
  const layers = readLayers(stores, input.store)
  const wanted = input.status === LEGACY_PENDING ? 'pending' : input.status
  const now = ctx.now()
  stores.noteInterrupted(layers.filter(s => s.kind !== 'org'))
  const summaries = await Promise.all(layers.map(s => stores.summaries(s, {archive: wanted === 'archived'})))
  // One id in two layers is listed once, from the higher layer (project, then org layers, then personal).
  const shadowed = shadowing(layers, s => summaries[layers.indexOf(s)].cards.map(c => c.summary.id))
  for (const [i, store] of layers.entries()) {
    const loaded = summaries[i]
    unreadable.push(...loaded.unreadable.map(f => f.path))
    for (const {summary: c, location, path} of loaded.cards) {
      if (shadowed(store, c.id)) continue
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
        ...layerField(store),
        title: c.title,
        path,
        deferred_until: location === 'pending' && isDeferred(c.deferred_until, now) ? c.deferred_until : null,
      })
    }
  }
  return {cards, unreadable}
}
