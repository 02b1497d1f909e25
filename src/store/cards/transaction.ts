import {randomBytes} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {parseCard} from '../../domain/card/format.js'
import {CairnError, validationError} from '../../domain/errors.js'
import {decodeUtf8} from '../../domain/text.js'
import {assertTrailers, renderCommitMessage} from '../../domain/trailers.js'
import {type Context, isoSeconds} from '../../context.js'
import {assertCleanState, gitDir, gitFailure, runGit} from '../git.js'
import {
  type Intent,
  clearJournal,
  headOf,
  indexEntries,
  newIntent,
  recoverJournal,
  restore,
  undoCommit,
  writeJournal,
} from './journal.js'
import {abs, type Store, sameStore, storeDir, writable, type WritableStore} from '../layout.js'
import {acquireLock, type Lock} from '../locks/lock.js'
import {removeFiles, writeFileAtomic, writeFilesAtomic} from '../files/fsutil.js'
import {dirIn, readFileIn} from '../files/store-files.js'
import {secretIssues} from './secrets.js'
import {commitPaths} from './commit.js'

/**
 * The single owner of writes: every cairn mutation is one change set per store, validated,
 * journalled, written, then one commit per store; with several stores, all commit or none.
 */

export interface TxMeta {
  op: string
  /**
   * The commit subject's text; a function is called once the build has run, for each store's commit, with the ids of
   * the cards it touches (what its Cairn-Card trailers name), so the subject can name what the commit changed.
   */
  summary: string | ((cards: string[]) => string)
  /** The stores written, first one primary; the build's change set is the first one's. */
  store: Store | Store[]
  /** Card ids for Cairn-Card trailers; by default the ids of the card files each store's commit touches. */
  cards?: string[]
  batch?: string
  /** Card renames in this commit, as Cairn-Rename trailers, so `cairn log` can follow them. */
  renames?: [from: string, to: string][]
  /** Extra commit-message paragraph, e.g. a rejection reason. */
  body?: string
  /** Cairn-Source trailers: the source keys of the cards a reject removes. */
  sources?: string[]
  /** --no-commit: write the files, leave them unstaged. */
  noCommit?: boolean
  /** Overrides ctx.actor in the commit trailers (a board batch's own actor). */
  actor?: string
}

export interface TxOptions extends TxMeta {
  commitOptions: (store: Store) => Promise<{commit: boolean; verify: boolean}>
  /** Run once the change is in and the locks are released (Stores.afterCommit registers them). */
  afterCommit?: readonly AfterCommit[]
}

/** What a write changed: the repo-relative paths it touched in each store. */
export interface Committed {
  store: Store
  paths: string[]
}

/**
 * A step run after every transaction that changed files, outside the locks: derived data kept up
 * to date (the recall index's write-through). It cannot undo the commit, so a failure is its own:
 * the transaction ignores it. `crash` is the test-only kill point (CAIRN_TEST_CRASH).
 */
export type AfterCommit = (ctx: Context, committed: Committed[], crash: (point: string) => void) => Promise<void>

type Change =
  | {kind: 'write'; path: string; content: string}
  | {kind: 'delete'; path: string}
  | {kind: 'move'; from: string; to: string}

/** Records intended changes (repo-relative POSIX paths) in one store; nothing touches the disk until commit. */
export class ChangeSet {
  readonly changes: Change[] = []
  private readonly view = new Map<string, string | null>()
  /** Each file's bytes as first read inside the lock, and the directories checked on the way: each is read once. */
  private readonly disk = new Map<string, Buffer | null>()
  private readonly dirs = new Map<string, string | null>()

  constructor(
    readonly store: WritableStore,
    private readonly group: ChangeSet[] = [],
  ) {
    group.push(this)
  }

  /** The change set of another store in the same transaction (it must be one of meta.store). */
  in(store: Store): ChangeSet {
    const hit = this.group.find(c => sameStore(c.store, store))
    if (!hit) throw new Error(`the transaction was not opened on ${storeDir(store)}`)
    return hit
  }

