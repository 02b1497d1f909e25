import fs from 'node:fs'
import path from 'node:path'
import {CairnError} from '../domain/errors.js'
import {normalizeProjectKey, projectKeyFromUrl} from '../domain/project-key.js'

export {projectKeyFromUrl} from '../domain/project-key.js'

/**
 * Git facts read straight from the file system, with no git library loaded: the prompt hook
 * needs the repo root and the project key within its time budget.
 */

/** Walks up from dir to the work-tree root (the directory holding .git, a dir or a file). */
export function findRepoRoot(dir: string): string | undefined {
  let current = path.resolve(dir)
  for (;;) {
    if (fs.existsSync(path.join(current, '.git'))) return current
    const parent = path.dirname(current)
    if (parent === current) return undefined
    current = parent
  }
}

/** The git directory of a work tree; a worktree or submodule has a ".git" file pointing to it. */
export function gitDir(root: string): string {
  const dotGit = path.join(root, '.git')
  const stat = fs.statSync(dotGit)
  if (stat.isDirectory()) return dotGit
  const m = /^gitdir:\s*(.+)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'))
  if (!m)
    throw new CairnError(
      'git',
      `${dotGit} is not a git directory link. Fix: repair or remove it; "git worktree repair" mends a worktree's link`,
    )
  return path.resolve(root, m[1])
}

/** The origin remote's URL from the repo's config (the common dir's, in a linked worktree). */
export function readOriginUrl(root: string): string | null {
  let dir: string
  try {
    dir = gitDir(root)
  } catch {
    return null
  }
  const common = path.join(dir, 'commondir')
  if (fs.existsSync(common)) dir = path.resolve(dir, fs.readFileSync(common, 'utf8').trim())
  let text: string
  try {
    text = fs.readFileSync(path.join(dir, 'config'), 'utf8')
  } catch {
    return null
  }
  let inOrigin = false
  for (const line of text.split(/\r?\n/)) {
    const section = /^\s*\[\s*([^\]]+?)\s*\]/.exec(line)
    if (section) {
      inOrigin = /^remote\s+"origin"$/i.test(section[1])
      continue
    }
    const kv = inOrigin ? /^\s*url\s*=\s*(.+?)\s*$/i.exec(line) : null
    if (kv) return kv[1].replace(/^"(.*)"$/, '$1')
  }
  return null
}

/** This project's key: the configured project_key, else the origin remote's, else null. */
export function projectKeyOf(root: string | undefined, configured: string | null): string | null {
  if (configured) return normalizeProjectKey(configured)
  if (!root) return null
  const url = readOriginUrl(root)
  return url ? projectKeyFromUrl(url) : null
}

/** The journal a transaction leaves in the git directory until it is done (see journal.ts). */
export const JOURNAL_NAME = 'cairn-journal.json'

/**
 * Whether a cairn write in this work tree was interrupted: one stat, so read paths (the prompt
 * hook too) can say so without loading git or the journal's reader.
 */
export function interruptedWrite(root: string): boolean {
  try {
    return fs.existsSync(path.join(gitDir(root), JOURNAL_NAME))
  } catch {
    return false
  }
}
