import fs from 'node:fs'
import path from 'node:path'
import {type Context, withContext} from '../../context.js'
import {gitDir, runGit} from '../git.js'
import {COMMIT_FILES, indexEntries} from './journal.js'
import type {Store} from '../layout.js'

/**
 * How a transaction's commit is made, once its paths are staged. Every file below lives in the git directory, is
 * written before git starts and removed after it, and by the journal's recovery after a kill (COMMIT_FILES).
 */

const ZERO = '0'.repeat(40)

/**
 * From how many paths the temporary index pays: its fixed cost (a dozen git processes, HEAD's whole tree read and
 * written) is about what `git commit` spends re-reading 500 paths written in the same second as the index.
 */
export const TREE_COMMIT_MIN_PATHS = 500

/**
 * Commits exactly the staged paths among ours, as `git commit -- <paths>` does, and returns the commit (null when
 * none of ours is staged). A large commit (TREE_COMMIT_MIN_PATHS) that needs nothing but git's own plumbing (no hook
 * runs, no signing, git's clean-up leaves the message as it is) is built from a temporary index: HEAD's tree with our paths' staged
 * entries (`git write-tree`, `git commit-tree`), and HEAD moves only if it is still the one the journal recorded
 * (`git update-ref`). `git commit -- <paths>` refreshes the whole index twice and, with our files written in the same
 * second as the index, re-reads every one of them: 3 s of approving 10,000 cards. The user's own staged changes stay
 * out of both, and the real index already holds our entries.
 */
export async function commitPaths(
  ctx: Context,
  store: Store,
  commit: {message: string; paths: string[]; verify: boolean; head: string | null},
  crash: () => void,
): Promise<string | null> {
  const staged = await runGit(ctx, store.root, ['diff', '--cached', '--name-only', '--no-renames', '-z'])
  const wanted = new Set(commit.paths)
  const ours = staged.split('\0').filter(p => wanted.has(p))
  if (ours.length === 0) return null
  const files = commitFiles(store)
  fs.writeFileSync(files.msg, commit.message)
  try {
    if (ours.length >= TREE_COMMIT_MIN_PATHS && (await plumbingWillDo(ctx, store, commit))) {
      const sha = await commitTree(ctx, store, ours, commit.head, files)
      // HEAD moves only from the HEAD the journal recorded: the commit lands whole, or not at all.
      await runGit(ctx, store.root, ['update-ref', '-m', reflogMessage(commit), 'HEAD', sha, commit.head ?? ZERO], {
        onSpawn: crash,
      })
      if (await autoMaintenance(ctx, store)) await maintain(ctx, store)
      return sha
    }
    fs.writeFileSync(files.paths, ours.join('\0'))
    const args = [
      'commit',
      '--quiet',
      ...(commit.verify ? [] : ['--no-verify']),
      '-F',
      files.msg,
      `--pathspec-from-file=${files.paths}`,
      '--pathspec-file-nul',
    ]
    await withIdentity(ctx, c => runGit(c, store.root, args, {onSpawn: crash}))
  } finally {
    for (const f of Object.values(files)) fs.rmSync(f, {force: true})
  }
  return (await runGit(ctx, store.root, ['rev-parse', 'HEAD'])).trim()
}

const commitFiles = (store: Store) => {
  const dir = gitDir(store.root)
  return {
    msg: path.join(dir, COMMIT_FILES.msg),
    paths: path.join(dir, COMMIT_FILES.paths),
    index: path.join(dir, COMMIT_FILES.index),
  }
}

/** `git commit`'s reflog entry. */
const reflogMessage = (commit: {message: string; head: string | null}): string =>
  `commit${commit.head ? '' : ' (initial)'}: ${commit.message.split('\n')[0]}`

/** Hooks `git commit` runs even with --no-verify. */
const ALWAYS_HOOKS = ['prepare-commit-msg', 'post-commit']
/**
 * commit.cleanup modes under which `git commit -F` keeps a message with no blank line at either end, no trailing
 * blanks and no doubled blank line as it is (strip and scissors would also take out comment lines).
 */
const KEEPING_CLEANUP = new Set(['', 'default', 'whitespace', 'verbatim'])

/**
 * Whether the plumbing makes the commit `git commit` would: no hook to run (commit.verify runs them through
 * `git commit`), no signature asked (commit.gpgsign), and a message git's clean-up leaves as it is.
 */
