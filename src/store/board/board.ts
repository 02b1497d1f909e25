import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {type ReplayEvent, replay} from '../../domain/board/replay.js'
import type {BoardSettings} from '../../domain/board/scale.js'
import {type LegacyRecord, parseRecordFile, stateOf, upgradeLegacy} from '../../domain/board/state.js'
import type {Annotation, BatchRecord, BoardState, Conflict, Item, ReplayProblem} from '../../domain/board/types.js'
import {decodeUtf8} from '../../domain/text.js'
import type {Context} from '../../context.js'
import {CairnError} from '../../domain/errors.js'
import {assertCleanState, gitClient} from '../git.js'
import {gitDir} from '../repo.js'
import {cairnCommits} from '../cards/history.js'
import {abs, isRecordName, rel, type Store} from '../layout.js'
import {readSmallRegularFile} from '../files/safe-read.js'
import {dirIn, listIn, readJsonIn, readTextIn, statIn, writeFileIn} from '../files/store-files.js'

/**
 * The board on disk: board/batches/<batch_id>-<suffix>.json, one committed record per batch,
 * each holding its request. Nothing else is committed: the state is replayed from the records
 * and kept in .cache/board.json, valid while the set of record files is the same.
 */
export const batchesRel = (s: Store): string => rel(s, 'board', 'batches')
export const recordRel = (s: Store, key: string): string => rel(s, 'board', 'batches', `${key}.json`)
/** The snapshot the previous format committed; the migration removes it. */
export const legacyStateRel = (s: Store): string => rel(s, 'board', 'state.json')
const cacheRel = (s: Store): string => rel(s, '.cache', 'board.json')
/** Holds the fingerprint of a record set known to be all committed, so most reads need no git status. */
const committedRel = (s: Store): string => rel(s, '.cache', 'board-committed')
/** The events (receipts) live apart: `board state` never reads them. */
const eventsRel = (s: Store): string => rel(s, '.cache', 'board-events.json')
/** The derived files are far smaller than their records; a file over this is no cache of cairn's. */
const MAX_CACHE_BYTES = 256 * 1024 * 1024

/** Bumped when replay changes what it derives, so an older cache is never read. */
const CACHE_SCHEMA = 'cairn/board-cache@1'
export const MAX_RECORD_BYTES = 8 * 1024 * 1024
const RECORD = {
  noun: 'batch record',
  fix: 'a record holds one batch: split it, or remove it (git rm) and commit its batch again',
}

export type Reader = (relPath: string) => string | null

export const diskReader = (store: Store): Reader => {
  // Every directory on the way checked once per reader (never a link), then each record opened without following one.
  const dirs = new Map<string, string | null>()
  return p => {
    const dir = path.posix.dirname(p)
    if (!dirs.has(dir)) dirs.set(dir, dirIn(store.root, dir))
    if (dirs.get(dir) === null) return null
    return readRecordText(store, p)
  }
}

function readRecordText(store: Store, p: string): string | null {
  try {
    return decodeUtf8(readSmallRegularFile(abs(store, p), p, MAX_RECORD_BYTES, RECORD), p)
  } catch (error) {
    if ((error as {code?: string}).code === 'not_found' || (error as NodeJS.ErrnoException).code === 'ENOENT')
      return null
    throw error
  }
}

/** Record file names (with .json), sorted. A link on the way to board/batches/ is refused, never listed. */
export function recordNames(store: Store): string[] {
  return listIn(store.root, batchesRel(store)).filter(isRecordName)
}

/** The batch id a record's name carries: everything before the last "-" (the suffix). */
export const batchIdOf = (key: string): string => key.slice(0, key.lastIndexOf('-'))

export interface BoardData {
  state: BoardState
  /** Every record in replay order (read on demand); a repeat of an earlier batch id and request has no event_seq. */
  events: () => ReplayEvent[]
  /** Records nothing else builds on: the parents of the next write. */
  heads: string[]
  /** The highest clock: the next write's clock is one more. */
  clock: number
  /** Records still in the format before this one (migrated on the next write). */
  legacy: boolean
  /** What the cache knows these record files by. */
  fingerprint?: string
}

/**
 * HEAD's commit, read from the files git keeps (no process); null when it cannot be told that
 * way (packed or unusual refs), which only means the next read asks git.
 */
function headSha(store: Store): string | null {
  try {
    const dir = gitDir(store.root)
    const head = fs.readFileSync(path.join(dir, 'HEAD'), 'utf8').trim()
    if (/^[0-9a-f]{40,64}$/.test(head)) return head
    const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1]
    if (!ref || ref.includes('..')) return null
    const sha = fs.readFileSync(path.join(dir, ref), 'utf8').trim()
    return /^[0-9a-f]{40,64}$/.test(sha) ? sha : null
  } catch {
    return null
  }
}

