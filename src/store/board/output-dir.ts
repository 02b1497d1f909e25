import fs from 'node:fs'
import path from 'node:path'
import {writeFileAtomic} from '../files/fsutil.js'

/**
 * A directory of files a command hands the user (the board overview): not part of any store,
 * so written directly, each file atomically.
 */
export interface OutputDir {
  dir: string
  /** Writes a text file, bytes as they are, or JSON (pretty, with a final newline) for any other value. */
  write(name: string, value: unknown): void
  file(name: string): string
}

/** Creates the directory and removes earlier files matching `stale`, so they never pass for this run's. */
export function openOutputDir(dir: string, stale: RegExp): OutputDir {
  fs.mkdirSync(dir, {recursive: true})
  for (const f of fs.readdirSync(dir)) if (stale.test(f)) fs.rmSync(path.join(dir, f), {force: true})
  return {
    dir,
    write: (name, value) =>
      writeFileAtomic(path.join(dir, name), typeof value === 'string' || Buffer.isBuffer(value) ? value : `${JSON.stringify(value, null, 2)}\n`),
    file: name => path.join(dir, name),
  }
}
