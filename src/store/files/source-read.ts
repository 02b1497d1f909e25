import fs from 'node:fs'
import path from 'node:path'
import type {Context} from '../../context.js'
import {runGit} from '../git.js'
import {validationError} from '../../domain/errors.js'
import {decodeUtf8} from '../../domain/text.js'
import {codeOf} from './folder-walk.js'
import {
  findSources,
  pathExists,
  SOURCE_LIMITS,
  type SourceFile,
  type SourceLimits,
  type SourceListing,
  type SourceQuery,
} from './source-files.js'

/** Opens without following a final link and without blocking on a FIFO; the descriptor's stat says what it is. */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0)

/**
 * Reads source files as strict UTF-8, each a regular file within the per-file cap, until the import's byte budget
 * is spent. Every refusal is a validation error naming the file (its label), what is wrong and the fix.
 */
export function sourceReader(limits: SourceLimits = SOURCE_LIMITS): {read(file: SourceFile, label: string): string} {
  let used = 0
  const refusal = (label: string, message: string, fix: string) =>
    validationError([{file: label, field: '(file)', message, fix}])
  const elsewhere = 'move it out of the folder imported'
  return {
    read(file, label) {
      if (used >= limits.batchBytes) {
        const fix = 'import the rest in another run, naming a smaller folder as PATH'
        throw refusal(label, `not read: the import already read ${used} bytes (the limit is ${limits.batchBytes})`, fix)
      }
      let fd: number
      try {
        fd = fs.openSync(file.real, OPEN_FLAGS)
      } catch (error) {
        throw refusal(label, `cannot be read (${codeOf(error)})`, `make it a readable regular file, or ${elsewhere}`)
      }
      try {
        const stat = fs.fstatSync(fd)
        if (!stat.isFile()) {
          throw refusal(label, 'is not a regular file', `replace it with a text file, or ${elsewhere}`)
        }
        const tooBig = (size: number) => {
          const message = `is ${size} bytes, over the ${limits.fileBytes}-byte limit for one source file`
          return refusal(label, message, 'split it into smaller files')
        }
        if (stat.size > limits.fileBytes) throw tooBig(stat.size)
        const bytes = readUpTo(fd, stat.size, limits.fileBytes + 1)
        if (bytes.length > limits.fileBytes) throw tooBig(bytes.length)
        used += bytes.length
        return decodeUtf8(bytes, label)
      } finally {
        fs.closeSync(fd)
      }
    },
  }
}

/** At most `most` bytes, in steps from the size the stat gave: a file that grows meanwhile still stops at `most`. */
function readUpTo(fd: number, size: number, most: number): Buffer {
  const chunks: Buffer[] = []
  let total = 0
  let want = Math.min(size + 1, most)
  while (total < most) {
    const buf = Buffer.allocUnsafe(want)
    const n = fs.readSync(fd, buf, 0, want, total)
    if (n > 0) chunks.push(buf.subarray(0, n))
    total += n
    if (n < want) break
    want = Math.min(64 * 1024, most - total)
  }
  return Buffer.concat(chunks, total)
}

/** An import's sources: the files and folders it names, found and read within SOURCE_LIMITS. As Stores.sources hands them out. */
export interface SourceFiles {
  /** Whether anything is at the path, a link to nothing included (it is reported, not passed over). */
  exists(p: string): boolean
  /** The source files the targets name; a link is followed only within the repository (or the folder named). */
  find(q: SourceQuery): SourceListing
  /** A reader for one import: each file a regular file within the per-file cap, until the import's budget is spent. */
  reader(): {read(file: SourceFile, label: string): string}
  /**
   * The work tree's files with one of these names at any depth (the case as given: `docs/agents.md` is a document
   * about agents, not their rules), tracked or not but never ignored, and on disk (a deleted file git still tracks is
   * not one), as `git ls-files` lists them: repository-relative, sorted, none in cairn's own store (.cairn/).
   */
  named(root: string, names: readonly string[]): Promise<string[]>
}

export function openSources(ctx: Context): SourceFiles {
  return {
    exists: pathExists,
    find: findSources,
    reader: () => sourceReader(),
    async named(root, names) {
      const specs = names.map(n => `:(glob)**/${n}`)
      const out = await runGit(ctx, root, [
        'ls-files',
        '-z',
        '--cached',
        '--others',
        '--exclude-standard',
        '--',
        ...specs,
      ])
      // cairn's own store is not a source; a dot folder can be (.claude/CLAUDE.md, .github/workflows/CLAUDE.md).
      const files = new Set(
        out.split('\0').filter(f => f && !f.startsWith('.cairn/') && fs.existsSync(path.join(root, f))),
      )
      return [...files].sort()
    },
  }
}
