import fs from 'node:fs'
import path from 'node:path'

/** The errno code of a failed call (ELOOP, EACCES, ENAMETOOLONG ...), for a message. */
export const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)

/** What a folder walk reports: each file and link whose name it reads, and what it could not visit. */
export interface WalkVisitor {
  file(p: string, real: string): void
  /** A link: never entered by the walk; `wanted` when its name ends with one of the extensions. */
  link(p: string, wanted: boolean): void
  refuse(p: string, message: string, fix: string): void
}

/**
 * A walker over folders, sorted, dot names skipped, that never enters a link and reads at most `limits.entries` names
 * over all its walks, `limits.depth` folders down; an unreadable folder is reported, never thrown.
 */
export function folderWalker(extensions: readonly string[], limits: {entries: number; depth: number}, v: WalkVisitor) {
  let left = limits.entries
  const walk = (dir: string, realDir: string, top: string, depth: number): boolean => {
    const listed = list(realDir, left)
    if (listed instanceof Error) {
      const fix = 'make the folder readable, or name the files to import as PATH'
      v.refuse(dir, `cannot be read (${codeOf(listed)})`, fix)
      return true
    }
    if (listed.read > left) {
      const where = path.relative(top, dir) || '.'
      v.refuse(
        top,
        `holds more than ${limits.entries} entries; the walk stopped at ${where}`,
        'name a smaller folder as PATH',
      )
      return false
    }
    left -= listed.read
    for (const e of listed.entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = path.join(dir, e.name)
      const wanted = extensions.some(x => e.name.endsWith(x))
      if (e.isDirectory()) {
        if (depth < limits.depth) {
          if (!walk(p, path.join(realDir, e.name), top, depth + 1)) return false
        } else {
          const fix = 'name it, or a folder nearer to it, as PATH'
          v.refuse(p, `is more than ${limits.depth} folders deep; not read`, fix)
        }
      } else if (e.isSymbolicLink()) v.link(p, wanted)
      else if (wanted) v.file(p, path.join(realDir, e.name))
    }
    return true
  }
  /** Walks the folder `dir`, whose real path is `realDir`; false when the entries cap stopped it. */
  return (dir: string, realDir: string): boolean => walk(dir, realDir, dir, 0)
}

/**
 * A folder's entries without dot names, having read at most `most` + 1 names (dot names count: they are read too),
 * so a huge folder is never listed whole; `read` says how many were.
 */
function list(realDir: string, most: number): {entries: fs.Dirent[]; read: number} | Error {
  let dir: fs.Dir
  try {
    dir = fs.opendirSync(realDir)
  } catch (error) {
    return error as Error
  }
  try {
    const entries: fs.Dirent[] = []
    let read = 0
    for (let e = dir.readSync(); e; e = read > most ? null : dir.readSync()) {
      read++
      if (!e.name.startsWith('.')) entries.push(e)
    }
    return {entries, read}
  } catch (error) {
    return error as Error
  } finally {
    dir.closeSync()
  }
}
