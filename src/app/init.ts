import fs from 'node:fs'
import {DEFAULT_CONFIG_YAML, STORE_GITIGNORE} from '../domain/config.js'
import type {Context} from '../store/context.js'
import {gitClient, gitFailure} from '../store/git.js'
import {configRel, isInitialised, personalHome, personalStoreAt, projectStore, rel, type Store} from '../store/layout.js'
import {readConfig} from '../store/config.js'
import {transaction} from '../store/transaction.js'

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

/** Creates a store: .cairn/ in this repo, or the personal store at $CAIRN_HOME (its own repo). */
export async function init(ctx: Context, input: InitInput = {}): Promise<InitResult> {
  const store = input.personal ? await ensurePersonalRepo(ctx) : projectStore(ctx, {initialised: false})
  if (isInitialised(store)) {
    readConfig(store) // an invalid existing config is reported, never overwritten
    return {store: store.kind, root: store.root, created: false, files: [], commit: null}
  }
  const files = [configRel(store), rel(store, '.gitignore')]
  const {commit} = await transaction(ctx, store, {op: 'init', summary: `initialise the ${store.kind} store`, commit: !input.noCommit}, tx => {
    tx.write(files[0], DEFAULT_CONFIG_YAML)
    if (!tx.exists(files[1])) tx.write(files[1], STORE_GITIGNORE)
  })
  return {store: store.kind, root: store.root, created: true, files, commit}
}

async function ensurePersonalRepo(ctx: Context): Promise<Store> {
  const home = personalHome(ctx)
  fs.mkdirSync(home, {recursive: true})
  if (!fs.existsSync(`${home}/.git`)) {
    try {
      await gitClient(ctx, home).raw(['init', '--quiet'])
    } catch (error) {
      throw gitFailure(error, `creating the personal store at ${home}`)
    }
  }
  return personalStoreAt(home)
}

/** The personal store, created on first use. */
export async function personalStore(ctx: Context): Promise<Store> {
  const store = await ensurePersonalRepo(ctx)
  if (!isInitialised(store)) await init(ctx, {personal: true})
  return store
}
