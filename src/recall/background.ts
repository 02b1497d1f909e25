import {spawn} from 'node:child_process'
import os from 'node:os'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {rel, type Store, storeDir} from '../store/layout.js'
import {
  heldByToken,
  type HeldLock,
  inspectLockFile,
  type LockSpec,
  releaseLockByToken,
  tryAcquire,
} from '../store/locks/lock-file.js'
import {type Staleness, UNCHECKED_MAX_AGE_MS} from '../store/locks/lock-record.js'
import {dirIn, readJsonIn, SMALL_FILE, writeFileIn} from '../store/files/store-files.js'

/**
 * The hook's background rebuild of the recall index: one detached `node rebuild-worker.js`
 * at a time per store, guarded by <store>/.cache/recall-index.lock, a lock of store/locks/lock-file.ts:
 * the hook takes it without waiting (tryAcquire), hands it over to the worker it spawns (its pid),
 * and the worker releases it by its token when it is done. A lock whose process is gone, or older
 * than REBUILD_MAX_AGE_MS, is taken over.
 * recall-index.state counts the rebuilds started (an honest counter for tests and diagnosis) and
 * remembers the last failure, so an invalid config.yaml does not start a rebuild on every prompt.
 */
export const LOCK_FILE = 'recall-index.lock'
export const STATE_FILE = 'recall-index.state'
/** A cold build of 100,000 cards takes minutes; a live worker is never taken over sooner than this, and always after. */
export const REBUILD_MAX_AGE_MS = 10 * 60_000
/** A rebuild that failed with the same config and signals stamps is not tried again before this. */
export const RETRY_FAILED_MS = 5 * 60_000
const REBUILD_LOCK: Staleness = {uncheckedMaxAgeMs: UNCHECKED_MAX_AGE_MS, liveMaxAgeMs: REBUILD_MAX_AGE_MS}

export interface RebuildState {
  /** Rebuild processes started for this store. */
  spawned: number
  /** The last rebuild's failure: when, for which config and signals stamps, and why. */
  failed?: {at: number; key: string; error: string}
}

// Through store-files: a clone may carry links at these names (git add -f), and the hook runs in every clone.
const cacheRel = (primary: Store): string => rel(primary, '.cache')
const stateRel = (primary: Store): string => rel(primary, '.cache', STATE_FILE)

/**
 * The lock in .cache/, each directory on the way checked to be real (made, with `create`); null when
 * one is missing. The lock's own names are never followed as links (lock-file.ts). Its record keeps
 * `at` in milliseconds, as every cairn has read it.
 */
function lockSpec(primary: Store, create: boolean): LockSpec | null {
  const dir = dirIn(primary.root, cacheRel(primary), {create})
  return dir === null ? null : {dir, name: LOCK_FILE, staleness: REBUILD_LOCK, atInMs: true}
}

export function rebuildState(primary: Store): RebuildState {
  const s = readJsonIn(primary.root, stateRel(primary), SMALL_FILE) as RebuildState | undefined
  if (!s || typeof s !== 'object') return {spawned: 0}
  return {spawned: Number(s.spawned) || 0, ...(s.failed ? {failed: s.failed} : {})}
}

function writeState(primary: Store, state: RebuildState): void {
  try {
    writeFileIn(primary.root, stateRel(primary), `${JSON.stringify(state)}\n`, {durable: false})
  } catch {
    // Diagnosis only.
  }
}

/** Whether a rebuild holds the lock: its file exists, its process alive and not too old (an unreadable one, for a few seconds). */
export function rebuildRunning(primary: Store): boolean {
  try {
    const spec = lockSpec(primary, false)
    return spec !== null && inspectLockFile(spec).state === 'held'
  } catch {
    return false
  }
}

/** The compiled worker; run from the TypeScript sources (the tests), the one built into dist/. */
function workerScript(): string | null {
  const here = fileURLToPath(new URL('rebuild-worker.js', import.meta.url))
  const built = path.resolve(path.dirname(here), '..', '..', 'dist', 'recall', 'rebuild-worker.js')
  return [here, built].find(f => fs.existsSync(f)) ?? null
}

/**
 * Starts one detached rebuild of the index of these stores unless one is running, or the last
 * one failed for the same `key` (the config and signals stamps) less than RETRY_FAILED_MS ago.
 * Returns whether it started one.
 */
/** The background rebuild's nice value: it yields the CPU to the hooks and the agent's own work. */
const BACKGROUND_NICE = 10

export function startRebuild(stores: readonly Store[], key: string): boolean {
  const primary = stores[0]
  const before = rebuildState(primary)
  if (before.failed && before.failed.key === key && Date.now() - before.failed.at < RETRY_FAILED_MS) return false
  const script = workerScript()
  if (!script) return false
  let lock: HeldLock | null
  try {
    lock = tryAcquire(lockSpec(primary, true) as LockSpec)
  } catch {
    return false
  }
  if (!lock) return false
  try {
    const state = rebuildState(primary)
    writeState(primary, {...state, spawned: state.spawned + 1})
    const plain = stores.map(({kind, root, prefix, org}) => ({kind, root, prefix, ...(org ? {org} : {})}))
    const args = JSON.stringify({stores: plain, token: lock.token, key})
    const options = {cwd: storeDir(primary), detached: true, stdio: 'ignore', windowsHide: true} as const
    const child = spawn(process.execPath, [script, args], options)
    child.on('error', () => {}) // a spawn failure leaves a dead pid in the lock, which the next caller takes over
    child.unref()
    if (child.pid !== undefined) {
      // Below the hook that started it: a cold prompt hook answers from the card files meanwhile (cold.ts),
      // and on two cores the rebuild and its pool would otherwise take both.
      try {
        os.setPriority(child.pid, BACKGROUND_NICE)
      } catch {
        // Not allowed here: the rebuild runs at the hook's priority, as it did.
      }
      // A worker that finished already has released the lock: the handover then writes nothing.
      lock.handOver(child.pid)
      return true
    }
    lock.release()
    return false
  } catch {
    return false
  }
}

/** The worker's last step: records the outcome, then releases the lock if it still holds it. */
export function finishRebuild(primary: Store, token: string, key: string, error: string | undefined): void {
  let spec: LockSpec | null
  try {
    spec = lockSpec(primary, false)
    if (!spec || !heldByToken(spec, token)) return
  } catch {
    return
  }
  const {spawned} = rebuildState(primary)
  writeState(primary, error === undefined ? {spawned} : {spawned, failed: {at: Date.now(), key, error}})
  releaseLockByToken(spec, token)
}

/**
 * Resolves once no rebuild of this store's index is running (none started, finished, or its
 * process gone); rejects after timeoutMs. Tests await it so a rebuild never outlives their temp dir.
 */
export async function waitForIndexRebuild(primary: Store, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (rebuildRunning(primary)) {
    if (Date.now() > until) {
      throw new Error(`the recall index rebuild of ${storeDir(primary)} is still running after ${timeoutMs} ms`)
    }
    await new Promise(resolve => setTimeout(resolve, 25))
  }
}
