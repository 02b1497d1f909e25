import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {CairnError} from '../domain/errors.js'
import {gitDir} from './git.js'

export const LOCK_NAME = 'cairn.lock'
const WAIT_MS = 60_000

export interface Lock {
  path: string
  release(): void
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Holder of a lock file, or undefined when the lock is stale (its process is gone). */
export function lockHolder(file: string): {pid: number; host: string} | undefined {
  let info: {pid?: number; host?: string}
  try {
    info = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    // Unreadable: a writer may be mid-write; treat as held unless it is old.
    try {
      return Date.now() - fs.statSync(file).mtimeMs > 10_000 ? undefined : {pid: -1, host: os.hostname()}
    } catch {
      return undefined
    }
  }
  if (typeof info.pid !== 'number') return undefined
  if (info.host && info.host !== os.hostname()) return {pid: info.pid, host: info.host}
  return alive(info.pid) ? {pid: info.pid, host: info.host ?? os.hostname()} : undefined
}

/** Takes .git/cairn.lock, waiting for a live holder and removing a stale one. */
export async function acquireLock(root: string): Promise<Lock> {
  const file = path.join(gitDir(root), LOCK_NAME)
  const deadline = Date.now() + WAIT_MS
  for (;;) {
    try {
      const fd = fs.openSync(file, 'wx')
      fs.writeSync(fd, JSON.stringify({pid: process.pid, host: os.hostname(), at: new Date().toISOString()}))
      fs.closeSync(fd)
      return {
        path: file,
        release: () => fs.rmSync(file, {force: true}),
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = lockHolder(file)
    if (!holder) {
      // Stale: rename first so two waiters cannot both delete a fresh lock.
      const grave = `${file}.stale-${process.pid}`
      try {
        fs.renameSync(file, grave)
        // Another waiter may have replaced the stale lock with a live one in between: put it back.
        if (lockHolder(grave)) fs.linkSync(grave, file)
      } catch {}
      fs.rmSync(grave, {force: true})
      continue
    }
    if (Date.now() > deadline) {
      throw new CairnError('conflict', `another cairn process (pid ${holder.pid}) holds ${file}; wait for it to finish, or remove the file if that process is gone`)
    }
    await new Promise(r => setTimeout(r, 20 + Math.random() * 40))
  }
}
