import type {Context} from '../context.js'
import {openStores} from './stores.js'

export interface InitInput {
  personal?: boolean
  noCommit?: boolean
}

export interface InitResult {
  store: 'project' | 'personal'
  root: string
  created: boolean
  files: string[]
  commit: string | null
}

/**
 * Creates a store: .cairn/ in this repo, or the personal store at $CAIRN_HOME (its own repo).
 * Run again, it adds only what an older store lacks (.gitattributes), in one commit.
 */
export async function init(ctx: Context, input: InitInput = {}): Promise<InitResult> {
  const stores = openStores(ctx)
  const store = input.personal ? await stores.personalRepo() : stores.projectCandidate()
  const r = await stores.initialise(store, input.noCommit)
  return {store: store.kind, root: store.root, ...r}
}
