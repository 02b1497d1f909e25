import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {CairnError} from '../domain/errors.js'
import type {CardType} from '../domain/card/types.js'
import type {Context} from './context.js'
import {findRepoRoot} from './repo.js'

export type StoreKind = 'project' | 'personal'

/** A store: its git work tree, and where inside it the store's files live. */
export interface Store {
  kind: StoreKind
  /** Git work-tree root. */
  root: string
  /** Store directory, relative to root, POSIX ('.cairn' for a project, '' for personal). */
  prefix: string
}

export const CARD_LOCATIONS = ['pending', 'cards'] as const
export type Location = (typeof CARD_LOCATIONS)[number] | 'archive'

export const storeDir = (s: Store): string => path.join(s.root, s.prefix)
/** Repo-relative POSIX path of a file inside the store. */
export const rel = (s: Store, ...parts: string[]): string => path.posix.join(s.prefix, ...parts)
export const abs = (s: Store, relPath: string): string => path.join(s.root, ...relPath.split('/'))
export const cardRel = (s: Store, location: 'pending' | 'cards', type: CardType, id: string): string => rel(s, location, type, `${id}.md`)
export const configRel = (s: Store): string => rel(s, 'config.yaml')
export const isInitialised = (s: Store): boolean => fs.existsSync(abs(s, configRel(s)))

export function projectStoreAt(root: string): Store {
  return {kind: 'project', root, prefix: '.cairn'}
}

/** The project store of the repo around ctx.cwd; exit 3 outside a repo or before init. */
export function projectStore(ctx: Context, options: {initialised?: boolean} = {initialised: true}): Store {
  const root = findRepoRoot(ctx.cwd)
  if (!root) {
    throw new CairnError('not_git_repo', `${ctx.cwd} is not inside a git repository. Run "git init" first, then "cairn init"`)
  }
  const store = projectStoreAt(root)
  if (options.initialised && !isInitialised(store)) {
    throw new CairnError('not_initialised', `${root} has no cairn store (.cairn/config.yaml is missing). Run "cairn init" first`)
  }
  return store
}

export function personalHome(ctx: Context): string {
  const explicit = ctx.env.CAIRN_HOME
  if (explicit) return path.resolve(ctx.cwd, explicit)
  return path.join(ctx.env.HOME || os.homedir(), '.cairn')
}

export function personalStoreAt(home: string): Store {
  return {kind: 'personal', root: home, prefix: ''}
}

/** The personal store if it exists as an initialised git repo, else undefined. */
export function existingPersonalStore(ctx: Context): Store | undefined {
  const store = personalStoreAt(personalHome(ctx))
  return fs.existsSync(path.join(store.root, '.git')) && isInitialised(store) ? store : undefined
}

/** Project store when the cwd has one, for commands that may also run in the personal store only. */
export function optionalProjectStore(ctx: Context): Store | undefined {
  const root = findRepoRoot(ctx.cwd)
  if (!root) return undefined
  const store = projectStoreAt(root)
  return isInitialised(store) ? store : undefined
}