  write(relPath: string, content: string): void {
    this.changes.push({kind: 'write', path: relPath, content})
    this.view.set(relPath, content)
  }

  remove(relPath: string): void {
    this.changes.push({kind: 'delete', path: relPath})
    this.view.set(relPath, null)
  }

  /** A move (git mv): content follows the file; a later write to `to` changes it. */
  move(from: string, to: string): void {
    if (this.exists(to))
      throw new CairnError(
        'conflict',
        `Cannot move ${from} to ${to}: ${to} already exists. Fix: rename one of the cards, then run the command again`,
      )
    const content = this.read(from)
    if (content === null)
      throw new CairnError(
        'not_found',
        `Cannot move ${from}: it does not exist; another cairn command may have moved it. Fix: "cairn list" shows where it is now`,
      )
    this.changes.push({kind: 'move', from, to})
    this.view.set(from, null)
    this.view.set(to, content)
  }

  /** Content as it will be after the changes so far; null when absent. Read inside the lock, never through a link. */
  read(relPath: string): string | null {
    if (this.view.has(relPath)) return this.view.get(relPath) ?? null
    const buf = this.onDisk(relPath)
    return buf === null ? null : decodeUtf8(buf, relPath)
  }

  /** The file's bytes on disk before this transaction (read once, inside the lock); null when absent. */
  onDisk(relPath: string): Buffer | null {
    let buf = this.disk.get(relPath)
    if (buf === undefined) {
      buf = readStoreFile(this.store, relPath, this.dirs)
      this.disk.set(relPath, buf)
    }
    return buf
  }

  /**
   * A file the command found before it took the lock, read again inside it. Another cairn
   * command may have moved it meanwhile: that is not_found (exit 4), and nothing is written.
   */
  readFound(relPath: string, what: string): string {
    const text = this.read(relPath)
    if (text === null) {
      throw new CairnError(
        'not_found',
        `${what} is no longer at ${relPath}: another cairn command moved or removed it meanwhile. ` +
          'Nothing was written. Fix: "cairn list" shows where it is now',
        {path: relPath},
      )
    }
    return text
  }

  exists(relPath: string): boolean {
    return this.read(relPath) !== null
  }

  /** Whether a directory has any file, on disk or after the changes so far. */
  hasDir(relDir: string): boolean {
    const prefix = `${relDir}/`
    for (const [p, content] of this.view) if (content !== null && p.startsWith(prefix)) return true
    return fs.existsSync(abs(this.store, relDir))
  }

  touched(): string[] {
    const set = new Set<string>()
    for (const c of this.changes) {
      if (c.kind === 'move') set.add(c.from).add(c.to)
      else set.add(c.path)
    }
    return [...set]
  }

  /** Final content of each touched path (null: absent after the transaction). */
  finalState(): Map<string, string | null> {
    return new Map(this.touched().map(p => [p, this.view.get(p) ?? null]))
  }
}

/** Any file a transaction rewrites (cards, board records and snapshots) stays under this size. */
const MAX_STORE_FILE_BYTES = 64 * 1024 * 1024

/** A store file's bytes, or null when it does not exist; a link or a device, at its name or on its way, is refused. */
const readStoreFile = (store: Store, relPath: string, checked?: Map<string, string | null>): Buffer | null =>
  readFileIn(store.root, relPath, MAX_STORE_FILE_BYTES, {noun: 'file', fix: 'shorten it'}, checked)

export interface TxResult<T> {
  result: T
  /** The primary store's commit. */
  commit: string | null
  commits: {project?: string | null; personal?: string | null}
  paths: string[]
}

const CARD_PATH = /(?:^|\/)(?:pending|cards|archive\/[^/]+\/(?:pending|cards))\/([a-z]+)\/([^/]+)\.md$/

