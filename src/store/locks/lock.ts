import fs from 'node:fs'
import path from 'node:path'
import {gitDir} from '../repo.js'
import {acquire, inspectLockFile, type LockSpec, type LockState} from './lock-file.js'
import {type LockRecord, type Staleness, UNCHECKED_MAX_AGE_MS} from './lock-record.js'

export {type LockState} from './lock-file.js'
export {type LockRecord, UNCHECKED_MAX_AGE_MS} from './lock-record.js'

export const LOCK_NAME = 'cairn.lock'
/** How long a write waits for a live holder before it gives up with exit 5. */
export const LOCK_WAIT_MS = 60_000
/** The writers' lock: a live holder on this host keeps it however long it runs; one we cannot check, until UNCHECKED_MAX_AGE_MS. */
const WRITERS: Staleness = {uncheckedMaxAgeMs: UNCHECKED_MAX_AGE_MS}

export interface Lock {
  path: string
  release(): void
}

export interface LockOptions {
  /** Milliseconds to wait for a live holder (default LOCK_WAIT_MS); 0 tries once. */
  waitMs?: number
}

const specAt = (file: string): LockSpec => ({dir: path.dirname(file), name: path.basename(file), staleness: WRITERS})

/** The state of a writers' lock file, with the reason when it is stale. */
export const inspectLock = (file: string): LockState => inspectLockFile(specAt(file))

/** Holder of a lock file, or undefined when there is none or it is stale (see inspectLock for the reason). */
export function lockHolder(file: string): LockRecord | undefined {
  const s = inspectLock(file)
  return s.state === 'held' ? s.holder : undefined
}

/** Takes .git/cairn.lock, waiting for a live holder and taking over a stale one (lock-file.ts). */
export const acquireLock = (root: string, options: LockOptions = {}): Promise<Lock> =>
  acquireLockAt(path.join(gitDir(root), LOCK_NAME), options)

/** acquireLock for a lock file elsewhere (named LOCK_NAME, so its leftovers are swept the same way). */
export async function acquireLockAt(file: string, options: LockOptions = {}): Promise<Lock> {
  fs.mkdirSync(path.dirname(file), {recursive: true})
  return acquire(specAt(file), options.waitMs ?? LOCK_WAIT_MS)
}
