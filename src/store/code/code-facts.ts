import {CairnError} from '../../domain/errors.js'
import type {FileChange} from '../../domain/stale.js'
import type {Context} from '../../context.js'
import {readBlobs, runGit} from '../git.js'
import {headCommit, mergeBase} from '../cards/queries.js'
import type {Store} from '../layout.js'

/**
 * What the staleness check asks of the project's code (not its cards): how files changed between commits, which
 * symbols a tree still holds, which paths exist. Named questions, answered by a handful of git processes whatever the
 * number of cards: one diff-tree for every baseline, one grep per tree, one batch blob read.
 */

export type {FileChange}

export interface CodeFacts {
  head(): Promise<string | null>
  /** Where HEAD's history and ref's meet, or the ref itself when they share no commit (a shallow clone). */
  base(ref: string): Promise<string>
  /** The commits in base..HEAD. */
  commitsSince(base: string): Promise<Set<string>>
  /** Which of these commits this clone holds. */
  known(commits: string[]): Promise<Set<string>>
  /** The change from each baseline to HEAD, limited to files under `limit` (repo-relative paths or folders) when given. */
  changes(baselines: string[], limit: string[] | null): Promise<Map<string, FileChange[]>>
  /** The commits, of those given, from which HEAD changed nothing outside the store (and the instruction files). */
  codeUnchangedSince(commits: string[]): Promise<Set<string>>
  /** Line counts of blobs. */
  lineCounts(blobs: string[]): Promise<Map<string, number>>
  /** Every file HEAD's tree holds. */
  files(): Promise<string[]>
  /**
   * Which of the symbols occur as words in the tree at commit (the working tree's files, tracked or not ignored, when
   * null; only in `paths` when given), outside cairn's own files.
   */
  symbolsFound(symbols: string[], commit: string | null, paths?: string[]): Promise<Set<string>>
  /** The commit (and its time) that last wrote each card file. */
  lastCommits(cardPaths: string[]): Promise<Map<string, {commit: string; at: string}>>
}

/** A cited file bigger than this is not read to count its lines (no rewrite is reported for it). */
const MAX_BLOB_BYTES = 4 * 1024 * 1024

/** Files that hold a card's own text (the store, and the instruction files cairn exports cards into). */
const NOT_CODE = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', '.cursor/rules', '.github/copilot-instructions.md']

export function openCodeFacts(ctx: Context, store: Store): CodeFacts {
  const root = store.root
  const git = (args: string[], input?: string) => runGit(ctx, root, args, {input})
  const exclude = [store.prefix || '.cairn', ...NOT_CODE].map(p => `:(top,exclude,literal)${p}`)
  return {
    head: () => headCommit(ctx, store),
    base: ref => mergeBase(ctx, store, ref),
    async commitsSince(base) {
      const out = await git(['rev-list', `${base}..HEAD`]).catch(() => '')
      return new Set(out.split('\n').filter(Boolean))
    },
    async known(commits) {
      if (!commits.length) return new Set()
      const out = await git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], `${commits.join('\n')}\n`)
      return new Set(
        out
          .split('\n')
          .map(l => l.split(' '))
          .filter(([, type]) => type === 'commit')
          .map(([id]) => id),
      )
    },
    async changes(baselines, limit) {
      const head = await headCommit(ctx, store)
      return head && baselines.length && limit?.length !== 0 ? changesSince(git, head, baselines, limit) : new Map()
    },
    async codeUnchangedSince(commits) {
      const head = await headCommit(ctx, store)
      if (!head || !commits.length) return new Set()
      const input = commits.map(c => `${head} ${c}`).join('\n') + '\n'
      const out = await git(
        ['diff-tree', '--stdin', '--always', '-r', '--name-only', '-z', '--', ':(top)', ...exclude],
        input,
      )
      // Each group is HEAD's id (the header --always prints), then the names of the files it changed.
      const sizes: number[] = []
      for (const token of out.split('\0')) {
        if (token === head) sizes.push(0)
        else if (token && sizes.length) sizes[sizes.length - 1]++
      }
      return new Set(commits.filter((_, i) => sizes[i] === 0))
    },
    async lineCounts(blobs) {
      const ids = [...new Set(blobs)]
      if (!ids.length) return new Map()
      // Sizes first: a cited file too big to be source (a data dump, a bundle) is never read into memory.
      const sizes = await git(['cat-file', '--batch-check=%(objectname) %(objectsize)'], `${ids.join('\n')}\n`)
      const small = sizes
        .split('\n')
        .map(l => l.split(' '))
        .filter(([id, size]) => id && Number(size) <= MAX_BLOB_BYTES)
        .map(([id]) => id)
      const text = await readBlobs(ctx, root, small)
      return new Map(
        [...text].map(([id, t]) => [id, t.length === 0 ? 0 : t.split('\n').length - (t.endsWith('\n') ? 1 : 0)]),
      )
    },
    async files() {
      const out = await git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', 'HEAD']).catch(() => '')
      return out.split('\0').filter(Boolean)
    },
    symbolsFound: (symbols, commit, paths) => symbolsFound(git, exclude, symbols, commit, paths),
    lastCommits: cardPaths => lastCommits(git, store, cardPaths),
  }
}