/** Every card file the change set writes must parse, match its path, and hold no secret. */
async function validateChanges(tx: ChangeSet): Promise<void> {
  const problems = []
  // Content written (not merely moved, as archive does) is scanned for secrets.
  const written = new Set(tx.changes.flatMap(c => (c.kind === 'write' ? [c.path] : [])))
  const scanned = []
  for (const p of tx.touched()) {
    const content = tx.read(p)
    if (content === null) continue
    const m = CARD_PATH.exec(p.slice(tx.store.prefix.length))
    if (!m) continue
    const card = parseCard(content, p)
    if (written.has(p)) scanned.push({file: p, card})
    if (card.id !== m[2])
      problems.push({
        file: p,
        field: 'id',
        message: `id "${card.id}" does not match the file name`,
        fix: `rename the file to ${card.id}.md or set id: ${m[2]}`,
      })
    if (card.type !== m[1])
      problems.push({
        file: p,
        field: 'type',
        message: `type "${card.type}" does not match the directory "${m[1]}"`,
        fix: `move the file under ${card.type}/`,
      })
  }
  problems.push(...(await secretIssues(tx.store, scanned)))
  if (problems.length) throw validationError(problems, 'The change would leave invalid cards')
}

export async function transaction<T>(
  ctx: Context,
  meta: TxOptions,
  build: (tx: ChangeSet) => T | Promise<T>,
): Promise<TxResult<T>> {
  // A forged actor or id must not reach a commit message: refused before anything is taken.
  assertTrailers({...meta, actor: meta.actor ?? ctx.actor()})
  // An org layer is read-only: refused before anything is taken.
  const stores = (Array.isArray(meta.store) ? meta.store : [meta.store])
    .map(s => writable(s))
    .filter((s, i, all) => all.findIndex(o => sameStore(o, s)) === i)
  // Refuse a repo mid-merge before taking anything: neither store may be touched then.
  for (const s of stores) assertCleanState(s.root)
  const locks: Lock[] = []
  let out: TxResult<T>
  let committed: Committed[] = []
  try {
    // One order for every process, so two transactions over both stores cannot deadlock.
    for (const s of [...stores].sort((a, b) => gitDir(a.root).localeCompare(gitDir(b.root))))
      locks.push(await acquireLock(s.root))
    for (const s of stores) {
      assertCleanState(s.root)
      const done = await recoverJournal(ctx, s)
      if (done) ctx.warn(done)
    }
    const group: ChangeSet[] = []
    const sets = stores.map(s => new ChangeSet(s, group))
    const result = await build(sets[0])
    for (const cs of sets) await validateChanges(cs)
    const commits = await applyAll(ctx, meta, sets)
    out = {result, commit: commits[0], commits: {}, paths: sets.flatMap(cs => cs.touched())}
    sets.forEach((cs, i) => {
      if (cs.touched().length || i === 0) out.commits[writable(cs.store).kind] = commits[i]
    })
    committed = sets.map(cs => ({store: cs.store, paths: cs.touched()})).filter(c => c.paths.length > 0)
  } finally {
    for (const lock of locks.reverse()) lock.release()
  }
  if (committed.length > 0) {
    for (const step of meta.afterCommit ?? []) {
      try {
        await step(ctx, committed, point => crashPoint(ctx, point))
      } catch {
        // Derived data only: the next reader brings it up to date.
      }
    }
  }
  return out
}

interface Applied {
  store: Store
  intent: Intent
  commit: string | null
}

/**
 * What a change set writes, with the bytes before and after. A path rewritten with the same
 * bytes stays in: it may be uncommitted (a board record being recovered), and git decides.
 */
interface Plan {
  cs: ChangeSet
  paths: string[]
  before: Map<string, Buffer | null>
  after: Map<string, string | null>
}

