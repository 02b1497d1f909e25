import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {CairnError} from '../domain/errors.js'
import type {CardType} from '../domain/card/types.js'
import type {Context} from '../context.js'
import {findRepoRoot, interruptedWrite} from './repo.js'

import type {StoreKind} from '../domain/org.js'

export type {StoreKind}

/** A store: its git work tree, and where inside it the store's files live. */
export interface Store {
  kind: StoreKind
  /**
   * Git work-tree root. An org layer's is its cache's copy of the org store at the pinned commit: plain files, no
   * git repository, never written but for derived caches (store/org/).
   */
  root: string
  /** Store directory, relative to root, POSIX ('.cairn' for a project or an org layer, '' for personal). */
  prefix: string
  /** An org layer's name and pinned commit. */
  org?: {name: string; commit: string}
}

/** A store cairn writes to: the project's or the personal one, never an org layer. */
export type WritableStore = Store & {kind: 'project' | 'personal'}

/**
 * The store as one cairn may write to; an org layer is refused with the fix. Its cards change only in the org's own
 * repository, by its own review, and reach the project when `cairn org update` moves the pin.
 */
export function writable(s: Store): WritableStore {
  if (s.kind !== 'org') return s as WritableStore
  const name = s.org?.name ?? 'org'
  throw new CairnError(
    'conflict',
    `The org layer "${name}" is read-only: its cards change in the org's own repository. Nothing was written. ` +
      `Fix: change the card there (or run "cairn org promote" for a project card), then "cairn org update ${name}"; ` +
      'a project card with the same id overrides it here',
    {layer: `org:${name}`},
  )
}

/** Which layer a store is, as cards and listings name it: "project", "personal", or "org:<name>". */
export const layerOf = (s: Store): string => (s.org ? `org:${s.org.name}` : s.kind)

export const CARD_LOCATIONS = ['pending', 'cards'] as const
export type Location = (typeof CARD_LOCATIONS)[number] | 'archive'

export const storeDir = (s: Store): string => path.join(s.root, s.prefix)
/** Repo-relative POSIX path of a file inside the store. */
export const rel = (s: Store, ...parts: string[]): string => path.posix.join(s.prefix, ...parts)
export const abs = (s: Store, relPath: string): string => path.join(s.root, ...relPath.split('/'))
/** The one place the card layout is spelled: <store>/<pending|cards>/<type>/<id>.md. */
export const cardRel = (s: Store, location: 'pending' | 'cards', type: CardType, id: string): string =>
  rel(s, location, type, `${id}.md`)
export const configRel = (s: Store): string => rel(s, 'config.yaml')
/** The project's own signals (settings/signals.ts reads them). */
export const signalsRel = (s: Store): string => rel(s, 'signals.yaml')
/** The team's lexicon (recall's team-lexicon.ts reads it). */
export const lexiconRel = (s: Store): string => rel(s, 'lexicon.yaml')
/**
 * Whether the recall index is built from this store file: an active card, or a settings file it caches. A write that
 * touches none (a proposal, a rejection) leaves the index as it was, so its write-through does not even load recall.
 */
export const feedsRecall = (s: Store, relPath: string): boolean =>
  relPath.startsWith(`${rel(s, 'cards')}/`) || [configRel(s), signalsRel(s), lexiconRel(s)].includes(relPath)
export const isInitialised = (s: Store): boolean => fs.existsSync(abs(s, configRel(s)))
/** Two stores are the same when they live in the same directory (objects may be rebuilt). */
export const sameStore = (a: Store, b: Store): boolean => storeDir(a) === storeDir(b)

export const isRepoRoot = (dir: string): boolean => fs.existsSync(path.join(dir, '.git'))

export function projectStoreAt(root: string): WritableStore {
  return {kind: 'project', root, prefix: '.cairn'}
}

export function personalHome(ctx: Context): string {
  const explicit = ctx.env.CAIRN_HOME
  if (explicit) return path.resolve(ctx.cwd, explicit)
  return path.join(ctx.env.HOME || os.homedir(), '.cairn')
}

export function personalStoreAt(home: string): WritableStore {
  return {kind: 'personal', root: home, prefix: ''}
}

