import {splitFrontmatter} from '../../domain/frontmatter.js'
import {parseYaml} from '../../domain/yaml.js'
import {MAX_CARD_BYTES} from '../../domain/card/types.js'
import {CairnError} from '../../domain/errors.js'
import {type Context, isoSeconds} from '../../context.js'
import {gitClient, gitFailure, readBlobs, runGit} from '../git.js'
import type {Store} from '../layout.js'

/** Named git questions the app asks (the way @changesets/git names them); no caller builds git arguments. */

/** The commit a ref (a branch, tag or commit) names; an unknown ref is exit 4. */
export async function commitOf(ctx: Context, store: Store, ref: string): Promise<string> {
  if (ref.startsWith('-') || !ref.trim())
    throw new CairnError('usage', `"${ref}" is not a git ref. Fix: give a branch, tag or commit, such as origin/main`)
  const sha = await gitClient(ctx, store.root)
    .raw(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    .catch(() => '')
  if (!sha.trim())
    throw new CairnError(
      'not_found',
      `Unknown git ref "${ref}". Fix: give a branch, tag or commit this repository has; "git branch -a" lists the branches`,
    )
  return sha.trim()
}

/** The commit HEAD is at, or null in a repository without commits. Asked on every write: git directly, not simple-git. */
export async function headCommit(ctx: Context, store: Store): Promise<string | null> {
  const sha = await runGit(ctx, store.root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => '')
  return sha.trim() || null
}

/** Where HEAD's history and ref's meet, or ref's own commit when they share none (a shallow clone). */
export async function mergeBase(ctx: Context, store: Store, ref: string): Promise<string> {
  const commit = await commitOf(ctx, store, ref)
  const found = await gitClient(ctx, store.root)
    .raw(['merge-base', commit, 'HEAD'])
    .catch(() => '')
  return found.trim() || commit
}

/**
 * Pending card files added since ref (a branch, tag or commit), as repo-relative paths: added in the
 * working tree since where HEAD's history and ref's meet, so a card the base branch approved after
 * this branch left it is not counted as this branch's (the ref itself without a common commit).
 */
export async function addedSince(ctx: Context, store: Store, ref: string): Promise<Set<string>> {
  const {paths} = await diffSince(ctx, store, ref, {filter: 'A', dir: 'pending'})
  return new Set(paths)
}

/** Every file the tree of the commit `ref` names holds, repo-relative (a pull request's base, for CODEOWNERS). */
export async function filesAt(ctx: Context, store: Store, ref: string): Promise<string[]> {
  const sha = await commitOf(ctx, store, ref)
  const out = await gitClient(ctx, store.root).raw(['ls-tree', '-r', '-z', '--name-only', '--full-tree', sha])
  return out.split('\0').filter(Boolean)
}

/**
 * Paths under one store folder that the working tree added (A) or changed in place (M) since where HEAD's history and
 * ref's meet (the ref itself without a common commit), and that commit: a branch's own change, not its base's.
 */
async function diffSince(
  ctx: Context,
  store: Store,
  ref: string,
  options: {filter: 'A' | 'M'; dir: 'pending' | 'cards'},
): Promise<{base: string; paths: string[]}> {
  const git = gitClient(ctx, store.root)
  const base = await mergeBase(ctx, store, ref)
  const dir = `${store.prefix || '.'}/${options.dir}`
  const out = await git.raw([
    'diff',
    '--name-only',
    '--no-renames',
    `--diff-filter=${options.filter}`,
    '-z',
    base,
    '--',
    dir,
  ])
  return {base, paths: out.split('\0').filter(Boolean)}
}

/** Whether the working tree changed anything in the store since where HEAD's history and ref's meet. */
export async function storeChangedSince(ctx: Context, store: Store, ref: string): Promise<boolean> {
  const base = await mergeBase(ctx, store, ref)
  const out = await gitClient(ctx, store.root).raw([
    'diff',
    '--name-only',
    '--no-renames',
    base,
    '--',
    store.prefix || '.',
  ])
  return out.trim() !== ''
}

/** Last commit time of each path, from one walk of the log (newest first) rather than one git call per card. */
export async function lastCommitTimes(ctx: Context, store: Store, paths: string[]): Promise<Map<string, string>> {
  const times = new Map<string, string>()
  if (paths.length === 0) return times
  const wanted = new Set(paths)
  let out: string
  try {
    out = await gitClient(ctx, store.root).raw([
      'log',
      '--format=%x00%cI',
      '--name-only',
      '--no-renames',
      '--',
      `${store.prefix || '.'}/cards`,
    ])
  } catch {
    return times // no commits yet
  }
  for (const entry of out.split('\0').filter(Boolean)) {
    const [date, ...files] = entry
      .split('\n')
      .map(l => l.trim())
      .filter(Boolean)
    for (const f of files) if (wanted.has(f) && !times.has(f)) times.set(f, isoSeconds(new Date(date)))
  }
  return times
}

/** `git status --porcelain` lines for the store's directory (uncommitted and untracked files). */
export async function statusOf(ctx: Context, store: Store): Promise<string[]> {
  try {
    const out = await gitClient(ctx, store.root).raw([
      'status',
      '--porcelain',
      '--untracked-files=all',
      '--',
      store.prefix || '.',
    ])
    return out.split('\n').filter(Boolean)
  } catch (error) {
    throw gitFailure(error, 'reading git status')
  }
}

/**
 * Card files under cards/ that the working tree changed in place since where HEAD's history and ref's meet, each with
 * its text there: what a pull request did to the active cards. A file that was no plain file there, or over the card
 * size limit, is left out (lint reports the working tree's).
 */
export async function changedCardsSince(
  ctx: Context,
  store: Store,
  ref: string,
): Promise<{path: string; before: string}[]> {
  const {base, paths} = await diffSince(ctx, store, ref, {filter: 'M', dir: 'cards'})
  const cards = paths.filter(p => p.endsWith('.md'))
  if (cards.length === 0) return []
  // Two git processes for any number of cards: one listing of the cards folder at the base (its arguments do not grow
  // with the pull request), one batch read of the changed cards' blobs.
  const changed = new Set(cards)
  const dir = `${store.prefix || '.'}/cards`
  const listing = await gitClient(ctx, store.root).raw(['ls-tree', '-r', '-l', '-z', '--full-tree', base, '--', dir])
  const blobs = new Map<string, string>()
  for (const entry of listing.split('\0')) {
    const m = /^(100644|100755) blob ([0-9a-f]+) +(\d+)\t(.+)$/s.exec(entry)
    if (m && changed.has(m[4]) && Number(m[3]) <= MAX_CARD_BYTES) blobs.set(m[4], m[2])
  }
  const text = await readBlobs(ctx, store.root, [...new Set(blobs.values())])
  return cards
    .filter(p => blobs.has(p) && text.has(blobs.get(p)!))
    .map(p => ({path: p, before: text.get(blobs.get(p)!)!}))
}

/** What every patch query here passes: no user diff config (external diff, textconv, colour, prefixes) applies. */
const PATCH = [
  '-p',
  '--no-renames',
  '--no-ext-diff',
  '--no-textconv',
  '--text',
  '--no-color',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  '--unified=0',
]

/**
 * The source keys (`import:<path>#<anchor>`) of the pending cards a reviewer rejected on HEAD's history, for an
 * import not to propose them again. Two git processes:
 * - the Cairn-Source lines of any commit message, read anywhere in it. A squash merge that keeps the messages keeps
 *   them, even when the branch both imported and rejected the card (its squash deletes nothing).
 * - for reject commits made before that trailer, the source sessions of the cards they deleted.
 */
export async function rejectedSources(ctx: Context, store: Store): Promise<Set<string>> {
  const git = gitClient(ctx, store.root)
  const dir = `${store.prefix || '.'}/pending`
  let named: string
  let older: string
  try {
    // Explicit options override the user's log, diff and grep config; --full-history keeps a reject made on a
    // branch whose merge took the other side's tree.
    const grep = ['--full-history', '--fixed-strings', '--grep=Cairn-Source: import:']
    named = await git.raw(['log', '--format=%B', ...grep, 'HEAD'])
    older = await git.raw([
      'log',
      '--format=%x00%B%x00',
      '--full-history',
      '--basic-regexp',
      '--grep=^Cairn-Op: reject$',
      '--diff-filter=D',
      ...PATCH,
      'HEAD',
      '--',
      dir,
    ])
  } catch (error) {
    if (!(await headCommit(ctx, store))) return new Set()
    throw gitFailure(error, 'reading the rejected cards')
  }
  const keys = new Set(sourceLines(named))
  // Messages and patches alternate: '', message, patch, message, patch…
  const parts = older.split('\0')
  for (let i = 1; i < parts.length; i += 2) {
    if (sourceLines(parts[i]).length === 0) for (const key of deletedSources(parts[i + 1] ?? '')) keys.add(key)
  }
  return keys
}

/** The keys of a message's Cairn-Source lines, indented or not (git's squash message indents each message). */
const sourceLines = (message: string): string[] =>
  [...message.matchAll(/^[ \t]*Cairn-Source: (import:\S.*)$/gm)].map(m => m[1].trimEnd())

/**
 * The import source sessions of the cards a patch deletes, each card rebuilt from its removed lines. Only the
 * frontmatter's provenance is read: a card today's schema refuses (an older cairn's) still names its source.
 */
function deletedSources(patch: string): string[] {
  return patchFiles(patch, '-').flatMap(({text}) => {
    try {
      const data = parseYaml(splitFrontmatter(text, 'rejected card')?.yaml ?? '', 'rejected card') as {
        provenance?: {source_sessions?: unknown}
      }
      const sessions = data?.provenance?.source_sessions
      return Array.isArray(sessions)
        ? sessions.filter((x): x is string => typeof x === 'string' && x.startsWith('import:'))
        : []
    } catch {
      return []
    }
  })
}

/**
 * Each file of a whole-file patch (`--unified=0`, one added or deleted file each): its path and its text. The path
 * is the header's (`--- a/…` or `+++ b/…`, the prefixes pinned by PATCH), as git quotes it when it holds odd bytes.
 */
function patchFiles(patch: string, sign: '+' | '-'): {path: string; text: string}[] {
  const head = sign === '+' ? /^\+\+\+ "?b\/(.*?)"?$/ : /^--- "?a\/(.*?)"?$/
  return patch.split(/^diff --git /m).flatMap(file => {
    const lines = file.split('\n')
    const hunk = lines.findIndex(line => line.startsWith('@@'))
    const named = lines
      .slice(0, Math.max(hunk, 0))
      .map(line => head.exec(line)?.[1])
      .find(Boolean)
    if (hunk < 0 || !named) return []
    const body = lines.slice(hunk + 1).filter(line => line.startsWith(sign))
    return [{path: named, text: `${body.map(line => line.slice(1)).join('\n')}\n`}]
  })
}

/** Pathspecs per git process: well under any argument-length limit, and few processes at any count of cards. */
const IDS_PER_CALL = 500

/**
 * The text each of these cards had when it was proposed (its latest addition under pending/ on HEAD's history: an id
 * a reject freed and a later card took is that later card's), by id; a card git has no addition of is absent. One
 * git process per 500 cards.
 */
export async function asProposed(ctx: Context, store: Store, ids: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  const dir = `${store.prefix || '.'}/pending`
  for (let at = 0; at < ids.length; at += IDS_PER_CALL) {
    let out: string
    try {
      out = await gitClient(ctx, store.root).raw([
        'log',
        '--format=%x00',
        '--full-history',
        '--diff-filter=A',
        ...PATCH,
        'HEAD',
        '--',
        ...ids.slice(at, at + IDS_PER_CALL).map(id => `${dir}/*/${id}.md`),
      ])
    } catch (error) {
      if (!(await headCommit(ctx, store))) return found
      throw gitFailure(error, 'reading the cards as proposed')
    }
    // Newest first: a card's latest addition is the first one read.
    for (const {path, text} of patchFiles(out, '+')) {
      const id = /([a-z0-9-]+)\.md$/.exec(path)?.[1]
      if (id && !found.has(id)) found.set(id, text)
    }
  }
  return found
}