function planOf(cs: ChangeSet): Plan {
  const before = new Map<string, Buffer | null>()
  const after = new Map<string, string | null>()
  for (const [p, content] of cs.finalState()) {
    const old = cs.onDisk(p)
    if (content === null && old === null) continue
    before.set(p, old)
    after.set(p, content)
  }
  return {cs, paths: [...after.keys()], before, after}
}

/** Applies each store's change set in turn; a failure takes back every store already applied. */
async function applyAll(ctx: Context, meta: TxOptions, sets: ChangeSet[]): Promise<(string | null)[]> {
  const plans = sets.map(planOf).filter(p => p.paths.length > 0)
  // Several stores are done together: one marker file, created once all have committed.
  const marker =
    plans.length > 1
      ? path.join(gitDir(plans[0].cs.store.root), `cairn-journal-${randomBytes(6).toString('hex')}.done`)
      : null
  const applied: Applied[] = []
  try {
    for (const plan of plans) applied.push(await applyOne(ctx, meta, plan, plans.length, marker))
  } catch (error) {
    const failure =
      error instanceof CairnError
        ? error
        : gitFailure(error, `committing "${typeof meta.summary === 'string' ? meta.summary : meta.op}"`)
    // Take back every store already applied; a store that cannot be taken back keeps its
    // journal (the next write or doctor --fix retries), and the first error is the one reported.
    for (const a of applied.reverse()) {
      try {
        if (a.commit) await undoCommit(ctx, a.store, a.commit, a.intent.head)
        await restore(ctx, a.store, a.intent)
        clearJournal(a.store)
      } catch (undo) {
        ctx.warn(`could not take back the ${a.store.kind} store's part: ${(undo as Error).message}`)
      }
    }
    throw failure
  }
  crashPoint(ctx, 'before-marker')
  if (marker) writeFileAtomic(marker, `${meta.op}\n`)
  crashPoint(ctx, 'after-marker')
  for (const a of applied) clearJournal(a.store)
  if (marker) fs.rmSync(marker, {force: true})
  return sets.map(cs => applied.find(a => a.store === cs.store)?.commit ?? null)
}

/** Journal, files, index, commit: each step a place a kill -9 may land, each undone by the journal. */
async function applyOne(
  ctx: Context,
  meta: TxOptions,
  plan: Plan,
  stores: number,
  marker: string | null,
): Promise<Applied> {
  const {cs, paths, before, after} = plan
  const store = cs.store
  // No write goes through a link: a directory on the way that is one is refused before anything is written.
  for (const dir of new Set(paths.map(p => path.posix.dirname(p)))) dirIn(store.root, dir)
  const {commit: commits, verify} = await meta.commitOptions(store)
  const intent = newIntent(meta.op, isoSeconds(new Date()), stores)
  intent.marker = marker
  intent.head = await headOf(ctx, store)
  intent.index = await indexEntries(ctx, store, paths)
  for (const p of paths) intent.originals[p] = before.get(p)?.toString('base64') ?? null
  const cards = cardsOf(meta, cs)
  const summary = typeof meta.summary === 'function' ? meta.summary(cards) : meta.summary
  const storeMeta = {...meta, summary, cards, renames: renamesOf(meta, cs)}
  intent.message = commits ? renderCommitMessage({...storeMeta, actor: meta.actor ?? ctx.actor()}) : null
  writeJournal(store, intent)
  try {
    crashPoint(ctx, 'after-journal')
    // New content lands before anything is removed, and a card reaches cards/ already active.
    const writes = paths.filter(p => after.get(p) !== null).map(p => ({file: abs(store, p), content: after.get(p)!}))
    await writeFilesAtomic(writes, n => crashPoint(ctx, `rename:${n}`))
    await removeFiles(
      paths.filter(p => after.get(p) === null).map(p => abs(store, p)),
      abs(store, store.prefix),
    )
    if (!commits) {
      ctx.warn(
        `${paths.length} file(s) in the ${store.kind} store were written but not committed (--no-commit or commit.enabled: false); they are left unstaged: review them with "git status", then commit them yourself`,
      )
      return {store, intent, commit: null}
    }
    crashPoint(ctx, 'before-add')
    // A path that is neither on disk nor in the index has nothing to stage (an uncommitted card moved on).
    const stageable = paths.filter(p => after.get(p) !== null || intent.index[p] !== null)
    if (stageable.length) await stage(ctx, store, stageable, intent.index)
    crashPoint(ctx, 'before-commit')
    const message = intent.message!
    const sha = await commitPaths(ctx, store, {message, paths, verify, head: intent.head}, () =>
      crashPoint(ctx, 'during-commit'),
    )
    return {store, intent, commit: sha}
  } catch (error) {
    // This store is not among the applied ones yet: put it back here; the caller takes back the others.
    await restore(ctx, store, intent)
    clearJournal(store)
    throw error
  }
}

