import fs from 'node:fs'
import path from 'node:path'
import {CairnError, validationError} from '../../domain/errors.js'
import {writeFileAtomic} from './fsutil.js'
import {linkError, type Oversize, readRegularFile} from './safe-read.js'

/**
 * The one way to the files cairn keeps for itself in a store directory and beside it: .cache/,
 * .local/ (events, sessions, digests, markers, the hook log, install records), board/ and the
 * settings files. A repository can commit any of these (`git add -f`) as a link, and a hook of a
 * user-scope install runs in every repository the user opens, so:
 * - no link is ever followed, at the file's own name or at any directory between `base` and it:
 *   a read refuses it, a write refuses to go through it, a removal removes nothing behind it;
 * - a read takes a regular file only (never a FIFO or a device), and at most `cap` bytes;
 * - a write replaces the file whole (temp file, then rename), so a reader never sees half of it.
 *
 * `base` is a directory the caller trusts as given (a repository's root, $CAIRN_HOME); `relPath` is
 * POSIX and relative, and names the file in errors.
 */

/** A settings file, a marker, a lock, a small state file. */
export const SMALL_FILE = 1024 * 1024
const DERIVED: Oversize = {noun: 'file', fix: 'remove it; cairn makes it again when it needs it'}
/** What config.yaml and signals.yaml over their cap are told. */
export const SETTINGS: Oversize = {noun: 'file', fix: 'keep only settings in it'}

function checkRel(relPath: string): string[] {
  const parts = relPath.split('/')
  if (path.posix.isAbsolute(relPath) || parts.some(p => p === '' || p === '.' || p === '..')) {
    throw new CairnError('internal', `store path ${JSON.stringify(relPath)} is not a plain relative path`)
  }
  return parts
}

function notDirectory(relPath: string): CairnError {
  const fix = 'remove it, or replace it with a directory'
  return validationError([{file: relPath, field: '(file)', message: 'is not a directory', fix}])
}

/**
 * The directory `relDir` under base, each level a real directory (never a link): with `create`,
 * the missing levels are made; without, null when one is missing. A level that is a link or no
 * directory throws. `relDir` '' (or '.') is base itself.
 */
