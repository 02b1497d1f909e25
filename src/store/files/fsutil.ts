import {randomBytes} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {promisify} from 'node:util'

export const TMP_MARK = '.cairn-tmp-'
/** Flushes in flight at once: enough to keep libuv's threads busy, so the file system commits them together. */
const FLUSHES_IN_FLIGHT = 8
const fdatasync = promisify(fs.fdatasync)

export interface FileWrite {
  file: string
  content: string | Buffer
}

/**
 * A batch write failed. `renamed` lists, in entry order, the files that already hold their new content (the caller
 * restores those); every other target is untouched, and no temp file is left behind. `cause` is the first error.
 */
export class AtomicWriteError extends Error {
  readonly renamed: string[]

  constructor(renamed: string[], total: number, cause: unknown) {
    super(
      `${cause instanceof Error ? cause.message : String(cause)} (${renamed.length} of ${total} file(s) were already replaced)`,
      {cause},
    )
    this.name = 'AtomicWriteError'
    this.renamed = renamed
  }
}

const tempFor = (file: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}${TMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`)

/** mkdir -p, adding to `dirs` the directory and the parent of each directory it creates: their entries change. */
function makeDir(dir: string, dirs: Set<string>): void {
  const abs = path.resolve(dir)
  dirs.add(abs)
  const first = fs.mkdirSync(abs, {recursive: true})
  if (first === undefined) return
  for (let d = abs; d !== path.dirname(d); d = path.dirname(d)) {
    dirs.add(path.dirname(d))
    if (d === path.resolve(first)) break
  }
}

/** A renamed file's entry is durable only once its directory is flushed. */
function syncDir(dir: string): void {
  // Windows cannot open a directory to flush it; some file systems refuse to flush one (EINVAL).
  if (process.platform === 'win32') return
  const fd = fs.openSync(dir, 'r')
  try {
    fs.fsyncSync(fd)
  } catch (error) {
    if (!['EINVAL', 'ENOTSUP', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * Writes via a temp file in the same directory, flushed to disk before the rename, then flushes the directory: readers
 * never see half a file, and after a crash the file holds the old or the new content, never an empty one.
 * fdatasync flushes the data and the size, all a reader needs; it skips timestamps. A derived file that is
 * checked when read and rebuilt when bad (`durable: false`) skips the flushes: readers still never see half a file.
 */
export function writeFileAtomic(file: string, content: string | Buffer, options: {durable?: boolean} = {}): void {
  fs.closeSync(writeAtomic(file, [content], options.durable ?? true))
}

/**
 * writeFileAtomic, durable, of content given in parts, one after another: a large file is never
 * joined in memory first. Returns a descriptor open for reading the file written (whatever later
 * replaces it); the caller closes it.
 */
export function writePartsAtomic(file: string, parts: readonly Uint8Array[]): number {
  return writeAtomic(file, parts, true)
}

function writeAtomic(file: string, parts: readonly (string | Uint8Array)[], durable: boolean): number {
  const dirs = new Set<string>()
  makeDir(path.dirname(file), dirs)
  const tmp = tempFor(file)
  let fd: number | undefined
  try {
    fd = fs.openSync(tmp, 'wx+')
    for (const part of parts) {
      if (typeof part === 'string') fs.writeFileSync(fd, part)
      else for (let at = 0; at < part.length;) at += fs.writeSync(fd, part, at)
    }
    if (durable) fs.fdatasyncSync(fd)
    fs.renameSync(tmp, file)
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd)
    fs.rmSync(tmp, {force: true})
    throw error
  }
  try {
    if (durable) for (const dir of dirs) syncDir(dir)
  } catch (error) {
    fs.closeSync(fd)
    throw error
  }
  return fd
}

/**
 * writeFileAtomic for many files, batched: writes and flushes every temp file (several flushes at once), renames
 * them all in entry order, then flushes each directory once. A 1,000-file batch thus costs far less than 1,000
 * writeFileAtomic calls. Throws AtomicWriteError, which says which files were replaced.
 */
export async function writeFilesAtomic(
  entries: readonly FileWrite[],
  onRenamed?: (count: number) => void,
): Promise<void> {
  const dirs = new Set<string>()
  const temps: (string | undefined)[] = []
  const renamed: string[] = []
  try {
    let next = 0
    let failed = false
    const worker = async () => {
      try {
        while (!failed && next < entries.length) {
          const i = next++
          const {file, content} = entries[i]
          if (!dirs.has(path.resolve(path.dirname(file)))) makeDir(path.dirname(file), dirs)
          const tmp = tempFor(file)
          const fd = fs.openSync(tmp, 'wx')
          temps[i] = tmp
          try {
            fs.writeFileSync(fd, content)
            await fdatasync(fd)
          } finally {
            fs.closeSync(fd)
          }
        }
      } catch (error) {
        failed = true
        throw error
      }
    }
    // Every worker settles before the clean-up below, so none writes a temp file after it.
    const settled = await Promise.allSettled(Array.from({length: Math.min(FLUSHES_IN_FLIGHT, entries.length)}, worker))
    const rejected = settled.find(s => s.status === 'rejected')
    if (rejected) throw (rejected as PromiseRejectedResult).reason
    entries.forEach(({file}, i) => {
      fs.renameSync(temps[i] as string, file)
      temps[i] = undefined
      renamed.push(file)
      onRenamed?.(renamed.length)
    })
    for (const dir of dirs) syncDir(dir)
  } catch (error) {
    for (const tmp of temps) if (tmp) fs.rmSync(tmp, {force: true})
    throw new AtomicWriteError(renamed, entries.length, error)
  }
}

/**
 * Removes these files (a missing one is no error), several at once: an unlink can wait milliseconds on the file
 * system's journal, and one after another 10,000 of them took half a minute. Then each directory left empty is
 * removed, up to (not including) stop.
 */
export async function removeFiles(files: readonly string[], stop: string): Promise<void> {
  let next = 0
  let failure: {error: unknown} | undefined
  // After a failure no worker takes another file, and the rejection waits for every removal under way: the caller's
  // restore must not race a removal still running.
  const worker = async () => {
    while (next < files.length && !failure) {
      try {
        await fs.promises.rm(files[next++], {force: true})
      } catch (error) {
        failure ??= {error}
      }
    }
  }
  await Promise.all(Array.from({length: Math.min(FLUSHES_IN_FLIGHT, files.length)}, worker))
  if (failure) throw failure.error
  for (const dir of new Set(files.map(f => path.dirname(f)))) pruneEmptyDirs(dir, stop)
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

/**
 * Removes the regular files of dir whose names match and that were last written more than ttl ms
 * before now: what killed writes and ended sessions leave behind. Links are never followed.
 */
export function removeOldFiles(dir: string, match: (name: string) => boolean, now: number, ttl: number): void {
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    if (!match(name)) continue
    const file = path.join(dir, name)
    try {
      const st = fs.lstatSync(file)
      if (st.isFile() && now - st.mtimeMs > ttl) fs.rmSync(file, {force: true})
    } catch {
      // Gone already.
    }
  }
}

/** A temp file older than this was left by a write that was killed; a younger one may be another run's. */
const STALE_TEMP_MS = 60_000

/**
 * Removes the temp files killed runs left beside these files (".<name>.cairn-tmp-..."),
 * once they are a minute old: a concurrent run's own temp file is younger and stays.
 */
export function removeStaleTemps(files: readonly string[], now: number): void {
  for (const dir of new Set(files.map(f => path.dirname(f)))) {
    const prefixes = files.filter(f => path.dirname(f) === dir).map(f => `.${path.basename(f)}${TMP_MARK}`)
    removeOldFiles(dir, name => prefixes.some(p => name.startsWith(p)), now, STALE_TEMP_MS)
  }
}
