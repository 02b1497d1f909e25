import fs from 'node:fs'
import path from 'node:path'
import {validationError} from '../../domain/errors.js'
import {decodeUtf8} from '../../domain/text.js'
import {removeStaleTemps, writeFileAtomic} from './fsutil.js'

/** Agent instruction files are prose; anything bigger is not one. */
const MAX_BYTES = 4 * 1024 * 1024
const utf8 = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true})

/**
 * Files in the project's work tree that exports own or share with the user (AGENTS.md, .cursor/rules/): outside the
 * store, never committed (like install), each written atomically. Paths are repo-relative POSIX.
 */
export interface RepoFiles {
  /** The file's text, byte for byte (a BOM kept), or null when it does not exist. */
  read(rel: string): string | null
  write(rel: string, content: string): void
  /** Names of the files in a directory; none when it does not exist. */
  list(dirRel: string): string[]
  remove(rel: string): void
}

export function openRepoFiles(root: string): RepoFiles {
  const realRoot = fs.realpathSync(root)
  const located = (rel: string) => locate(realRoot, rel)
  return {
    read(rel) {
      const file = located(rel)
      let stat: fs.Stats
      try {
        stat = fs.statSync(file)
      } catch {
        return null
      }
      const problem = !stat.isFile()
        ? 'is not a regular file'
        : stat.size > MAX_BYTES
          ? `is over ${MAX_BYTES} bytes`
          : null
      const fix = 'replace it with a text file'
      if (problem) throw validationError([{file: rel, field: '(file)', message: problem, fix}])
      let bytes: Buffer
      try {
        bytes = fs.readFileSync(file)
      } catch (error) {
        // Removed since the stat (a concurrent export, say): it does not exist.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
      try {
        return utf8.decode(bytes)
      } catch {
        return decodeUtf8(bytes, rel) // throws the error that names the first bad byte
      }
    },
    write(rel, content) {
      const file = located(rel)
      writeFileAtomic(file, content)
      // A run killed mid-write left its temp file beside this one; once a minute old it is nobody's.
      removeStaleTemps([file], Date.now())
    },
    list(dirRel) {
      try {
        return fs
          .readdirSync(located(dirRel), {withFileTypes: true})
          .filter(e => e.isFile())
          .map(e => e.name)
          .sort()
      } catch {
        return []
      }
    },
    remove: rel => fs.rmSync(located(rel), {force: true}),
  }
}

/**
 * The real path to read and write. A link is followed (CLAUDE.md is often a link to AGENTS.md, and a rename would
 * replace the link with a file) but only to a place inside the repository.
 */
function locate(realRoot: string, rel: string): string {
  const file = path.join(realRoot, ...rel.split('/'))
  let real: string
  try {
    real = fs.realpathSync(file)
  } catch {
    // Absent: resolve the nearest existing parent, so a linked directory is checked too.
    let dir = path.dirname(file)
    while (!fs.existsSync(dir)) dir = path.dirname(dir)
    real = path.join(fs.realpathSync(dir), path.relative(dir, file))
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
    throw validationError([
      {
        file: rel,
        field: '(file)',
        message: `is a link to ${real}, outside the repository`,
        fix: 'replace the link with a regular file, or export to another file',
      },
    ])
  }
  return real
}