const isLink = (p: string): boolean => {
  try {
    return fs.lstatSync(p).isSymbolicLink()
  } catch {
    return false
  }
}

const real = (p: string): string => {
  try {
    return fs.realpathSync(p)
  } catch {
    return path.resolve(p)
  }
}

/**
 * Where the project store of ctx.cwd is, and whether it can be one. A dotfiles $HOME that is
 * itself a git repo holds ~/.cairn, the personal store: that directory is never a project store.
 */
export interface ProjectLookup {
  root: string | undefined
  store: WritableStore | undefined
  /** Set when the repo's .cairn/ is the personal store (or another git repo), or the repo is the personal store. */
  personalHere: boolean
  /** Set when the repo around cwd is the personal store's own repo. */
  personalRoot?: boolean
  /** Set when the repo's .cairn is a symbolic link: never followed, so no store. */
  linked?: boolean
}

export function lookupProject(ctx: Context): ProjectLookup {
  const root = findRepoRoot(ctx.cwd)
  if (!root) return {root, store: undefined, personalHere: false}
  const store = projectStoreAt(root)
  const dir = storeDir(store)
  const home = real(personalHome(ctx))
  // The personal store's own repo, or a .cairn/ that is the personal store (or any other repo).
  const personalRoot = real(root) === home
  const personalHere = personalRoot || real(dir) === home || fs.existsSync(path.join(dir, '.git'))
  // A clone can carry .cairn as a link to anywhere: reading cards there, and writing, would leave the repo.
  const linked = !personalHere && isLink(dir)
  return {
    root,
    store: personalHere || linked ? undefined : store,
    personalHere,
    personalRoot,
    ...(linked ? {linked} : {}),
  }
}

/** Exit 3 with the fix: outside a repo, before init, or where .cairn/ is the personal store. */
export function projectStoreError(ctx: Context, found: ProjectLookup): CairnError {
  if (!found.root) {
    return new CairnError(
      'not_git_repo',
      `${ctx.cwd} is not inside a git repository. Fix: run "git init" first, then "cairn init"`,
    )
  }
  if (found.personalRoot) {
    return new CairnError(
      'not_initialised',
      `${ctx.cwd} is inside your personal store ${found.root}, which is not a project. ` +
        'Fix: run cairn from a project directory, after "git init" and "cairn init" there; personal cards need no project',
    )
  }
  if (found.personalHere) {
    return new CairnError(
      'not_initialised',
      `${ctx.cwd} is inside the git repository ${found.root}, whose .cairn/ is your personal store, not a project store. ` +
        'Fix: run "git init" in the project directory, then "cairn init" there',
    )
  }
  if (found.linked) {
    return new CairnError(
      'not_initialised',
      `${path.join(found.root, '.cairn')} is a symbolic link; cairn never follows links to its store. ` +
        'Fix: replace the link with the .cairn directory itself: "git rm" the link, then "cairn init"',
    )
  }
  return new CairnError(
    'not_initialised',
    `${found.root} has no cairn store: .cairn/config.yaml is missing. Fix: run "cairn init" first`,
  )
}

/** The initialised project store around ctx.cwd, if any (never the personal store). */
export function initialisedProject(ctx: Context, found: ProjectLookup = lookupProject(ctx)): WritableStore | undefined {
  return found.store && isInitialised(found.store) ? found.store : undefined
}

/** The personal store when it exists as an initialised git repo. */
export function existingPersonal(ctx: Context): WritableStore | undefined {
  const s = personalStoreAt(personalHome(ctx))
  return isInitialised(s) && isRepoRoot(s.root) ? s : undefined
}

/**
 * What a read says when a cairn write in this store was interrupted (a journal is left): reads
 * never repair, they name the fix. One stat, so the prompt hook can afford it.
 */
export function interruptedNotice(s: Store): string | null {
  if (!interruptedWrite(s.root)) return null
  return (
    `a cairn write in the ${s.kind} store (${storeDir(s)}) was interrupted; ` +
    'the next cairn write finishes or rolls it back, or run "cairn doctor --fix" now'
  )
}

/** A board record's file name under board/batches/ (a dot file there is none, whatever its extension). */
export const isRecordName = (name: string): boolean => name.endsWith('.json') && !name.startsWith('.')
