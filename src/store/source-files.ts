import fs from 'node:fs'
import path from 'node:path'
import {CairnError, type Issue} from '../domain/errors.js'

/**
 * What one import may take, so a cloned repository cannot make it read without end: a folder walk visits at
 * most `entries` names, `depth` folders down; one file is read up to `fileBytes`, a whole import up to `batchBytes`.
 */
export interface SourceLimits {
  entries: number
  depth: number
  fileBytes: number
  batchBytes: number
}

export const SOURCE_LIMITS: SourceLimits = {entries: 20_000, depth: 32, fileBytes: 16 << 20, batchBytes: 64 << 20}

/** A source file an import reads. */
export interface SourceFile {
  /** As named or walked (absolute): where the card says it came from. */
  path: string
  /** The real path the text is read from: in the repository (or the folder named, for kinds that read outside it). */
  real: string
}

export interface SourceListing {
  files: SourceFile[]
  /** What was not read and should have been: a link out of the repository, an unreadable folder, a cap reached. */
  refused: Issue[]
  /** Left out on purpose, nothing lost: a link to a folder inside the repository, a second name for a file. */
  notes: string[]
}

export interface SourceQuery {
  cwd: string
  /** The repository root: a path inside it must really lead inside it. */
  root: string
  /** Files or folders, as given (relative to cwd) or absolute. */
  targets: string[]
  /** File name endings read inside a folder. */
  extensions: readonly string[]
  /** Whether a file (repository-relative POSIX path) is a source of the kind. */
  accepts: (rel: string) => boolean
  /** A named path outside the repository is read too (an OME library lives anywhere). */
  outside?: boolean
  limits?: SourceLimits
}

export const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)
const within = (dir: string, p: string) => p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep)

/** Whether anything is at the path, a link to nothing included (it is reported, not passed over). */
export function pathExists(p: string): boolean {
  try {
    fs.lstatSync(p)
    return true
  } catch {
    return false
  }
}

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
export function folderWalker(extensions: readonly string[], limits: SourceLimits, v: WalkVisitor) {
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
      v.refuse(top, `holds more than ${limits.entries} entries; the walk stopped at ${where}`,
        'name a smaller folder as PATH')
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

/**
 * The source files the targets name. A link is followed only to a work-tree file of the repository (or of the folder
 * named, for a kind that reads outside it), never into .git/ or .cairn/ nor to a dot file, which a walk skips too.
 * A folder walk never enters a folder link (a link can loop, or repeat a tree); a file reached by two names is read
 * once, by its own name.
 */
export function findSources(q: SourceQuery): SourceListing {
  const realRoot = fs.realpathSync(q.root)
  const out: SourceListing = {files: [], refused: [], notes: []}
  const rel = (p: string) => path.relative(q.root, p).split(path.sep).join('/') || '.'
  const relReal = (real: string) => path.relative(realRoot, real).split(path.sep).join('/') || '.'
  const refuse = (p: string, message: string, fix: string) =>
    out.refused.push({file: rel(p), field: '(path)', message, fix})
  const unfollowable = (p: string, error: unknown) =>
    refuse(p, `is a link that cannot be followed (${codeOf(error)})`,
      'remove the link, or point it at a file in the repository')
  const found: SourceFile[] = []
  let top = realRoot
  /** Refuses a link at p that leads where cairn must not read (`how` says whether p itself or a parent is the link). */
  const barred = (p: string, real: string, how: string): boolean => {
    if (!within(realRoot, real) && !within(top, real)) {
      refuse(p, `${how} ${real}, outside the repository; cairn never follows a link out of it`,
        'copy what should be imported into the repository, or remove the link')
    } else if (['.git', '.cairn'].includes(relReal(real).split('/')[0]) || path.basename(real).startsWith('.')) {
      refuse(p, `${how} ${relReal(real)}; cairn never reads git's folder, its own store or a dot file through a link`,
        'remove the link, or name the file itself as PATH if it holds rules')
    } else return false
    return true
  }
  const walk = folderWalker(q.extensions, q.limits ?? SOURCE_LIMITS, {
    file: (p, real) => found.push({path: p, real}),
    refuse,
    link(p, named) {
      const wanted = named && q.accepts(rel(p))
      const to = resolve(p)
      if (to instanceof Error) {
        if (wanted) unfollowable(p, to)
        return
      }
      // A link to a file of another kind is passed over, like that file would be.
      const folder = to.stat.isDirectory()
      if (!(wanted || folder) || barred(p, to.real, 'is a link to')) return
      if (!folder) found.push({path: p, real: to.real})
      else {
        const note = `${rel(p)}: a link to the folder ${relReal(to.real)}, not followed (a folder link can loop)`
        out.notes.push(`${note}. Fix: name that folder as PATH to import it`)
      }
    },
  })
  for (const target of q.targets) {
    const named = path.resolve(q.cwd, target)
    if (!pathExists(named)) throw new CairnError('not_found', `${target}: no such file or directory`)
    const inside = within(path.resolve(q.root), named) || within(realRoot, named)
    if (!inside && !q.outside) {
      refuse(named, 'is outside the repository', 'import files from inside the repository')
      continue
    }
    top = realRoot
    const to = resolve(named)
    if (to instanceof Error) unfollowable(named, to)
    else if (inside && rel(named) !== relReal(to.real) && barred(named, to.real, 'leads through a link to')) continue
    else if (!to.stat.isDirectory()) found.push({path: named, real: to.real})
    else {
      top = to.real
      if (!walk(named, to.real)) break
    }
  }
  out.files = once(found.filter(f => q.accepts(rel(f.path))), rel, relReal, out.notes)
  return out
}

/** Where a path really leads, and what is there; the error when it leads nowhere (a dangling link, a loop). */
function resolve(p: string): {real: string; stat: fs.Stats} | Error {
  try {
    const real = fs.realpathSync(p)
    return {real, stat: fs.statSync(real)}
  } catch (error) {
    return error as Error
  }
}

/** Each real file once: by the name that is no link when it has one (CLAUDE.md a link to AGENTS.md: AGENTS.md). */
function once(files: SourceFile[], rel: (p: string) => string, relReal: (p: string) => string, notes: string[]) {
  const viaLink = (f: SourceFile) => rel(f.path) !== relReal(f.real)
  const byReal = new Map<string, SourceFile>()
  for (const f of files) {
    const seen = byReal.get(f.real)
    if (!seen) {
      byReal.set(f.real, f)
      continue
    }
    const [keep, drop] = viaLink(seen) && !viaLink(f) ? [f, seen] : [seen, f]
    byReal.set(f.real, keep)
    notes.push(`${rel(drop.path)}: the same file as ${rel(keep.path)}, read once as ${rel(keep.path)}`)
  }
  return [...byReal.values()]
}
