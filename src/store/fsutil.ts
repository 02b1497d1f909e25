import {randomBytes} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

export const TMP_MARK = '.cairn-tmp-'

/** Writes via a temp file in the same directory and a rename, so readers never see half a file. */
export function writeFileAtomic(file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), {recursive: true})
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}${TMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`)
  try {
    fs.writeFileSync(tmp, content)
    fs.renameSync(tmp, file)
  } catch (error) {
    fs.rmSync(tmp, {force: true})
    throw error
  }
}

export function readIfExists(file: string): Buffer | null {
  try {
    return fs.readFileSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** Removes now-empty directories from dir up to (not including) stop. */
export function pruneEmptyDirs(dir: string, stop: string): void {
  let current = dir
  while (current.startsWith(stop) && current !== stop) {
    try {
      fs.rmdirSync(current)
    } catch {
      return
    }
    current = path.dirname(current)
  }
}
