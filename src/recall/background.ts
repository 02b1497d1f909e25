import {spawn} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {rel, type Store, storeDir} from '../store/layout.js'
import {alive} from '../store/locks/lock-record.js'
import {dirIn, readJsonIn, removeFileIn, SMALL_FILE, writeFileIn} from '../store/files/store-files.js'

/**
 * The hook's background rebuild of the recall index: one detached `node rebuild-worker.js`
 * at a time per store, guarded by <store>/.cache/recall-index.lock. The lock is created with its
 * content in one step (a hard link), names the worker's pid, and is removed by the worker when it
 * is done. A lock whose process is gone, or that is older than LOCK_MAX_AGE_MS, is taken over.
 * recall-index.state counts the rebuilds started (an honest counter for tests and diagnosis) and
 * remembers the last failure, so an invalid config.yaml does not start a rebuild on every prompt.
 */
export const LOCK_FILE = 'recall-index.lock'
export const STATE_FILE = 'recall-index.state'
/** A cold build of 100,000 cards takes minutes; a live worker is never taken over sooner than this. */
export const LOCK_MAX_AGE_MS = 10 * 60_000
/** A rebuild that failed with the same config and signals stamps is not tried again before this. */
export const RETRY_FAILED_MS = 5 * 60_000
/** The lock is rewritten in place with the worker's pid: a fixed width keeps that one small write. */
const LOCK_BYTES = 256

interface Lock {
  token: string
  pid: number
  at: number
}

export interface RebuildState {
  /** Rebuild processes started for this store. */
  spawned: number
  /** The last rebuild's failure: when, for which config and signals stamps, and why. */
  failed?: {at: number; key: string; error: string}
}

// Through store-files: a clone may carry links at these names (git add -f), and the hook runs in every clone.
const cacheRel = (primary: Store): string => rel(primary, '.cache')
const lockRel = (primary: Store): string => rel(primary, '.cache', LOCK_FILE)
const stateRel = (primary: Store): string => rel(primary, '.cache', STATE_FILE)

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

function readLock(primary: Store): Lock | null {
  const l = readJsonIn(primary.root, lockRel(primary), SMALL_FILE) as Lock | undefined
  return l && typeof l === 'object' && typeof l.token === 'string' && Number.isInteger(l.pid) && typeof l.at === 'number' ? l : null
}

const running = (lock: Lock | null): boolean =>
  lock !== null && alive(lock.pid) && Date.now() - lock.at <= LOCK_MAX_AGE_MS

/** Whether a rebuild holds the lock: its file exists and is readable, its process alive and not too old. */
export const rebuildRunning = (primary: Store): boolean => running(readLock(primary))

/** Takes the lock: its fd (to name the worker in it) and token, or null when a live rebuild holds it. */
function acquire(primary: Store): {fd: number; lock: Lock} | null {
  const file = path.join(dirIn(primary.root, cacheRel(primary), {create: true}) as string, LOCK_FILE)
  const lock: Lock = {token: randomBytes(8).toString('hex'), pid: process.pid, at: Date.now()}
  const temp = `${file}.${lock.token}`
  const fd = fs.openSync(temp, 'wx')
  try {
    fs.writeSync(fd, JSON.stringify(lock).padEnd(LOCK_BYTES), 0)
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.linkSync(temp, file) // fails when the lock exists: only one caller gets past it
        return {fd, lock}
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') break
        const held = readLock(primary)
        if (running(held)) break
        // Stale: remove it unless another caller has replaced it meanwhile, then try once more.
        if (readLock(primary)?.token === held?.token) fs.rmSync(file, {force: true})
      }
    }
    fs.closeSync(fd)
    return null
  } finally {
    fs.rmSync(temp, {force: true})
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
export function startRebuild(stores: readonly Store[], key: string): boolean {
  const primary = stores[0]
  const before = rebuildState(primary)
  if (before.failed && before.failed.key === key && Date.now() - before.failed.at < RETRY_FAILED_MS) return false
  const script = workerScript()
  if (!script) return false
  let held: {fd: number; lock: Lock} | null
  try {
    held = acquire(primary)
  } catch {
    return false
  }
  if (!held) return false
  const {fd, lock} = held
  try {
    const state = rebuildState(primary)
    writeState(primary, {...state, spawned: state.spawned + 1})
    const plain = stores.map(({kind, root, prefix}) => ({kind, root, prefix}))
    const args = JSON.stringify({stores: plain, token: lock.token, key})
    const options = {cwd: storeDir(primary), detached: true, stdio: 'ignore', windowsHide: true} as const
    const child = spawn(process.execPath, [script, args], options)
    child.on('error', () => {}) // a spawn failure leaves a dead pid in the lock, which the next caller takes over
    child.unref()
    if (child.pid !== undefined) {
      // Through the fd: a worker that finished already has removed the lock, and this writes nowhere.
      fs.writeSync(fd, JSON.stringify({...lock, pid: child.pid}).padEnd(LOCK_BYTES), 0)
      return true
    }
    removeFileIn(primary.root, lockRel(primary))
    return false
  } catch {
    return false
  } finally {
    fs.closeSync(fd)
  }
}

/** The worker's last step: records the outcome, then releases the lock if it still holds it. */
export function finishRebuild(primary: Store, token: string, key: string, error: string | undefined): void {
  if (readLock(primary)?.token !== token) return
  const {spawned} = rebuildState(primary)
  writeState(primary, error === undefined ? {spawned} : {spawned, failed: {at: Date.now(), key, error}})
  removeFileIn(primary.root, lockRel(primary))
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