/**
 * Whether this record set was seen all committed, at this HEAD (by a write's commit, or a status
 * that found nothing loose): then a read needs no git status. Moving HEAD (a reset, a checkout)
 * asks again.
 */
export function knownCommitted(store: Store, fingerprint: string | undefined): boolean {
  const head = headSha(store)
  try {
    return (
      fingerprint !== undefined &&
      head !== null &&
      readTextIn(store.root, committedRel(store), 1024) === `${fingerprint} ${head}`
    )
  } catch {
    return false
  }
}

export function markCommitted(store: Store, fingerprint: string | undefined): void {
  const head = headSha(store)
  if (fingerprint === undefined || head === null) return
  try {
    writeFileIn(store.root, committedRel(store), `${fingerprint} ${head}`, {durable: false})
  } catch {
    // only saves the next command a git status
  }
}

/** The records themselves, both formats, legacy ones upgraded in memory. */
export function readRecords(store: Store, read: Reader = diskReader(store)): {records: BatchRecord[]; legacy: boolean} {
  const records: BatchRecord[] = []
  const legacy: LegacyRecord[] = []
  for (const name of recordNames(store)) {
    const relPath = `${batchesRel(store)}/${name}`
    const text = read(relPath)
    if (text === null) continue
    const parsed = parseRecordFile(text, name.slice(0, -'.json'.length), relPath)
    if (parsed.legacy) legacy.push(parsed.record)
    else records.push(parsed.record)
  }
  const hasLegacyState = read(legacyStateRel(store)) !== null
  return {records: [...upgradeLegacy(legacy), ...records], legacy: legacy.length > 0 || hasLegacyState}
}

/** The board as its records say: from the cache when the record files are the ones it was built from, else replayed. */
export function loadBoard(store: Store, settings: BoardSettings): BoardData {
  const fingerprint = recordsFingerprint(store)
  const cached = readCache(store, fingerprint, settings)
  if (cached) return cached
  const {records, legacy} = readRecords(store)
  const data = replayed(records, settings, legacy)
  if (!legacy) writeCache(store, fingerprint, data)
  return {...data, fingerprint}
}

/** The events of a board loaded from the cache: from their own file, or replayed again when it is gone or stale. */
function cachedEvents(store: Store, fingerprint: string, settings: BoardSettings): () => ReplayEvent[] {
  let events: ReplayEvent[] | undefined
  return () => {
    if (events) return events
    // Gone, unreadable or stale: replayed.
    const data = readJsonIn(store.root, eventsRel(store), MAX_CACHE_BYTES) as
      {schema?: string; fingerprint?: string; events?: unknown} | undefined
    if (data?.schema === CACHE_SCHEMA && data.fingerprint === fingerprint && Array.isArray(data.events))
      return (events = data.events as ReplayEvent[])
    return (events = replayed(readRecords(store).records, settings).events())
  }
}

export function replayed(records: BatchRecord[], settings: BoardSettings, legacy = false): BoardData {
  const {state, events} = replay(records, settings)
  const children = new Set(records.flatMap(r => r.parents))
  return {
    state,
    events: () => events,
    heads: records
      .map(r => r.key)
      .filter(k => !children.has(k))
      .sort(),
    clock: Math.max(0, ...records.map(r => r.clock)),
    legacy,
  }
}

/**
 * Names, sizes and modification times of the record files: a new, removed or rewritten record
 * (a pull that brings an edit of the same size included) changes it.
 */
export function recordsFingerprint(store: Store): string {
  const dir = abs(store, batchesRel(store))
  const hash = createHash('sha256')
  for (const name of recordNames(store)) {
    try {
      const stat = fs.lstatSync(path.join(dir, name))
      hash.update(`${name}\0${stat.size}\0${stat.mtimeMs}\0${stat.ino}\n`)
    } catch {
      // removed while listing
    }
  }
  hash.update(`legacy-state:${legacyStatePresent(store)}`)
  return hash.digest('hex')
}

interface CacheFile {
  schema: string
  fingerprint: string
  event_seq: number
  revision: number
  last_checked_at: string | null
  items: Item[]
  annotations: Annotation[]
  conflicts: Conflict[]
  problems: ReplayProblem[]
  heads: string[]
  clock: number
}

const legacyStatePresent = (store: Store): boolean => {
  try {
    return statIn(store.root, legacyStateRel(store)) !== null
  } catch {
    return true // a link there: reading it refuses it by name
  }
}

/**
 * The cached replay, when it was made from these very record files. Without records the fingerprint is one a
 * clone can forge beside a committed cache (`git add -f`), and replaying nothing costs nothing, so no cache is
 * read then; a cache that does not hold together is a miss, never an error.
 */