async function plumbingWillDo(
  ctx: Context,
  store: Store,
  commit: {message: string; verify: boolean},
): Promise<boolean> {
  if (commit.verify || !cleanMessage(commit.message)) return false
  const hooks = await runGit(ctx, store.root, ['rev-parse', ...ALWAYS_HOOKS.flatMap(h => ['--git-path', `hooks/${h}`])])
  for (const hook of hooks.split('\n').filter(Boolean)) {
    const file = path.resolve(store.root, hook)
    if (fs.existsSync(file)) return false
  }
  let config = ''
  try {
    config = await runGit(ctx, store.root, ['config', '-z', '--get-regexp', '^(commit\\.gpgsign|commit\\.cleanup)$'])
  } catch {
    // git config exits 1 when no key matches.
  }
  for (const entry of config.split('\0').filter(Boolean)) {
    const [key, value = ''] = entry.split('\n')
    if (key === 'commit.gpgsign' && !/^(false|no|off|0)$/i.test(value.trim())) return false
    if (key === 'commit.cleanup' && !KEEPING_CLEANUP.has(value.trim().toLowerCase())) return false
  }
  return true
}

/** A message git's whitespace clean-up keeps: one final newline, no blank line at the start, no trailing blanks, no doubled blank line. */
function cleanMessage(message: string): boolean {
  if (!message.endsWith('\n') || message.endsWith('\n\n')) return false
  const lines = message.slice(0, -1).split('\n')
  return lines[0] !== '' && lines.every((line, i) => !/\s$/.test(line) && !(line === '' && lines[i - 1] === ''))
}

/** The commit of HEAD's tree with our paths' staged entries, built in a temporary index; HEAD is not moved. */
async function commitTree(
  ctx: Context,
  store: Store,
  ours: string[],
  head: string | null,
  files: {msg: string; index: string},
): Promise<string> {
  const entries = await indexEntries(ctx, store, ours)
  const temp = withContext(ctx, {env: {...ctx.env, GIT_INDEX_FILE: files.index}})
  await runGit(temp, store.root, ['read-tree', ...(head ? [head] : ['--empty'])])
  const info = ours.map(p => `${entries[p] ?? `0 ${ZERO}`}\t${p}`)
  await runGit(temp, store.root, ['update-index', '-z', '--index-info'], {input: `${info.join('\0')}\0`})
  const tree = (await runGit(temp, store.root, ['write-tree'])).trim()
  const args = ['commit-tree', tree, ...(head ? ['-p', head] : []), '-F', files.msg]
  return (await withIdentity(ctx, c => runGit(c, store.root, args))).trim()
}

/** Whether `git commit` would start automatic maintenance here: unless maintenance.auto is false. */
async function autoMaintenance(ctx: Context, store: Store): Promise<boolean> {
  try {
    const value = (await runGit(ctx, store.root, ['config', '--type=bool', '--get', 'maintenance.auto'])).trim()
    return value !== 'false'
  } catch {
    // Unset (git config exits 1), or a value git cannot read as a boolean, which git commit reads as true too.
    return true
  }
}

/** What `git commit` runs after a commit: the repository's automatic maintenance, which detaches itself. */
async function maintain(ctx: Context, store: Store): Promise<void> {
  try {
    await runGit(ctx, store.root, ['maintenance', 'run', '--auto', '--quiet'])
  } catch {
    // The commit is in: maintenance is git's own housekeeping, as after `git commit`.
  }
}

/** Runs a git command that writes a commit; with no identity configured anywhere, it commits as cairn. */
async function withIdentity<T>(ctx: Context, run: (ctx: Context) => Promise<T>): Promise<T> {
  try {
    return await run(ctx)
  } catch (error) {
    const msg = String((error as Error).message)
    if (!/tell me who you are|empty ident|unable to auto-detect email/i.test(msg)) throw error
    const fallback = {
      GIT_AUTHOR_NAME: 'cairn',
      GIT_AUTHOR_EMAIL: 'cairn@localhost',
      GIT_COMMITTER_NAME: 'cairn',
      GIT_COMMITTER_EMAIL: 'cairn@localhost',
    }
    return run(withContext(ctx, {env: {...ctx.env, ...fallback}}))
  }
}
