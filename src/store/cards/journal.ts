import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {CairnError} from '../../domain/errors.js'
import type {Context} from '../../context.js'
import {gitDir, runGit} from '../git.js'
import {JOURNAL_NAME} from '../repo.js'

export {JOURNAL_NAME} from '../repo.js'
import {TMP_MARK, pruneEmptyDirs, writeFileAtomic, writeFilesAtomic} from '../files/fsutil.js'
import {abs, type Store, storeDir} from '../layout.js'

/**
 * The write-ahead journal of a transaction, in the store's git directory. It is written before
 * the first file changes and removed after the commit, so a kill -9 at any step in between
 * leaves enough to put the store back: each touched path's previous bytes and index entry,
 * HEAD before, and the commit message (to recognise a commit that landed after all).
 */

export interface Intent {
  version: 1
  op: string
  pid: number
  host: string
  started: string
  /** HEAD before the transaction; null on an unborn branch. */
  head: string | null
  /** The commit message, or null when the transaction does not commit (--no-commit). */
  message: string | null
  /** Previous content of each touched path (base64), null when the file did not exist. */
  originals: Record<string, string | null>
  /** Previous index entry ("mode sha") of each touched path, null when it was not in the index. */
  index: Record<string, string | null>
  /** Stores in the transaction: with more than one, a landed commit counts only once all landed. */
  stores: number
  /**
   * With several stores: a file that exists once every store has committed. One atomic create,
   * so no kill can leave one store judged done and another not.
   */
  marker: string | null
}

/** Files the transaction's commit writes in the git directory (store/cards/commit.ts); a kill may leave them. */
export const COMMIT_FILES = {msg: 'CAIRN_COMMIT_MSG', paths: 'CAIRN_COMMIT_PATHS', index: 'CAIRN_COMMIT_INDEX'}

export const journalPath = (store: Store): string => path.join(gitDir(store.root), JOURNAL_NAME)

export function readJournal(store: Store): Intent | null {
  let text: string
  try {
    text = fs.readFileSync(journalPath(store), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  try {
    const intent = JSON.parse(text) as Intent
    if (intent.version === 1 && intent.originals && intent.index) return intent
  } catch {}
  throw new CairnError(
    'conflict',
    `${journalPath(store)} is not a cairn journal cairn can read. Fix: move it away, then check "git status"`,
  )
}

export function writeJournal(store: Store, intent: Intent): void {
  writeFileAtomic(journalPath(store), JSON.stringify(intent))
}

export function clearJournal(store: Store): void {
  fs.rmSync(journalPath(store), {force: true})
}

export function newIntent(op: string, started: string, stores: number): Intent {
  return {
    version: 1,
    op,
    pid: process.pid,
    host: os.hostname(),
    started,
    head: null,
    message: null,
    originals: {},
    index: {},
    stores,
    marker: null,
  }
}

/** HEAD's sha, or null on an unborn branch. */
export async function headOf(ctx: Context, store: Store): Promise<string | null> {
  try {
    return (await runGit(ctx, store.root, ['rev-parse', '--verify', '--quiet', 'HEAD'])).trim() || null
  } catch {
    return null
  }
}

/**
 * Up to this many paths are listed by name (literal pathspecs); more, and the store's directory is listed once, since
 * git matches every index entry against every pathspec.
 */
const NAMED_PATHS = 64

/** Index entries ("mode sha") of these paths: by name for a few, else from one listing of the store's directory. */
export async function indexEntries(
  ctx: Context,
  store: Store,
  paths: string[],
): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = Object.fromEntries(paths.map(p => [p, null]))
  const named = paths.length <= NAMED_PATHS
  const list = await runGit(ctx, store.root, [
    'ls-files',
    '--stage',
    '-z',
    '--',
    // Literal per path, not git's global --literal-pathspecs, which git refuses beside a user's GIT_*_PATHSPECS.
    ...(named ? paths.map(p => `:(literal)${p}`) : [store.prefix || '.']),
  ])
  // Each entry is "<mode> <sha> <stage>\t<path>": a whole store's listing (10,000 entries) may be read, so an entry is
  // parsed only once its path is one of ours.
  for (const entry of list.split('\0')) {
    const tab = entry.indexOf('\t')
    if (tab < 0 || !Object.hasOwn(out, entry.slice(tab + 1))) continue
    const m = /^(\d+) ([0-9a-f]+) \d+$/.exec(entry.slice(0, tab))
    if (m) out[entry.slice(tab + 1)] = `${m[1]} ${m[2]}`
  }
  return out
}

/** Puts the touched files and their index entries back as the journal recorded them. */
export async function restore(ctx: Context, store: Store, intent: Intent): Promise<void> {
  const writes: {file: string; content: Buffer}[] = []
  for (const [p, content] of Object.entries(intent.originals)) {
    const file = abs(store, p)
    removeTemps(file)
    if (content === null) {
      fs.rmSync(file, {force: true})
      pruneEmptyDirs(path.dirname(file), storeDir(store))
    } else writes.push({file, content: Buffer.from(content, 'base64')})
  }
  await writeFilesAtomic(writes)
  const zero = '0'.repeat(40)
  const info = Object.entries(intent.index).map(([p, entry]) => `${entry ?? `0 ${zero}`}\t${p}`)
  if (info.length)
    await runGit(ctx, store.root, ['update-index', '-z', '--index-info'], {input: `${info.join('\0')}\0`})
}

/** Temp files an interrupted atomic write of this file left behind. */
function removeTemps(file: string): void {
  let names: string[]
  try {
    names = fs.readdirSync(path.dirname(file))
  } catch {
    return
  }
  const prefix = `.${path.basename(file)}${TMP_MARK}`
  for (const n of names) if (n.startsWith(prefix)) fs.rmSync(path.join(path.dirname(file), n), {force: true})
}

/** The commit this transaction made, if it landed: a child of the old HEAD with the same message. */
export async function landedCommit(ctx: Context, store: Store, intent: Intent): Promise<string | null> {
  if (intent.message === null) return null
  let log: string
  try {
    log = await runGit(ctx, store.root, ['log', '-n', '50', '--format=%H %P%x00%B%x00'])
  } catch {
    return null
  }
  const parts = log.split('\0')
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [sha, ...parents] = parts[i].trim().split(' ')
    const parentOk = intent.head === null ? parents.filter(Boolean).length === 0 : parents[0] === intent.head
    // The subject, not the whole message: git trims trailing spaces, and a prepare-commit-msg or
    // commit-msg hook may add lines. A child of the old HEAD with our subject is ours: we held the lock.
    if (parentOk && subjectOf(parts[i + 1]) === subjectOf(intent.message)) return sha
  }
  return null
}

