import type {Card} from '../domain/card/schema.js'
import {evidenceCandidates, withEvidence} from '../domain/evidence.js'
import type {Store} from '../store/layout.js'
import type {Stores} from '../store/stores.js'

/**
 * The cards with the evidence their text names and the repository holds (paths on disk, symbols in the working tree's
 * files), confirmed at `at` against HEAD: three questions to git and the disk for any number of cards. Personal cards
 * get none: they travel between repositories, so no one repository's code confirms them.
 */
export async function gatherEvidence(stores: Stores, store: Store, cards: Card[], at: string): Promise<Card[]> {
  if (store.kind !== 'project' || !cards.length) return cards
  const code = await stores.code(store)
  const candidates = cards.map(evidenceCandidates)
  const named = [...new Set(candidates.flatMap(c => c.paths))]
  const gone = new Set(stores.missing(store, named))
  const paths = new Set(named.filter(p => !gone.has(p)))
  const symbols = await code.symbolsFound([...new Set(candidates.flatMap(c => c.symbols))], null)
  const commit = await code.head()
  return cards.map(c => withEvidence(c, {paths, symbols}, {at, commit}))
}
