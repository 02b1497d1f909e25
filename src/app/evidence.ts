import type {Card} from '../domain/card/schema.js'
import {type Candidates, evidenceCandidates, type Held, withEvidence} from '../domain/evidence.js'
import type {Store} from '../store/layout.js'
import type {Stores} from '../store/stores.js'

/**
 * Of the paths and symbols the candidates name, those the repository holds: paths in the working tree, symbols in the
 * files of `tree` (a commit, or the working tree when null). One lstat per path and one git grep for any number of
 * cards.
 */
export async function heldBy(
  stores: Stores,
  store: Store,
  candidates: Candidates[],
  tree: string | null,
): Promise<Held> {
  const named = [...new Set(candidates.flatMap(c => c.paths))]
  const gone = new Set(stores.missing(store, named))
  const code = await stores.code(store)
  const symbols = await code.symbolsFound([...new Set(candidates.flatMap(c => c.symbols))], tree)
  return {paths: new Set(named.filter(p => !gone.has(p))), symbols}
}

/**
 * The cards with the evidence their text names and the repository holds (symbols in the working tree's files),
 * confirmed at `at` against HEAD. Personal cards get none: they travel between repositories, so no one repository's
 * code confirms them.
 */
export async function gatherEvidence(stores: Stores, store: Store, cards: Card[], at: string): Promise<Card[]> {
  if (store.kind !== 'project' || !cards.length) return cards
  const held = await heldBy(stores, store, cards.map(evidenceCandidates), null)
  const commit = await (await stores.code(store)).head()
  return cards.map(c => withEvidence(c, held, {at, commit}))
}
