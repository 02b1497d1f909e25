import fs from 'node:fs'
import {CARD_TYPES} from '../../domain/card/types.js'
import {CairnError, validationError} from '../../domain/errors.js'

/** 0 where the platform lacks the flag (Windows): the lstat and fstat checks then carry the rule. */
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0
/** A FIFO swapped in after the lstat must not block the open. */
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0

/** A directory that is not a link (lstat): cairn never walks through a link under .cairn/. */
export function isRealDir(dir: string): boolean {
  try {
    return fs.lstatSync(dir).isDirectory()
  } catch {
    return false
  }
}

/** Opens for reading without following a final link (a link is refused) and without blocking on a FIFO. */
function openNoFollow(file: string, label: string): number {
  try {
    return fs.openSync(file, fs.constants.O_RDONLY | NOFOLLOW | NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP') throw linkError(label)
    if (code === 'ENOENT') throw new CairnError('not_found', `No such file: ${label}. Fix: check the path`)
    throw error
  }
}

/**
 * readRegularFile for the many small files of one directory (board records): the open refuses a
 * link (O_NOFOLLOW) and the descriptor's own stat refuses anything but a regular file within the
 * cap, so one open, one fstat and one read do what lstat, open, fstat and two reads do there.
 */
export function readSmallRegularFile(file: string, label: string, cap: number, what: Oversize = CARD): Buffer {
  const fd = openNoFollow(file, label)
  try {
    const stat = fs.fstatSync(fd)
    if (!stat.isFile()) throw notRegular(label)
    if (stat.size > cap) throw tooBig(label, stat.size, cap, what)
    const buf = Buffer.allocUnsafe(stat.size)
    let total = 0
    while (total < stat.size) {
      const n = fs.readSync(fd, buf, total, stat.size - total, total)
      if (n === 0) break
      total += n
    }
    return buf.subarray(0, total)
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * Reads a file under .cairn/ that must be a regular file of at most `cap` bytes. A symbolic link
 * is refused, never followed: a committed link to /dev/zero or to a file outside the repo must
 * neither exhaust memory nor pass for a card. At most cap + 1 bytes are ever read.
 * A missing file is a not_found error.
 */
export function readRegularFile(file: string, label: string, cap: number, what: Oversize = CARD): Buffer {
  // Where the open itself refuses a link (O_NOFOLLOW), the descriptor's stat does the lstat's work:
  // an index rebuild reads thousands of card files, and each system call shows.
  const fd = NOFOLLOW ? openRefusingLinks(file, label) : openAfterLstat(file, label, cap, what)
  try {
    const opened = fs.fstatSync(fd)
    if (!opened.isFile()) throw notRegular(label)
    if (opened.size > cap) throw tooBig(label, opened.size, cap, what)
    // Read in steps up to cap + 1 bytes: a file that grows meanwhile is still caught by the cap. A
    // short read is the end of the file.
    const chunks: Buffer[] = []
    let total = 0
    let want = opened.size + 1
    while (total <= cap) {
      const buf = Buffer.allocUnsafe(Math.min(want, cap + 1 - total))
      const n = fs.readSync(fd, buf, 0, buf.length, total)
      if (n > 0) chunks.push(buf.subarray(0, n))
      total += n
      if (n < buf.length) break
      want = 64 * 1024
    }
    if (total > cap) throw tooBig(label, Math.max(opened.size, total), cap, what)
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total)
  } finally {
    fs.closeSync(fd)
  }
}

/** openNoFollow, with what the lstat said: a path through a file is missing, a socket (which cannot be opened) no regular file. */
function openRefusingLinks(file: string, label: string): number {
  try {
    return openNoFollow(file, label)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOTDIR') throw new CairnError('not_found', `${label}: no such file`)
    if (code === 'ENXIO') throw notRegular(label)
    throw error
  }
}

/** Without O_NOFOLLOW: the lstat refuses a link, and the open must find the file the lstat saw. */
function openAfterLstat(file: string, label: string, cap: number, what: Oversize): number {
  let stat: fs.Stats
  try {
    stat = fs.lstatSync(file)
  } catch {
    throw new CairnError('not_found', `${label}: no such file`)
  }
  if (stat.isSymbolicLink()) throw linkError(label)
  if (!stat.isFile()) throw notRegular(label)
  if (stat.size > cap) throw tooBig(label, stat.size, cap, what)
  const fd = openNoFollow(file, label)
  // The file may have been swapped between the lstat and the open.
  const opened = fs.fstatSync(fd)
  if (opened.ino !== stat.ino || opened.dev !== stat.dev) {
    fs.closeSync(fd)
    throw notRegular(label)
  }
  return fd
}

/** A link where cairn reads or writes: a card file, one of its own files, or a directory on the way to one. */
export function linkError(label: string, kind: 'file' | 'directory' = 'file'): CairnError {
  const fix =
    kind === 'file'
      ? 'replace the link with the file itself (git rm the link, then add a regular file)'
      : 'replace the link with a real directory (git rm the link if it is committed)'
  return validationError([
    {file: label, field: '(file)', message: 'is a symbolic link; cairn never follows links under .cairn/', fix},
  ])
}

function notRegular(label: string): CairnError {
  const fix = 'remove it, or replace it with a regular file'
  return validationError([{file: label, field: '(file)', message: 'is not a regular file', fix}])
}

/** What a file over its cap is called, and the fix offered. */
export interface Oversize {
  noun: string
  fix: string
}

const CARD: Oversize = {noun: 'card', fix: 'shorten the card'}

function tooBig(label: string, size: number, cap: number, what: Oversize = CARD): CairnError {
  const message = `${what.noun} is ${size} bytes, over the ${cap}-byte limit`
  return validationError([{file: label, field: '(content)', message, fix: what.fix}])
}

export interface CardFileStat {
  type: (typeof CARD_TYPES)[number]
  name: string
  file: string
  size: number
  mtime: number
  ctime: number
}

/**
 * The regular card files under <base>/<type>/ (base: a store's cards/ or pending/ directory), by
 * directory listing and lstat only, so the hooks can afford it. Links are never followed: not the
 * base, not a type directory, not a card file.
 */
export function cardFileStats(base: string): CardFileStat[] {
  const out: CardFileStat[] = []
  if (!isRealDir(base)) return out
  for (const type of CARD_TYPES) {
    const dir = `${base}/${type}`
    if (!isRealDir(dir)) continue
    let names: string[]
    try {
      names = fs.readdirSync(dir)
    } catch {
      continue
    }
    for (const name of names) {
      if (!name.endsWith('.md') || name.startsWith('.')) continue
      const file = `${dir}/${name}`
      try {
        const st = fs.lstatSync(file)
        if (st.isFile()) out.push({type, name, file, size: st.size, mtime: st.mtimeMs, ctime: st.ctimeMs})
      } catch {
        // Gone since the listing.
      }
    }
  }
  return out
}
