import type {Context} from '../context.js'
import {configRel, rel, type Store, storesToRead} from '../store/layout.js'
import type {Committed} from '../store/cards/transaction.js'
import {refreshIndex} from './open.js'

/** Whether the recall index is built from this store file: an active card, or a settings file it caches. */
function indexed(store: Store, relPath: string): boolean {
  const settings = [configRel(store), rel(store, 'signals.yaml'), rel(store, 'lexicon.yaml')]
  return relPath.startsWith(`${rel(store, 'cards')}/`) || settings.includes(relPath)
}

/**
 * Write-through, run after a commit (Stores.afterCommit): the recall index of the stores the hooks
 * read from here is brought up to date once the change is in (after the locks are released: hooks
 * never take them), so the next hook call finds it fresh instead of parsing the changed cards itself.
 * It is derived: a failure here costs that hook call its speed, never this write, and a kill -9
 * before it leaves an index the next call finds stale.
 */
export async function writeThrough(
  ctx: Context,
  committed: Committed[],
  crash: (point: string) => void,
): Promise<void> {
  if (!committed.some(c => c.paths.some(p => indexed(c.store, p)))) return
  crash('before-index')
  await refreshIndex(storesToRead(ctx), {beforeWrite: what => crash(`${what}-write`)})
}
