import fs from 'node:fs'
import {type Store, storeDir} from '../store/layout.js'
import type {IndexCorruptError, RecallIndex} from './format.js'
import {isIndexCorrupt, RACY_MS, sameStamp} from './format.js'
import {pinsOf, racyFiles, type Scan, scanSettings, scanStores, settingsFresh, unpinned} from './fresh.js'
import {proven, vouch} from './proof.js'
import {indexPath, indexUsable, type Opened, openIndexFile, parseHead, region} from './read.js'
import {view} from './view.js'
import type {writePartsAtomic} from '../store/files/fsutil.js'
import type {IndexFile, joined} from './write.js'

export type {CatalogEntry, CoreEntry, PathEntry, RecallIndex} from './format.js'
export {IndexCorruptError, isIndexCorrupt} from './format.js'

/**
 * The recall index in <store>/.cache/ (layout in format.ts): derived and never
 * committed, so it is written directly, not through a transaction. A warm prompt first asks git
 * whether any card file changed since the index was proven fresh (one `git ls-files` per store,
 * which compares git's stat cache in C: proof.ts); only when that cannot vouch does it
 * stat every card file and compare the stamps with the cached ones as one string. It then looks its
 * terms up by binary search and decodes only the cards that can still be admitted: never YAML or
 * zod, and no card file but the few racy ones (below), read only to hash them.
 * A changed (path, size, ctime) re-parses that file alone, and so does a file whose ctime is too
 * close to the scan the index was built from to prove anything, unless its content still matches
 * the hash pinned for it (racy in format.ts, fresh.ts). An index found or
 * built fresh by that scan is proven again for the next call. cairn's own transactions bring the
 * index up to date as they finish (refreshIndex). An old-version or foreign cache is
 * rebuilt without a word, a corrupt one (read.ts checks it) is rebuilt too, and hook
 * mode reports it (openIndex).
 */
export {INDEX_FILE, indexPath} from './read.js'

export type IndexMode = 'inline' | 'hook'

/**
 * Hook mode's inline limit, in units of carrying one unchanged record over (about 0.25 ms); parsing
 * a changed or new card file costs about four (1 ms), and loading the parser, YAML and zod a fixed
 * 150 ms. Measured at 1,000 and 10,000 cards: an update costs 0.3 s at 1,000 cards (1 file changed)
 * to 0.5 s (200 changed), and 2.3 s at 10,000 cards whatever changed, because every record is
 * re-encoded. 2,000 units keep an inline update near 0.5 s of the hook's 1.5 s deadline; past that
 * the hook answers from the stale index and a background process rebuilds it.
 */
export const INLINE_WORK = 2000
const PARSE_WORK = 4

export interface OpenOptions {
  mode?: IndexMode
  /** Log card files that cannot be loaded to hook-errors.log, as hook mode does (for the background worker). */
  logSkipped?: boolean
  /**
   * Hook mode: build a missing index here when the store is small enough for the deadline, so the
   * first session after a clone gets its core cards (the session hooks ask for this).
   */
  coldBuild?: boolean
}

/**
 * Opens the index for these stores (primary first), bringing it up to date on the way.
 * Inline mode (the CLI: `cairn recall`'s prompt path, `eval recall`) always rebuilds what is
 * missing, corrupt or stale before it answers. Hook mode never blocks on a large rebuild: when
 * the update would cost more than INLINE_WORK, it returns the stale index if it has a valid one
 * (`stale: true`), else null, and starts one detached rebuild (background.ts). A
 * corrupt file in hook mode starts that rebuild too, then throws IndexCorruptError, so the hook
 * logs one line and gives its neutral answer. In hook mode each card file that cannot be loaded is
 * logged to hook-errors.log once, whoever built the index (skipped.ts).
 */
