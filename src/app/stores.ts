import type {Context} from '../context.js'
import {openStores as openStoreDoor, type Stores} from '../store/stores.js'

export {gitUserName} from '../store/stores.js'
import type {AfterCommit} from '../store/cards/transaction.js'

/** Keeps the recall index current after a write; the recall module loads only once a write has committed. */
const recallWriteThrough: AfterCommit = async (ctx, committed, crash) =>
  (await import('../recall/index.js')).writeThrough(ctx, committed, crash)

/**
 * The stores of a use case: the store's one door (store/stores.ts), with the steps the app runs
 * after each commit. Every app function opens its stores here, so no write skips them.
 */
export function openStores(ctx: Context): Stores {
  return openStoreDoor(ctx).afterCommit(recallWriteThrough)
}