const subjectOf = (message: string): string => message.trim().split('\n')[0].replace(/\s+/g, ' ').trim()

/**
 * Takes back a commit of ours: reset while it is still HEAD, otherwise revert it (the commits
 * after it stay). A revert git refuses (the user's staged changes in the way) is a conflict
 * that names the commit, so the user can revert it by hand.
 */
export async function undoCommit(ctx: Context, store: Store, sha: string, head: string | null): Promise<void> {
  const now = (await headOf(ctx, store)) ?? ''
  if (now === sha) {
    if (head) await runGit(ctx, store.root, ['reset', '--quiet', '--soft', head])
    else await runGit(ctx, store.root, ['update-ref', '-d', 'HEAD'])
    return
  }
  try {
    await runGit(ctx, store.root, ['revert', '--no-edit', sha])
  } catch (error) {
    throw new CairnError(
      'conflict',
      `cannot take back cairn's commit ${sha.slice(0, 12)} in ${storeDir(store)}: git revert failed ` +
        `(${String((error as Error).message).split('\n')[0]}). Fix: commit or stash your changes, then run "cairn doctor --fix"`,
      {commit: sha},
    )
  }
}

/** How long an index.lock of a git child (a killed cairn's commit may still run) is waited for. */
const INDEX_LOCK_WAIT_MS = 5000

/**
 * Waits while a git child of a killed cairn may still be committing: `git commit` holds index.lock until HEAD has
 * moved, and the bulk commit's `git update-ref` holds HEAD.lock (recovery must not roll back a commit that then lands).
 */
async function waitForIndexLock(store: Store): Promise<void> {
  for (const name of ['index.lock', 'HEAD.lock']) await waitWhileLocked(path.join(gitDir(store.root), name))
}

async function waitWhileLocked(lock: string): Promise<void> {
  const deadline = Date.now() + INDEX_LOCK_WAIT_MS
  while (fs.existsSync(lock)) {
    if (Date.now() > deadline) {
      throw new CairnError(
        'conflict',
        `${lock} exists: a git process may still be writing the index or moving HEAD, so cairn cannot finish an interrupted write. ` +
          `Fix: if no git process is running, as "ps aux | grep git" shows, remove it with: rm ${JSON.stringify(lock)}; then run cairn again`,
        {lock},
      )
    }
    await new Promise(r => setTimeout(r, 50))
  }
}

/**
 * Finishes or rolls back the journal a killed transaction left (the caller holds the lock).
 * Returns what was done, as a warning for the user, or null when there was nothing to do.
 */
export async function recoverJournal(ctx: Context, store: Store): Promise<string | null> {
  const intent = readJournal(store)
  if (!intent) return null
  await waitForIndexLock(store)
  for (const f of Object.values(COMMIT_FILES))
    for (const name of [f, `${f}.lock`]) fs.rmSync(path.join(gitDir(store.root), name), {force: true})
  const landed = await landedCommit(ctx, store, intent)
  const where = `the ${store.kind} store (${storeDir(store)})`
  // Several stores: done only if every store committed (the marker); one store: done if its commit landed.
  const done = intent.stores > 1 ? intent.marker !== null && fs.existsSync(intent.marker) : landed !== null
  if (done) {
    clearJournal(store)
    return `finished an interrupted cairn ${intent.op} in ${where}${landed ? `: its commit ${landed.slice(0, 12)} had landed` : ''}`
  }
  if (landed) await undoCommit(ctx, store, landed, intent.head)
  await restore(ctx, store, intent)
  clearJournal(store)
  const n = Object.keys(intent.originals).length
  return `rolled back an interrupted cairn ${intent.op} in ${where}: ${n} file(s) restored as they were before it; run the command again`
}
