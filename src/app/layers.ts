import type {Card} from '../domain/card/schema.js'
import type {Store} from '../store/layout.js'
import {layerOf, type StoreChoice, type Stores, writable} from '../store/stores.js'

/**
 * The layers a reader shows (DESIGN: The org layer): the project, its org layers, then the personal store, in that
 * precedence. One id in two layers is shown once, from the higher layer; each card says which layer it came from.
 */

/** What a card's JSON adds to its `store` to name its layer: `layer: "org:<name>"` for an org card, nothing else. */
export const layerField = (s: Store): {layer?: string} => (s.org ? {layer: layerOf(s)} : {})

/** The stores a read with this choice looks at: every layer for "all" (the default), else the one store asked for. */
export function readLayers(stores: Stores, choice: StoreChoice = 'all'): Store[] {
  if (choice !== 'all') return stores.readable(choice)
  stores.readable('all') // exit 3 outside a project with no personal store either, as every read is
  return stores.layers()
}

/**
 * Whether a card of the layer at `at` is overridden by a higher layer that has the same id: `idsOf` gives each
 * layer's ids (card files of every location a read looks at). Computed once per read.
 */
export function shadowing(
  layers: readonly Store[],
  idsOf: (s: Store) => Iterable<string>,
): (at: Store, id: string) => boolean {
  if (layers.length < 2) return () => false
  const owner = new Map<string, number>()
  layers.forEach((s, i) => {
    for (const id of idsOf(s)) if (!owner.has(id)) owner.set(id, i)
  })
  return (at, id) => {
    const i = layers.indexOf(at)
    const first = owner.get(id)
    return first !== undefined && i >= 0 && first < i
  }
}

/** Where a reader records that a card was read: the project's machine-local files for an org card (its tree is shared and read-only). */
export const usageStore = (stores: Stores, s: Store): Store => (s.kind === 'org' ? (stores.project ?? s) : s)

/**
 * Refuses, with the read-only error (exit 5), a write naming an id that only an org layer holds (live or archived):
 * for a write that looks for its card in the project and personal stores alone (enrich --apply, restore), so the user
 * hears why rather than "no such card".
 */
export function refuseOrgCard(stores: Stores, id: string): void {
  for (const s of stores.layers()) if (s.kind === 'org' && stores.find(s, id, {archive: true}).length > 0) writable(s)
}

/**
 * The active cards (cards/, status active) a shared file may carry: the project's and its org layers', never the
 * personal store's; one id once, from the higher layer. With the files that could not be read.
 */
export async function sharedActiveCards(stores: Stores): Promise<{cards: Card[]; unreadable: string[]}> {
  const layers = stores.layers().filter(s => s.kind !== 'personal')
  const seen = new Set<string>()
  const cards: Card[] = []
  const unreadable: string[] = []
  for (const s of layers) {
    const loaded = await stores.loadAll(s)
    unreadable.push(...loaded.errors.map(e => (s.org ? `${layerOf(s)}:${e.file.path}` : e.file.path)))
    const active = loaded.cards.filter(c => c.location === 'cards' && c.card.status === 'active').map(c => c.card)
    for (const card of active.filter(c => !seen.has(c.id))) cards.push(card)
    for (const card of active) seen.add(card.id)
  }
  return {cards, unreadable}
}
