import fs from 'node:fs'
import path from 'node:path'
import type {Context} from '../../context.js'
import {runGit} from '../git.js'
import {network, NO_PROMPT, repoOf} from './org-paths.js'
import {crashPoint} from '../agents/agent-files.js'

/**
 * `cairn org promote`'s git work in an org layer's cache (org-cache.ts), under the cache's lock: a card committed as
 * pending on a branch made from the head of the layer's ref, without any work tree (a temporary index), and pushed.
 *
 * The branch is kept in the cache as refs/cairn/promote/<name>, not under refs/heads/: a fetch prunes refs/heads/ to
 * what the remote has, so a branch that could not be pushed would be lost by the next `cairn org update`. It is
 * pushed to refs/heads/cairn/promote/<name> on the remote.
 */

const PREFIX = 'cairn/promote/'
const NETWORK = network(60)
const localRef = (branch: string): string => `refs/cairn/promote/${branch.slice(PREFIX.length)}`

const git = (ctx: Context, dir: string, args: string[], options: {env?: Record<string, string>; input?: string} = {}) =>
  runGit(ctx, dir, ['--git-dir', repoOf(dir), ...args], options)

/** The cards (active or pending, any type) a commit of the org store has under this id: path and text. */
export async function orgCardsWithId(
  ctx: Context,
  dir: string,
  commit: string,
  id: string,
): Promise<{path: string; text: string}[]> {
  const out = await git(ctx, dir, [
    'ls-tree',
    '-r',
    '-z',
    '--name-only',
    commit,
    '--',
    '.cairn/cards',
    '.cairn/pending',
  ])
  const paths = out.split('\0').filter(p => new RegExp(`^\\.cairn/(?:cards|pending)/[a-z]+/${id}\\.md$`).test(p))
  return Promise.all(
    paths.map(async p => ({path: p, text: await git(ctx, dir, ['cat-file', 'blob', `${commit}:${p}`])})),
  )
}

/**
 * The promote branches for this id the cache knows, kept here or fetched from the remote, oldest name first, each
 * with the text it holds at `file` (null when it has none there).
 */
export async function promotionBranches(
  ctx: Context,
  dir: string,
  id: string,
  file: string,
): Promise<{branch: string; commit: string; text: string | null; pushed: boolean}[]> {
  const out = await git(ctx, dir, [
    'for-each-ref',
    '--format=%(refname) %(objectname)',
    `refs/cairn/promote/${id}`,
    `refs/cairn/promote/${id}-*`,
    `refs/heads/${PREFIX}${id}`,
    `refs/heads/${PREFIX}${id}-*`,
  ])
  const byBranch = new Map<string, {commit: string; remote: string | null}>()
  for (const line of out.split('\n').filter(Boolean)) {
    const [ref, commit] = line.split(' ')
    const remote = ref.startsWith('refs/heads/')
    const branch = remote ? ref.slice('refs/heads/'.length) : PREFIX + ref.slice('refs/cairn/promote/'.length)
    if (!new RegExp(`^${PREFIX}${id}(?:-\\d+)?$`).test(branch)) continue
    const seen = byBranch.get(branch) ?? {commit, remote: null}
    if (remote) seen.remote = commit
    else seen.commit = commit
    byBranch.set(branch, seen)
  }
  const suffix = (b: string) => Number(/-(\d+)$/.exec(b.slice(PREFIX.length + id.length))?.[1] ?? 1)
  const branches = [...byBranch.keys()].sort((a, b) => suffix(a) - suffix(b))
  return Promise.all(
    branches.map(async branch => {
      const {commit, remote} = byBranch.get(branch)!
      let text: string | null = null
      try {
        text = await git(ctx, dir, ['cat-file', 'blob', `${commit}:${file}`])
      } catch {
        // A branch of that name without the card: someone else's, never reused.
      }
      return {branch, commit, text, pushed: remote === commit}
    }),
  )
}

/**
 * Commits `text` as `file` on top of `base` and keeps the commit as the branch (refs/cairn/promote/<name>, made only
 * if absent): a temporary index read from base, the blob written with hash-object, the tree and commit made with
 * write-tree and commit-tree. Returns the commit.
 */
export async function commitPromotion(
  ctx: Context,
  dir: string,
  input: {base: string; file: string; text: string; message: string; branch: string; identityFrom: string},
): Promise<string> {
  const index = path.join(dir, `.tmp-${process.pid}-promote.index`)
  const env = {GIT_INDEX_FILE: index}
  const who = await identity(ctx, input.identityFrom)
  try {
    const blob = (await git(ctx, dir, ['hash-object', '-w', '--stdin'], {input: input.text})).trim()
    await git(ctx, dir, ['read-tree', input.base], {env})
    await git(ctx, dir, ['update-index', '--add', '--cacheinfo', `100644,${blob},${input.file}`], {env})
    const tree = (await git(ctx, dir, ['write-tree'], {env})).trim()
    const commit = (
      await git(ctx, dir, ['commit-tree', tree, '-p', input.base, '-F', '-'], {input: input.message, env: who})
    ).trim()
    crashPoint(ctx, 'promote:commit')
    // The zero old value: made only if no other promote took the name meanwhile (the lock makes that impossible).
    await git(ctx, dir, ['update-ref', localRef(input.branch), commit, '0'.repeat(commit.length)])
    crashPoint(ctx, 'promote:ref')
    return commit
  } finally {
    fs.rmSync(index, {force: true})
  }
}

/**
 * The author and committer a commit in the project would have (its git config, the environment), for the commit
 * made in the cache, whose repository has no config of its own. git's own refusal, naming the fix, when it has none.
 */
async function identity(ctx: Context, root: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {}
  for (const role of ['AUTHOR', 'COMMITTER']) {
    const m = /^(.*) <([^>]*)> \d+ [+-]\d{4}$/.exec((await runGit(ctx, root, ['var', `GIT_${role}_IDENT`])).trim())
    if (m) Object.assign(env, {[`GIT_${role}_NAME`]: m[1], [`GIT_${role}_EMAIL`]: m[2]})
  }
  return env
}

/** Pushes the kept branch to the remote's refs/heads/<branch>; null when it went, else git's reason. */
export async function pushPromotion(ctx: Context, dir: string, url: string, branch: string): Promise<string | null> {
  try {
    await git(ctx, dir, [...NETWORK, 'push', '--quiet', url, `${localRef(branch)}:refs/heads/${branch}`], {
      env: NO_PROMPT,
    })
    crashPoint(ctx, 'promote:pushed')
    return null
  } catch (error) {
    return (error instanceof Error ? error.message : String(error))
      .split('\n')
      .map(l => l.trim())
      .filter(Boolean)
      .slice(-6)
      .join(' ')
  }
}

/** The command that pushes the kept branch by hand, as the user would type it. */
export const pushCommand = (dir: string, url: string, branch: string): string =>
  `git --git-dir ${quote(repoOf(dir))} push ${quote(url)} ${localRef(branch)}:refs/heads/${branch}`

const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)