/**
 * Stages exactly these paths, as `git add --all -- <paths>` does: a file on disk is added, one gone is removed.
 * `git update-index` takes them as literal paths, where `git add` matches every index entry against every pathspec
 * (10 s for the 20,000 paths of approving 10,000 cards). They differ on a new path that git ignores, which
 * `git add` refuses: when there is one, `git add` stages them, and refuses it as before. The ignored files are
 * listed from the directories of the new paths alone (`git check-ignore` reads the whole index once per path).
 */
async function stage(ctx: Context, store: Store, paths: string[], index: Intent['index']): Promise<void> {
  const untracked = new Set(paths.filter(p => index[p] === null))
  let ignored = false
  if (untracked.size > 0) {
    const dirs = [...new Set([...untracked].map(p => path.posix.dirname(p)))]
    const listed = await runGit(ctx, store.root, [
      'ls-files',
      '-z',
      '--others',
      '--ignored',
      '--exclude-standard',
      '--',
      ...dirs,
    ])
    ignored = listed.split('\0').some(p => untracked.has(p))
  }
  if (ignored)
    await runGit(ctx, store.root, ['add', '--all', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      input: paths.join('\0'),
    })
  else
    await runGit(ctx, store.root, ['update-index', '--add', '--remove', '-z', '--stdin'], {
      input: `${paths.join('\0')}\0`,
    })
}

/** Card ids whose files this store's commit touches, in the order they were touched. */
function touchedIds(cs: ChangeSet): string[] {
  const ids = new Set<string>()
  for (const p of cs.touched()) {
    const m = CARD_PATH.exec(p.slice(cs.store.prefix.length))
    if (m) ids.add(m[2])
  }
  return [...ids]
}

function cardsOf(meta: TxMeta, cs: ChangeSet): string[] {
  const touched = touchedIds(cs)
  const has = new Set(touched)
  return meta.cards ? meta.cards.filter(id => has.has(id)) : touched
}

function renamesOf(meta: TxMeta, cs: ChangeSet): [string, string][] {
  const touched = new Set(touchedIds(cs))
  return (meta.renames ?? []).filter(([from, to]) => touched.has(from) || touched.has(to))
}

/**
 * Test-only: CAIRN_TEST_CRASH names a step (after-journal, rename:N, before-add, before-commit,
 * during-commit; with several stores before-marker and after-marker; and those an after-commit
 * step names, such as the recall index's before-index, index-write and proof-write) at which the process
 * SIGKILLs itself, so the tests can prove recovery.
 */
function crashPoint(ctx: Context, point: string): void {
  if (ctx.env.CAIRN_TEST_CRASH === point) process.kill(process.pid, 'SIGKILL')
}

/** Finishes or rolls back an interrupted transaction now (doctor --fix), under the store's lock. */
export async function recoverStore(ctx: Context, store: Store): Promise<string | null> {
  const lock = await acquireLock(store.root)
  try {
    return await recoverJournal(ctx, store)
  } finally {
    lock.release()
  }
}