export function openIndex(stores: readonly Store[], options?: OpenOptions & {mode?: 'inline'}): Promise<RecallIndex>
export function openIndex(stores: readonly Store[], options: OpenOptions): Promise<RecallIndex | null>
export async function openIndex(stores: readonly Store[], options: OpenOptions = {}): Promise<RecallIndex | null> {
  const index = await openOrBuild(stores, options)
  if (index && index.skipped.length > 0 && (options.mode === 'hook' || options.logSkipped)) {
    const {logSkippedOnce} = await import('./skipped.js')
    logSkippedOnce(stores[0], index.skipped)
  }
  return index
}

/**
 * Internal options: `beforeWrite` runs before the index and its proof are written (the transaction's
 * crash points); `prove` proves a rebuilt index at once, as every mode but a hook's does (a hook
 * answers first: the next call proves it, with no rebuild to pay for).
 */
interface BuildOptions extends OpenOptions {
  beforeWrite?: (what: 'index' | 'proof') => void
  prove?: boolean
}

async function openOrBuild(stores: readonly Store[], options: BuildOptions): Promise<RecallIndex | null> {
  const file = indexPath(stores[0])
  const check = checkCache(stores)
  if ('fresh' in check) return check.fresh
  const {cached, corruption} = check
  let {toParse} = check
  const now = check.now ?? scanStores(stores)
  const {found, configStamp, signalsStamp} = now
  const hook = options.mode === 'hook'
  const partial = toParse !== undefined
  // Where no file can be kept (a linked .cache/), a background rebuild is no use: a small store is built here.
  // So is a small store with no index yet when the caller asks (coldBuild). A corrupt index is never
  // rebuilt inside a hook: the hook says so, and a background rebuild repairs it.
  const usable = indexUsable(stores[0])
  if (!usable || (options.coldBuild && !partial && !corruption)) toParse = found.length
  if (hook && (toParse === undefined || found.length + (PARSE_WORK - 1) * toParse > INLINE_WORK)) {
    if (usable) {
      const {startRebuild} = await import('./background.js')
      startRebuild(stores, JSON.stringify([configStamp, signalsStamp]))
    }
    if (corruption) throw corruption
    if (cached && partial) return view(cached, {rebuilt: false, stale: true})
    if (cached) fs.closeSync(cached.fd)
    return null
  }
  const rebuilt = await rebuildIndex(stores, cached, now, toParse)
  return view(writeIndex(stores, options, file, rebuilt), {rebuilt: true, stale: false})
}

/**
 * What the cache holds: an index fresh for these stores, or what a rebuild starts from: the cached
 * index when it is valid and for these stores, with the number of files to parse (undefined when it
 * must be built whole), the scan made on the way if any, and the corruption found if any.
 */
type CacheCheck =
  {fresh: RecallIndex} | {cached: Opened | null; corruption?: IndexCorruptError; toParse?: number; now?: Scan}

function checkCache(stores: readonly Store[]): CacheCheck {
  let cached: Opened | null = null
  let corruption: IndexCorruptError | undefined
  // Files to parse when the cache is valid and for these stores; undefined when it must be built whole.
  let toParse: number | undefined
  let now: Scan | undefined
  try {
    cached = openIndexFile(stores[0])
    // The cheap check first: git's stat cache, by the proof beside the index (proof.ts).
    if (
      cached &&
      sameStores(cached, stores) &&
      settingsFresh(cached.header, scanSettings(stores[0])) &&
      proven(cached, stores)
    ) {
      return {fresh: view(cached, {rebuilt: false, stale: false})}
    }
    now = scanStores(stores)
    if (cached && sameStores(cached, stores)) {
      const {stamps, lexicon} = now
      const old = region(cached, 'stamps')
      const {scanned, pins} = cached.header
      const sameLexicon =
        cached.header.lexicon?.version === lexicon.version && sameStamp(cached.header.lexicon.stamp, lexicon.stamp)
      const sameStamps = Buffer.from(stamps).equals(old)
      // Files changed too close to that index's scan for their stamps to tell: their content must match its pins.
      // Only read when every stamp matches: a changed stamp already says the index is behind.
      const moved = sameStamps ? unpinned(racyFiles(now, scanned), pins) : 0
      if (sameStamps && moved === 0 && settingsFresh(cached.header, now)) {
        vouch(cached, stores, now.scanned)
        return {fresh: view(cached, {rebuilt: false, stale: false})}
      }
      // Another lexicon means new translations in every record: the whole library is parsed again.
      toParse = sameLexicon ? changedFiles(old.toString('utf8'), stamps) + moved : now.found.length
    }
  } catch (error) {
    // A file or region that cannot be read, or fails its checksum, is as good as no cache.
    if (isIndexCorrupt(error)) corruption = error
    if (cached) fs.closeSync(cached.fd)
    cached = null
    toParse = undefined
  }
  return {cached, corruption, toParse, now}
}

