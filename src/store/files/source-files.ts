import fs from 'node:fs'
import path from 'node:path'
import {CairnError, type Issue} from '../../domain/errors.js'
import {SOURCE_LIMITS, type SourceLimits} from '../../domain/import/limits.js'
import {codeOf, folderWalker} from './folder-walk.js'

export {SOURCE_LIMITS, type SourceLimits}

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
    refuse(
      p,
      `is a link that cannot be followed (${codeOf(error)})`,
      'remove the link, or point it at a file in the repository',
    )
  const found: SourceFile[] = []
  let top = realRoot
  /** Refuses a link at p that leads where cairn must not read (`how` says whether p itself or a parent is the link). */
  const barred = (p: string, real: string, how: string): boolean => {
    if (!within(realRoot, real) && !within(top, real)) {
      refuse(
        p,
        `${how} ${real}, outside the repository; cairn never follows a link out of it`,
        'copy what should be imported into the repository, or remove the link',
      )
    } else if (['.git', '.cairn'].includes(relReal(real).split('/')[0]) || path.basename(real).startsWith('.')) {
      refuse(
        p,
        `${how} ${relReal(real)}; cairn never reads git's folder, its own store or a dot file through a link`,
        'remove the link, or name the file itself as PATH if it holds rules',
      )
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
        out.notes.push(`${note}. Fix: name that folder as PATH to import it.`)
      }
    },
  })
  for (const target of q.targets) {
    const named = path.resolve(q.cwd, target)
    if (!pathExists(named))
      throw new CairnError('not_found', `No such file or directory: ${target}. Fix: check the path`)
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
  out.files = once(
    found.filter(f => q.accepts(rel(f.path))),
    rel,
    relReal,
    out.notes,
  )
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