type Git = (args: string[], input?: string) => Promise<string>

async function symbolsFound(
  git: Git,
  exclude: string[],
  symbols: string[],
  commit: string | null,
  paths?: string[],
): Promise<Set<string>> {
  const wanted = [...new Set(symbols.filter(s => s.trim() && !/[\r\n]/.test(s)))]
  if (!wanted.length || (paths && !paths.length)) return new Set()
  const where = paths ? paths.map(p => `:(top,literal)${p}`) : [':(top)']
  const tree = commit === null ? ['--untracked'] : []
  // A user's grep.lineNumber or grep.column would prefix each match; the options here override them.
  const args = [
    'grep',
    '-F',
    '-w',
    '-o',
    '-h',
    '-I',
    '--no-color',
    '--no-line-number',
    '--no-column',
    ...tree,
    '-f',
    '-',
    ...(commit ? [commit] : []),
  ]
  args.push('--', ...where, ...exclude)
  // -o prints the longest match where several start (parseConfig.strict hides parseConfig there): the symbols not
  // printed are asked again on their own, until a pass finds none of them.
  const found = new Set<string>()
  let asked = wanted
  for (let pass = 0; pass < 4 && asked.length; pass++) {
    let out: string
    try {
      out = await git(args, `${asked.join('\n')}\n`)
    } catch (error) {
      if (/^git exited with code 1$/.test((error as Error).message)) break // none of them
      throw new CairnError(
        'git',
        `Git grep failed while looking for the cards' symbols: ${(error as Error).message.trim().replace(/\.$/, '')}. Fix: check that git works in this repository, then run the command again`,
      )
    }
    const printed = new Set(out.split('\n'))
    const now = asked.filter(s => printed.has(s))
    if (!now.length) break
    for (const s of now) found.add(s)
    // Only a symbol inside another one found can have been hidden by it; the rest are truly missing.
    asked = asked.filter(s => !printed.has(s) && now.some(f => f.length > s.length && f.includes(s)))
  }
  return found
}

