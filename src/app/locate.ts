import {CairnError} from '../domain/errors.js'
import {findById, loadCardFile, type LoadedCard} from '../store/cards.js'
import type {Context} from '../store/context.js'
import {assertSafeId, readableStores, type StoreChoice} from './stores.js'

/**
 * Finds one card by id: project before personal, live (pending/, cards/) before archived,
 * the newest archive first. Exit 4 when nothing matches.
 */
export function findCard(ctx: Context, id: string, options: {store?: StoreChoice; archive?: boolean} = {}): LoadedCard {
  assertSafeId(id)
  const stores = readableStores(ctx, options.store ?? 'all')
  for (const archived of options.archive ? [false, true] : [false]) {
    for (const s of stores) {
      const hits = findById(s, id, {archive: archived}).filter(h => archived === (h.location === 'archive'))
      // Live: pending before cards. Archived: the newest archive.
      if (hits.length > 0) return loadCardFile(archived ? hits[hits.length - 1] : hits[0])
    }
  }
  throw new CairnError('not_found', `no card with id "${id}". "cairn list" shows the ids there are`, {id})
}
