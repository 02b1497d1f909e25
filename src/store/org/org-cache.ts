import {randomBytes} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type {Context} from '../../context.js'
import {CairnError} from '../../domain/errors.js'
import {runGit} from '../git.js'
import {isDir, network, NO_PROMPT, orgCacheDir, repoOf} from './org-paths.js'
import {crashPoint} from '../agents/agent-files.js'
import {acquireLockAt} from '../locks/lock.js'

/**
 * The org layers' cache, under $CAIRN_HOME/.cache/org/ (ignored by the personal store's repo), shared by every
 * project on the machine that subscribes to the same URL:
 *
 *   <key>/repo.git          a bare repository: every branch and tag of the URL, and refs/cairn/pins/<commit> for
 *                           each commit a project pinned, so a force-push upstream cannot take a pinned commit away
 *   <key>/trees/<commit>/   the org store (.cairn/) as that commit has it: plain files, made whole in a temporary
 *                           folder and renamed into place, so a reader sees all of it or none; never changed after
 *   <key>/cairn.lock        held by whoever fetches or makes a tree
 *
 * The network is used by fetch alone, and only a CLI command calls it; a hook reads a tree or nothing.
 */

/** How long a fetch waits for another process's fetch of the same URL. */
const LOCK_WAIT_MS = 300_000
const NETWORK = network(60)

const git = (ctx: Context, dir: string, args: string[], env?: Record<string, string>, onSpawn?: () => void) =>
  runGit(ctx, dir, ['--git-dir', repoOf(dir), ...args], {...(env ? {env} : {}), ...(onSpawn ? {onSpawn} : {})})

const gitError = (error: unknown, what: string, fix: string): CairnError => {
  const lines = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map(l => l.trim())
    .filter(Boolean)
  // git's first fatal line says what went wrong; the advice after it is git's, the fix below is ours.
  const fatal = lines.find(l => /^(?:fatal|error): /.test(l))
  const reason = fatal ? fatal.replace(/^(?:fatal|error): /, '') : lines.slice(-2).join(' ')
  return new CairnError('git', `${what}: ${reason.replace(/\.$/, '')}. Fix: ${fix}`)
}

export {orgCacheDir, orgCacheRoot, orgStore, orgTreeDir} from './org-paths.js'
export {commitPromotion, orgCardsWithId, promotionBranches, pushCommand, pushPromotion} from './org-promote.js'

/** Runs fn holding the cache's lock for this URL, its folder made first. */
export async function withOrgCache<T>(ctx: Context, url: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = orgCacheDir(ctx, url)
  fs.mkdirSync(dir, {recursive: true})
  const lock = await acquireLockAt(path.join(dir, 'cairn.lock'), {waitMs: LOCK_WAIT_MS})
  try {
    sweep(dir)
    return await fn(dir)
  } finally {
    lock.release()
  }
}

/** Removes what an interrupted fetch or tree left: the half-made bare repository and temporary trees. */
function sweep(dir: string): void {
  for (const name of fs.readdirSync(dir))
    if (name.startsWith('.tmp-')) fs.rmSync(path.join(dir, name), {recursive: true, force: true})
  const trees = path.join(dir, 'trees')
  if (isDir(trees))
    for (const name of fs.readdirSync(trees))
      if (name.startsWith('.tmp-')) fs.rmSync(path.join(trees, name), {recursive: true, force: true})
}

const tmpName = (): string => `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`

/** Brings every branch and tag of the URL into the cache's bare repository (made on first use). Under the lock. */
export async function fetchInto(ctx: Context, dir: string, url: string): Promise<void> {
  const fresh = !fs.existsSync(path.join(repoOf(dir), 'HEAD'))
  if (fresh) {
    const tmp = path.join(dir, tmpName())
    await runGit(ctx, dir, ['init', '--bare', '--quiet', tmp])
    fs.rmSync(repoOf(dir), {recursive: true, force: true})
    fs.renameSync(tmp, repoOf(dir))
  }
  try {
    await git(
      ctx,
      dir,
      [
        ...NETWORK,
        'fetch',
        '--quiet',
        '--prune',
        '--no-tags',
        url,
        '+refs/heads/*:refs/heads/*',
        '+refs/tags/*:refs/tags/*',
      ],
      NO_PROMPT,
      () => crashPoint(ctx, 'org-during-fetch'),
    )
  } catch (error) {
    // A URL that never answered leaves no empty repository behind.
    if (fresh) fs.rmSync(repoOf(dir), {recursive: true, force: true})
    throw gitError(
      error,
      `Could not fetch the org store from ${url}`,
      'check the URL and that your git credentials can read it ("git ls-remote <url>" shows the same)',
    )
  }
  crashPoint(ctx, 'org-fetched')
}

