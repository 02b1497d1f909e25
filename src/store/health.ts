import fs from 'node:fs'
import path from 'node:path'
import {readConfig} from './settings/config.js'
import type {Context} from '../context.js'
import {assertCleanState, gitDir} from './git.js'
import {journalPath, readJournal} from './cards/journal.js'
import {abs, rel, type Store, storeDir} from './layout.js'
import {acquireLock, LOCK_NAME, lockHolder} from './locks/lock.js'
import {TMP_MARK} from './files/fsutil.js'
import {statusOf} from './cards/queries.js'
import {readTextIn, SMALL_FILE} from './files/store-files.js'

/** What `cairn doctor` needs to know about one store, read in one place. */
export interface StoreFacts {
  configError: string | null
  /** Lines .gitignore should have but lacks. */
  ignoreMissing: string[]
  gitattributes: boolean
  repoStateError: string | null
  lock: {file: string; holder: {pid: number; host: string} | undefined} | null
  /** An unfinished journal: the operation and when it started; error when unreadable. */
  journal: {file: string; op: string; started: string} | {file: string; error: string} | null
  /** A git index.lock (a git process running, or one that was killed). */
  indexLock: string | null
  leftovers: string[]
  uncommitted: string[] | {error: string}
}

export async function inspectStore(ctx: Context, store: Store): Promise<StoreFacts> {
  let configError: string | null = null
  try {
    readConfig(store)
  } catch (error) {
    configError = (error as Error).message
  }
  let ignore: string[] = []
  try {
    ignore = (readTextIn(store.root, rel(store, '.gitignore'), SMALL_FILE) ?? '').split(/\r?\n/).map(l => l.trim())
  } catch {
    // A link or no regular file: doctor reports the entries as missing, and --fix writes the file.
  }
  let repoStateError: string | null = null
  try {
    assertCleanState(store.root)
  } catch (error) {
    repoStateError = (error as Error).message
  }
  const lockFile = path.join(gitDir(store.root), LOCK_NAME)
  let journal: StoreFacts['journal'] = null
  try {
    const intent = readJournal(store)
    if (intent) journal = {file: journalPath(store), op: intent.op, started: intent.started}
  } catch (error) {
    journal = {file: journalPath(store), error: (error as Error).message}
  }
  const indexLock = path.join(gitDir(store.root), 'index.lock')
  let uncommitted: StoreFacts['uncommitted']
  try {
    uncommitted = await statusOf(ctx, store)
  } catch (error) {
    uncommitted = {error: (error as Error).message}
  }
  return {
    configError,
    // Any of the usual spellings counts (".local", ".local/", "/.local"); only the bare name also covers a link.
    ignoreMissing: ['.cache', '.local'].filter(
      n => ![n, `${n}/`, `/${n}`, `/${n}/`].some(form => ignore.includes(form)),
    ),
    gitattributes: fs.existsSync(abs(store, rel(store, '.gitattributes'))),
    repoStateError,
    lock: fs.existsSync(lockFile) ? {file: lockFile, holder: lockHolder(lockFile)} : null,
    journal,
    indexLock: fs.existsSync(indexLock) ? indexLock : null,
    leftovers: findLeftovers(storeDir(store)),
    uncommitted,
  }
}

function findLeftovers(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      if (e.isDirectory()) {
        if (e.name !== '.git') walk(path.join(d, e.name))
      } else if (e.name.includes(TMP_MARK)) out.push(path.relative(dir, path.join(d, e.name)))
    }
  }
  if (fs.existsSync(dir)) walk(dir)
  return out
}

/**
 * Removes temp files an interrupted write left (they were never part of a commit), under the
 * store's lock: a write in progress holds it, so its own temp files are never taken from it.
 */
export async function removeLeftovers(store: Store): Promise<number> {
  const lock = await acquireLock(store.root)
  try {
    const files = findLeftovers(storeDir(store))
    for (const f of files) fs.rmSync(path.join(storeDir(store), f), {force: true})
    return files.length
  } finally {
    lock.release()
  }
}