/** The modules that write an index, loaded only on the cold path. */
interface IndexWriter {
  writePartsAtomic: typeof writePartsAtomic
  joined: typeof joined
}

/** A rebuilt index, its writer, the scan it was built from, and the racy files pinned before, to check before it is written. */
interface Rebuilt {
  built: IndexFile
  scanned: Scan['scanned']
  cold: IndexWriter
  racyNow: ReturnType<typeof racyFiles>
  pins: ReturnType<typeof pinsOf>
}

/** Builds the index from this scan, reusing the cached records where their files have not changed. Closes the cache. */
async function rebuildIndex(
  stores: readonly Store[],
  cached: Opened | null,
  now: Scan,
  toParse: number | undefined,
): Promise<Rebuilt> {
  const {found, configStamp, signalsStamp, lexicon} = now
  // A large rebuild parses on a second core too: its worker thread starts first, and loads the card
  // parser and the lexicon while this thread loads its own (pool.ts). A hook parses too
  // few files ever to start one.
  const {POOL_MIN, startPool} = await import('./pool.js')
  const pool = (toParse ?? found.length) >= POOL_MIN ? startPool(stores) : null
  let built: IndexFile
  let cold: IndexWriter
  // The files this scan cannot vouch for are pinned before they are read, and checked after: one that
  // changed meanwhile leaves the new index unwritten, to be built again next time.
  const racyNow = racyFiles(now, now.scanned)
  const pins = pinsOf(racyNow)
  try {
    // The cold path's modules (card parser, YAML, zod, the lexicon) load only here.
    const [{rebuild}, fsutil, write, {loadLexicon}] = await Promise.all([
      import('./build.js'),
      import('../store/files/fsutil.js'),
      import('./write.js'),
      import('./lexicon.js'),
    ])
    cold = {writePartsAtomic: fsutil.writePartsAtomic, joined: write.joined}
    const {translator, version} = await loadLexicon(stores[0])
    const {scanned} = now
    built = rebuild({
      stores,
      found,
      cached,
      configStamp,
      signalsStamp,
      scanned,
      pins,
      lexicon: {version, stamp: lexicon.stamp, translator},
      pool,
    })
  } finally {
    pool?.stop()
    if (cached) fs.closeSync(cached.fd)
  }
  return {built, scanned: now.scanned, cold, racyNow, pins}
}

/**
 * Writes the rebuilt index (and proves it unless a hook asked) and opens the file written; when it
 * cannot be written, or a racy file changed while it was built, opens it from memory instead.
 */