/** The branch the remote's HEAD names, else main or master if fetched; null when none can be told. */
export async function defaultBranch(ctx: Context, dir: string, url: string): Promise<string | null> {
  try {
    const out = await git(ctx, dir, [...NETWORK, 'ls-remote', '--symref', url, 'HEAD'], NO_PROMPT)
    const m = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(out)
    if (m) return m[1]
  } catch {
    // A remote that does not say: the usual names below.
  }
  for (const name of ['main', 'master']) if (await commitOf(ctx, dir, `refs/heads/${name}`)) return name
  return null
}

async function commitOf(ctx: Context, dir: string, rev: string): Promise<string | null> {
  try {
    return (await git(ctx, dir, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim() || null
  } catch {
    return null
  }
}

/** The commit a branch or tag names in the fetched cache; a not-found error naming the fix when neither has it. */
export async function resolveRef(ctx: Context, dir: string, url: string, ref: string): Promise<string> {
  const commit = (await commitOf(ctx, dir, `refs/heads/${ref}`)) ?? (await commitOf(ctx, dir, `refs/tags/${ref}`))
  if (commit) return commit
  throw new CairnError(
    'not_found',
    `The org store at ${url} has no branch or tag "${ref}". Fix: pass --ref with a branch or tag it has`,
    {url, ref},
  )
}

/** Whether the cache's repository has this commit (fetched, or kept by its pin ref). */
export const hasCommit = async (ctx: Context, dir: string, commit: string): Promise<boolean> =>
  (await commitOf(ctx, dir, commit)) === commit

/**
 * Makes the tree of the org store at this commit, if the cache lacks it: .cairn/ checked out through a temporary
 * index into a temporary folder, then renamed into place. Refuses a commit with no .cairn/config.yaml (no cairn
 * store). Pins the commit with a ref, so a later fetch's prune or a force-push upstream never loses it. Under the lock.
 */
export async function makeTree(ctx: Context, dir: string, url: string, commit: string): Promise<string> {
  const target = path.join(dir, 'trees', commit)
  await git(ctx, dir, ['update-ref', `refs/cairn/pins/${commit}`, commit])
  if (isDir(target)) return target
  try {
    await git(ctx, dir, ['cat-file', '-e', `${commit}:.cairn/config.yaml`])
  } catch {
    throw new CairnError(
      'validation',
      `${url} at ${commit.slice(0, 12)} holds no cairn store (.cairn/config.yaml). Fix: run "cairn init" in that repository and commit it, or subscribe to another URL`,
      {url, commit},
    )
  }
  fs.mkdirSync(path.join(dir, 'trees'), {recursive: true})
  const tmp = path.join(dir, 'trees', tmpName())
  fs.mkdirSync(tmp)
  const index = `${tmp}.index`
  try {
    await runGit(
      ctx,
      dir,
      ['--git-dir', repoOf(dir), '--work-tree', tmp, '-c', 'core.autocrlf=false', 'checkout', commit, '--', '.cairn'],
      {env: {GIT_INDEX_FILE: index}},
    )
    crashPoint(ctx, 'org-tree')
    fs.renameSync(tmp, target)
  } catch (error) {
    fs.rmSync(tmp, {recursive: true, force: true})
    if (!isDir(target)) throw error
  } finally {
    fs.rmSync(index, {force: true})
  }
  return target
}

/** The active cards (cards/<type>/<id>.md) a commit of the org store has: id → blob id. */
export async function activeCardsAt(ctx: Context, dir: string, commit: string): Promise<Map<string, string>> {
  const out = await git(ctx, dir, ['ls-tree', '-r', '-z', commit, '--', '.cairn/cards'])
  const cards = new Map<string, string>()
  for (const entry of out.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t\.cairn\/cards\/[a-z]+\/([^/]+)\.md$/.exec(entry)
    if (m) cards.set(m[2], m[1])
  }
  return cards
}

/** Every branch and tag head of the cache that holds this commit: empty when upstream no longer has it. */
export async function refsHolding(ctx: Context, dir: string, commit: string): Promise<string[]> {
  const out = await git(ctx, dir, [
    'for-each-ref',
    '--format=%(refname:short)',
    '--contains',
    commit,
    'refs/heads',
    'refs/tags',
  ])
  return out.split('\n').filter(Boolean)
}