export function dirIn(base: string, relDir: string, options: {create?: boolean} = {}): string | null {
  let dir = base
  let at = ''
  for (const part of relDir === '' || relDir === '.' ? [] : checkRel(relDir)) {
    dir = path.join(dir, part)
    at = at ? `${at}/${part}` : part
    let stat: fs.Stats | undefined
    try {
      stat = fs.lstatSync(dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    if (stat?.isSymbolicLink()) throw linkError(at, 'directory')
    if (stat && !stat.isDirectory()) throw notDirectory(at)
    if (stat) continue
    if (!options.create) return null
    try {
      fs.mkdirSync(dir)
    } catch (error) {
      // Made by another process meanwhile: look again, as it may have made a link.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (!fs.lstatSync(dir).isDirectory()) throw linkError(at, 'directory')
    }
  }
  return dir
}

const split = (relPath: string): {dir: string; name: string} => {
  checkRel(relPath)
  const cut = relPath.lastIndexOf('/')
  return {dir: cut < 0 ? '' : relPath.slice(0, cut), name: relPath.slice(cut + 1)}
}

/**
 * The file's path, its directories checked (and made, with `create`); null when a directory is missing. `checked`
 * keeps what a check of a directory found, for a caller reading many files of a few directories under a lock.
 */
export function fileIn(
  base: string,
  relPath: string,
  options: {create?: boolean; checked?: Map<string, string | null>} = {},
): string | null {
  const {dir, name} = split(relPath)
  let parent = options.checked?.get(dir)
  if (parent === undefined) {
    parent = dirIn(base, dir, options)
    options.checked?.set(dir, parent)
  }
  return parent === null ? null : path.join(parent, name)
}

/**
 * The file's bytes, or null when it (or a directory on its way) does not exist. A link, anything
 * but a regular file, or a file over `cap` bytes throws a validation error naming it.
 */
export function readFileIn(
  base: string,
  relPath: string,
  cap: number,
  what: Oversize = DERIVED,
  checked?: Map<string, string | null>,
): Buffer | null {
  const file = fileIn(base, relPath, {checked})
  if (file === null) return null
  try {
    return readRegularFile(file, relPath, cap, what)
  } catch (error) {
    if (error instanceof CairnError && error.code === 'not_found') return null
    throw error
  }
}

/** readFileIn as UTF-8 text (a bad byte becomes U+FFFD: these files are cairn's own, never a card). */
export function readTextIn(base: string, relPath: string, cap: number): string | null {
  return readFileIn(base, relPath, cap)?.toString('utf8') ?? null
}

/** The JSON a file holds, or undefined when it is missing, unreadable, over the cap or no JSON: for derived state. */
export function readJsonIn(base: string, relPath: string, cap: number): unknown {
  try {
    const text = readTextIn(base, relPath, cap)
    return text === null ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Replaces the file whole (temp file and rename, which replaces a link at its name, never writing through it). */
export function writeFileIn(
  base: string,
  relPath: string,
  content: string | Buffer,
  options: {durable?: boolean} = {},
): void {
  writeFileAtomic(fileIn(base, relPath, {create: true}) as string, content, options)
}

/** Opens a file under base for appending (made if missing), never through a link. */
function openAppend(base: string, relPath: string, access: number): number {
  const file = fileIn(base, relPath, {create: true}) as string
  const flags = access | fs.constants.O_APPEND | fs.constants.O_CREAT | NOFOLLOW | NONBLOCK
  try {
    return fs.openSync(file, flags, 0o644)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw linkError(relPath)
    throw error
  }
}

/** Appends to a regular file (made if missing): O_APPEND keeps concurrent writers' lines whole. */
export function appendFileIn(base: string, relPath: string, text: string): void {
  const fd = openAppend(base, relPath, fs.constants.O_WRONLY)
  try {
    if (!fs.fstatSync(fd).isFile()) throw notRegular(relPath)
    fs.writeSync(fd, text)
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * Appends one line to a regular file (made if missing), in one O_APPEND write, and returns the file's size after it.
 * When the file does not end with a newline (a writer killed mid-line, a full disk), one goes first: the torn line
 * stays the only one lost, and this one is whole. (Another writer's line landing between the look and the write at
 * worst leaves an empty line.)
 */
export function appendLineIn(base: string, relPath: string, line: string): number {
  const fd = openAppend(base, relPath, fs.constants.O_RDWR)
  try {
    const stat = fs.fstatSync(fd)
    if (!stat.isFile()) throw notRegular(relPath)
    const last = Buffer.alloc(1)
    const torn = stat.size > 0 && fs.readSync(fd, last, 0, 1, stat.size - 1) === 1 && last[0] !== 0x0a
    const bytes = Buffer.from(`${torn ? '\n' : ''}${line.endsWith('\n') ? line : `${line}\n`}`)
    fs.writeSync(fd, bytes)
    return stat.size + bytes.length
  } finally {
    fs.closeSync(fd)
  }
}

/** Removes the file (a link at its name is removed itself, never what it points to); nothing when it is missing. */
export function removeFileIn(base: string, relPath: string): void {
  const file = fileIn(base, relPath)
  if (file !== null) fs.rmSync(file, {force: true})
}

/** lstat of the file through real directories only; null when it or a directory is missing. */
export function statIn(base: string, relPath: string): fs.Stats | null {
  try {
    const file = fileIn(base, relPath)
    return file === null ? null : fs.lstatSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** Whether a regular file is there (a link is not one). */
export const isFileIn = (base: string, relPath: string): boolean => {
  try {
    return statIn(base, relPath)?.isFile() ?? false
  } catch {
    return false
  }
}

/**
 * Whether a derived file (an index, a cache) may be read and written here: every directory on the
 * way real or not yet made, and the file, if present, a regular file. Else the cache goes unused.
 */
export function usableIn(base: string, relPath: string): boolean {
  try {
    const stat = statIn(base, relPath)
    return stat === null || stat.isFile()
  } catch {
    return false
  }
}

/** Names in the directory, sorted; none when it is missing. A directory that is a link throws. */
export function listIn(base: string, relDir: string): string[] {
  const dir = dirIn(base, relDir)
  if (dir === null) return []
  try {
    return fs.readdirSync(dir).sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0

function notRegular(relPath: string): CairnError {
  const fix = 'remove it, or replace it with a regular file'
  return validationError([{file: relPath, field: '(file)', message: 'is not a regular file', fix}])
}