function readCache(store: Store, fingerprint: string, settings: BoardSettings): BoardData | null {
  if (recordNames(store).length === 0) return null
  const data = readJsonIn(store.root, cacheRel(store), MAX_CACHE_BYTES) as CacheFile | undefined
  if (data?.schema !== CACHE_SCHEMA || data.fingerprint !== fingerprint || !Array.isArray(data.items)) return null
  let state: BoardState
  try {
    state = stateOf({
      event_seq: data.event_seq,
      revision: data.revision,
      last_checked_at: data.last_checked_at,
      items: data.items,
      annotations: new Map(data.annotations.map(a => [a.id, a])),
      conflicts: new Map(data.conflicts.map(c => [c.item, c])),
      problems: data.problems,
    })
  } catch {
    return null
  }
  return {
    state,
    events: cachedEvents(store, fingerprint, settings),
    heads: data.heads,
    clock: data.clock,
    legacy: false,
    fingerprint,
  }
}

/** Derived, so a failure to write it (a read-only checkout, a linked .cache/) costs only the next replay. */
export function writeCache(store: Store, fingerprint: string, data: BoardData): void {
  const s = data.state
  const file: CacheFile = {
    schema: CACHE_SCHEMA,
    fingerprint,
    event_seq: s.event_seq,
    revision: s.revision,
    last_checked_at: s.last_checked_at,
    items: [...s.items.values()],
    annotations: [...s.annotations.values()],
    conflicts: [...s.conflicts.values()],
    problems: s.problems,
    heads: data.heads,
    clock: data.clock,
  }
  try {
    // Events first: a state file is only trusted with its events beside it, or they are replayed.
    writeFileIn(
      store.root,
      eventsRel(store),
      JSON.stringify({schema: CACHE_SCHEMA, fingerprint, events: data.events()}),
      {durable: false},
    )
    writeFileIn(store.root, cacheRel(store), JSON.stringify(file), {durable: false})
  } catch {
    // the cache is an optimisation only
  }
}

/**
 * The commit holding each batch record, from the Cairn-Batch trailers (newest first). One git
 * process over the whole log: walking 5,000 commits with isomorphic-git takes 1.4 s, against 0.1 s.
 */
export async function batchCommits(ctx: Context, store: Store): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const c of await cairnCommits(ctx, store, 'Cairn-Batch')) {
    const batch = c.trailers.batch
    if (batch && !out.has(batch)) out.set(batch, c.sha)
  }
  return out
}

/**
 * Record files git does not have yet: a write killed between its record and its commit outside
 * any journal, or a record copied in by hand. `changed` are committed records edited since: never
 * committed silently, since records are append-only. One git process.
 */
export async function looseRecords(ctx: Context, store: Store): Promise<{added: string[]; changed: string[]}> {
  if (dirIn(store.root, batchesRel(store)) === null) return {added: [], changed: []}
  const out = await gitClient(ctx, store.root).raw([
    'status',
    '--porcelain',
    '--untracked-files=all',
    '--no-renames',
    '--',
    batchesRel(store),
  ])
  const added: string[] = []
  const changed: string[] = []
  for (const line of out.split('\n')) {
    const file = line.slice(3).replace(/^"|"$/g, '')
    if (line.length < 4 || !file.endsWith('.json')) continue
    if (line.startsWith('??') || line.startsWith('A ')) added.push(file)
    else if (line[0] !== 'D' && line[1] !== 'D') changed.push(file)
  }
  return {added: added.sort(), changed: changed.sort()}
}

/** The commit that added a record file: for a batch id committed twice (on two branches), its trailer names both. */
export async function recordCommit(ctx: Context, store: Store, key: string): Promise<string | null> {
  try {
    const out = await gitClient(ctx, store.root).raw([
      'log',
      '-1',
      '--diff-filter=A',
      '--format=%H',
      '--',
      recordRel(store, key),
    ])
    return out.trim() || null
  } catch {
    return null
  }
}

/** Refuses (conflict) while a merge, rebase, cherry-pick or revert is in progress. */
export const assertNoGitOperation = (store: Store): void => assertCleanState(store.root)

/** One record by its key (file stem). */
export function readRecord(store: Store, key: string, read: Reader = diskReader(store)): BatchRecord {
  const relPath = recordRel(store, key)
  const text = read(relPath)
  if (text === null)
    throw new CairnError('not_found', `${relPath} disappeared while reading the board. Fix: run the command again`)
  const parsed = parseRecordFile(text, key, relPath)
  return parsed.legacy ? upgradeLegacy([parsed.record])[0] : parsed.record
}
