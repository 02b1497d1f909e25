import type {Context} from '../context.js'
import {feedsRecall, openStores as openStoreDoor, type Stores} from '../store/stores.js'

export {gitUserName} from '../store/stores.js'
import type {AfterCommit} from '../store/cards/transaction.js'
import type {Store} from '../store/layout.js'
import type {StoreLanguage} from '../domain/messages/language.js'

/**
 * Keeps the recall index current after a write; the recall module loads only once a write has committed a file the
 * index is built from (a proposal touches none: some forty modules it would load for nothing).
 */
const recallWriteThrough: AfterCommit = async (ctx, committed, crash) => {
  if (!committed.some(c => c.paths.some(p => feedsRecall(c.store, p)))) return
  await (await import('../recall/index.js')).writeThrough(ctx, committed, crash)
}

/**
 * The stores of a use case: the store's one door (store/stores.ts), with the steps the app runs
 * after each commit. Every app function opens its stores here, so no write skips them.
 */
export function openStores(ctx: Context): Stores {
  return openStoreDoor(ctx).afterCommit(recallWriteThrough)
}

/**
 * The language cairn speaks to a person in this store (knowledge_language): the first of the stores given that has
 * one, else English. A config.yaml that cannot be read is reported where it is read; here it speaks English.
 */
export async function storeLanguage(
  stores: Stores,
  candidates: readonly (Store | null | undefined)[],
): Promise<StoreLanguage> {
  for (const store of candidates) {
    if (!store) continue
    try {
      return (await stores.config(store)).knowledge_language
    } catch {
      return 'en'
    }
  }
  return 'en'
}

/** The language of the store a command works in (the project's, else the personal one); English when there is none. */
export async function primaryLanguage(ctx: Context): Promise<StoreLanguage> {
  try {
    const stores = openStores(ctx)
    return await storeLanguage(stores, stores.existing())
  } catch {
    return 'en'
  }
}
