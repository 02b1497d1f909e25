import fs from 'node:fs'
import path from 'node:path'
import {writeFileAtomic} from '../files/fsutil.js'
import {shippedFont} from '../package-files.js'

/**
 * A directory of files a command hands the user (the board overview, the review check's comment): not part of
 * any store, so written directly, each file atomically. As Stores.output hands it out.
 */
export interface OutputDir {
  dir: string
  /** Writes a text file, bytes as they are, or JSON (pretty, with a final newline) for any other value. */
  write(name: string, value: unknown): void
  file(name: string): string
  /** The shipped font the board's pictures are drawn in (data/fonts), read once. */
  font(): {file: string; bytes: Buffer}
}

/**
 * With `stale`, creates the directory and removes earlier files matching it, so they never pass for this run's;
 * without, touches nothing until a write (which creates the directories it needs).
 */
export function openOutputDir(dir: string, stale?: RegExp): OutputDir {
  if (stale) {
    fs.mkdirSync(dir, {recursive: true})
    for (const f of fs.readdirSync(dir)) if (stale.test(f)) fs.rmSync(path.join(dir, f), {force: true})
  }
  return {
    dir,
    write: (name, value) =>
      writeFileAtomic(
        path.join(dir, name),
        typeof value === 'string' || Buffer.isBuffer(value) ? value : `${JSON.stringify(value, null, 2)}\n`,
      ),
    file: name => path.join(dir, name),
    font: shippedFont,
  }
}
