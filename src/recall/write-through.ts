import fs from 'node:fs'
import type {Context} from '../context.js'
import {feedsRecall, type Store, storeDir} from '../store/layout.js'
import {openStores} from '../store/stores.js'
import type {Committed} from '../store/cards/transaction.js'
import {scanSettings} from './fresh.js'
import {INLINE_WORK, refreshIndex} from './open.js'
import {openIndexFile} from './read.js'

/**
 * Whether the index of these stores holds so many visible cards that no update of it can be made inline
 * (open.ts: a hook's update costs at least one unit of INLINE_WORK per card file, and this write removed at most
 * `touched` of them). Then the write-through leaves it to the background rebuild straight away, as a hook would after
 * scanning every card file. False when there is no index, or one of other stores, or one that cannot be read.
 */
function pastInline(stores: readonly Store[], touched: number): boolean {
  let cached: ReturnType<typeof openIndexFile>
  try {
    cached = openIndexFile(stores[0])
  } catch {
    return false
  }
  if (!cached) return false
  try {
    const {header} = cached
    const same = header.stores.length === stores.length && header.stores.every((s, i) => s === storeDir(stores[i]))
    return same && header.n - touched > INLINE_WORK
  } finally {
    fs.closeSync(cached.fd)
  }
}

/**
 * Write-through, run after a commit (Stores.afterCommit): the recall index of the stores the hooks
 * read from here is brought up to date once the change is in (after the locks are released: hooks
 * never take them), so the next hook call finds it fresh instead of parsing the changed cards itself.
 * An index too large to update inline (pastInline) gets the background rebuild a hook would start, without this
 * write first scanning every card file to learn so. It is derived: a failure here costs that hook call its speed,
 * never this write, and a kill -9 before it leaves an index the next call finds stale.
 */
export async function writeThrough(
  ctx: Context,
  committed: Committed[],
  crash: (point: string) => void,
): Promise<void> {
  const touched = committed.flatMap(c => c.paths.filter(p => feedsRecall(c.store, p)))
  if (touched.length === 0) return
  crash('before-index')
  // The layers every reader opens the index with (an org layer's cards are in the project's index too).
  const stores = openStores(ctx).layers()
  if (stores.length > 0 && pastInline(stores, touched.length)) {
    const {configStamp, signalsStamp} = scanSettings(stores[0])
    const {startRebuild} = await import('./background.js')
    startRebuild(stores, JSON.stringify([configStamp, signalsStamp]))
    return
  }
  await refreshIndex(stores, {beforeWrite: what => crash(`${what}-write`)})
}