async function lastCommits(
  git: Git,
  store: Store,
  cardPaths: string[],
): Promise<Map<string, {commit: string; at: string}>> {
  const times = new Map<string, {commit: string; at: string}>()
  if (!cardPaths.length) return times
  const wanted = new Set(cardPaths)
  const dir = `${store.prefix || '.'}/cards`
  const out = await git([
    'log',
    '--no-show-signature',
    '--format=%x00%H %cI',
    '--name-only',
    '--no-renames',
    'HEAD',
    '--',
    dir,
  ]).catch(() => '')
  for (const entry of out.split('\0').filter(Boolean)) {
    const [header, ...files] = entry.split('\n').filter(Boolean)
    // Anything but "<sha> <date>" (a signature a user's log config prints) is not an entry.
    if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})? \S+$/.test(header ?? '')) continue
    const [commit, date] = header.split(' ')
    // Committer dates as every other cairn time is written: UTC, to the second.
    const at = new Date(date).toISOString().replace(/\.\d{3}Z$/, 'Z')
    for (const f of files) if (wanted.has(f) && !times.has(f)) times.set(f, {commit, at})
  }
  return times
}

/** The change from each baseline to HEAD (CodeFacts.changes). */
async function changesSince(
  git: Git,
  head: string,
  baselines: string[],
  limit: string[] | null,
): Promise<Map<string, FileChange[]>> {
  const out = new Map<string, FileChange[]>()
  // One process for every baseline: each input line is HEAD with the baseline as its parent, so the output is the
  // change from the baseline to HEAD, one group per line, in order (--always prints a group's header when empty).
  const args = ['diff-tree', '--stdin', '--always', '-r', '--raw', '--numstat', '-z', '--no-ext-diff', '--no-textconv']
  const run = async (from: string[], extra: string[]) =>
    parseDiffTree(await git([...args, ...extra], from.map(b => `${head} ${b}`).join('\n') + '\n'))
  if (!limit) {
    const groups = await run(baselines, ['-M'])
    baselines.forEach((b, i) => out.set(b, groups[i] ?? []))
    return out
  }
  // Limited to the cited paths (cheap however old the baseline), a rename out of them looks like a deletion: only
  // the baselines that lost a cited file are asked again, of the whole tree, where the rename shows.
  const specs = ['--', ...limit.map(p => `:(top,literal)${p}`)]
  const limited = await run(baselines, ['--no-renames', '--diff-filter=DM', ...specs])
  const lost = baselines.filter((_, i) => limited[i]?.some(c => c.status === 'D'))
  const whole = lost.length ? await run(lost, ['-M', '--diff-filter=DR']) : []
  const wholeOf = new Map(lost.map((b, i) => [b, whole[i] ?? []]))
  baselines.forEach((b, i) => {
    const modified = (limited[i] ?? []).filter(c => c.status === 'M')
    out.set(b, [...(wholeOf.get(b) ?? []), ...modified])
  })
  return out
}

/**
 * Splits `diff-tree --stdin -z --raw --numstat` output into one list per input line. A group is a header (the commit
 * id), raw entries (":modes blobs status\0path\0[to\0]") and numstat entries ("added\tdeleted\tpath\0", or for a rename
 * "added\tdeleted\t\0from\0to\0").
 */
export function parseDiffTree(raw: string): FileChange[][] {
  const tokens = raw.split('\0')
  const groups: FileChange[][] = []
  let current: FileChange[] | undefined
  let byPath = new Map<string, FileChange>()
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]
    if (/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(t)) {
      current = []
      byPath = new Map()
      groups.push(current)
    } else if (t.startsWith(':') && current) {
      const [, , baseBlob, , code] = t.slice(1).split(' ')
      const status = code[0] as FileChange['status']
      const twoPaths = status === 'R' || status === 'C'
      const change: FileChange = {
        status,
        path: tokens[++i],
        to: twoPaths ? tokens[++i] : null,
        baseBlob: /^0+$/.test(baseBlob) ? '' : baseBlob,
        deleted: null,
      }
      current.push(change)
      byPath.set(change.path, change)
    } else if (/^(\d+|-)\t(\d+|-)\t/.test(t) && current) {
      const [, , deleted, name] = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(t)!
      const file = name === '' ? tokens[(i += 2) - 1] : name
      const change = byPath.get(file)
      if (change) change.deleted = deleted === '-' ? null : Number(deleted)
    }
  }
  return groups
}