function writeIndex(
  stores: readonly Store[],
  options: BuildOptions,
  file: string,
  {built, scanned, cold, racyNow, pins}: Rebuilt,
): Opened {
  const hook = options.mode === 'hook'
  let opened: Opened | undefined
  try {
    if (indexUsable(stores[0]) && unpinned(racyNow, pins) === 0) {
      options.beforeWrite?.('index')
      // Written from its parts, then read through the descriptor of the file written, as a warm call
      // reads it: tens of megabytes are never joined in memory.
      const fd = cold.writePartsAtomic(file, [built.head, ...built.body])
      try {
        opened = {...parseHead(fd)!, fd, blocks: new Map(), file}
      } catch (error) {
        fs.closeSync(fd)
        throw error
      }
      if (options.prove ?? !hook) vouch(opened, stores, scanned, () => options.beforeWrite?.('proof'))
    }
  } catch {
    // A read-only or full disk costs speed, not correctness: the index is rebuilt next time.
  }
  if (!opened) {
    const bytes = cold.joined(built)
    opened = {...parseHead(bytes)!, fd: -1, blocks: new Map(), bytes}
  }
  return opened
}

/**
 * Write-through, for cairn's own transactions once they are in: brings an existing index of these
 * stores up to date as a hook would, inline when the update is small (INLINE_WORK), else by the
 * background rebuild, and proves it (proof.ts), so the next hook call finds it fresh
 * with one git call. With no index yet it does nothing: the
 * first hook builds one. It first waits out the racy window of the files the transaction just
 * wrote, so their stamps vouch for them: else they would be pinned, and every hook call would read
 * and hash them until the next rebuild.
 */
export async function refreshIndex(
  stores: readonly Store[],
  options: Pick<BuildOptions, 'beforeWrite'> = {},
): Promise<void> {
  if (stores.length === 0 || !fs.existsSync(indexPath(stores[0]))) return
  await new Promise(resolve => setTimeout(resolve, RACY_MS.fine + 1))
  ;(await openOrBuild(stores, {mode: 'hook', prove: true, ...options}))?.close()
}

/**
 * Opens the index, runs `use` on it and closes it. A block that fails its check while `use` reads
 * removes the file (read.ts); inline mode then rebuilds and runs `use` again (so `use`
 * should have no side effects), hook mode starts a background rebuild and throws IndexCorruptError,
 * as openIndex does. Hook mode returns null when openIndex does (no index yet).
 */
type Use<T> = (index: RecallIndex) => T | Promise<T>
export function useIndex<T>(stores: readonly Store[], use: Use<T>, options?: {mode?: 'inline'}): Promise<T>
export function useIndex<T>(stores: readonly Store[], use: Use<T>, options: {mode: IndexMode}): Promise<T | null>
export async function useIndex<T>(
  stores: readonly Store[],
  use: Use<T>,
  options: {mode?: IndexMode} = {},
): Promise<T | null> {
  for (let attempt = 0; ; attempt++) {
    const index = await openIndex(stores, {mode: options.mode ?? 'inline'})
    if (!index) return null
    try {
      return await use(index)
    } catch (error) {
      if (!isIndexCorrupt(error) || attempt > 0) throw error
      // The bad block removed the file: hook mode now starts the background rebuild and reports.
      if (options.mode === 'hook') {
        ;(await openIndex(stores, {mode: 'hook'}))?.close()
        throw error
      }
    } finally {
      index.close()
    }
  }
}

/**
 * Resolves once no background rebuild of this store's index is running (none started, done, or its
 * process gone); rejects after timeoutMs. Tests await it so a rebuild never outlives their temp dir.
 */
export async function waitForIndexRebuild(primary: Store, timeoutMs = 30_000): Promise<void> {
  const background = await import('./background.js')
  return background.waitForIndexRebuild(primary, timeoutMs)
}

const sameStores = (o: Opened, stores: readonly Store[]): boolean =>
  o.header.stores.length === stores.length && o.header.stores.every((s, i) => s === storeDir(stores[i]))

/** Card files whose stamp line is not in the cached stamps: new or changed, so to be parsed. */
function changedFiles(cached: string, wanted: string): number {
  const have = new Set(cached.split('\n'))
  let n = 0
  for (const line of wanted.split('\n')) if (line && !have.has(line)) n++
  return n
}
