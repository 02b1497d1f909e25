import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type {Context} from '../../context.js'
import type {OrgPin} from '../../domain/org.js'
import {crashPoint} from '../agents/agent-files.js'
import {runGit} from '../git.js'
import {fetchInto, makeTree, withOrgCache} from './org-cache.js'
import {isDir, network, NO_PROMPT, orgCacheDir, orgTreeDir, repoOf} from './org-paths.js'

/**
 * What `cairn doctor` finds about one org layer (app/doctor-org.ts words it): whether the cache holds the tree of the
 * pinned commit and whether that tree still matches the commit, whether the remote answers, and whether one of the
 * remote's branches or tags still holds the pinned commit. Reads; the only write is a fetch of the remote's branches
 * and tags into the cache, and only when the remote names commits the cache lacks.
 */

/** How long doctor waits for a remote to answer before it reports it unreachable. */
export const REMOTE_TIMEOUT_MS = 15_000
const NETWORK = network(15)

/** How a cache's tree differs from its commit, by path under the tree (".cairn/..."), each list sorted. */
export interface TreeDrift {
  changed: string[]
  added: string[]
  removed: string[]
}

export interface OrgPinFacts {
  /** The tree of the pinned commit: missing, or how it differs from the commit (all empty when it matches). */
  tree: 'missing' | TreeDrift
  /** Whether `git ls-remote` answered in time, else why not. */
  remote: {reachable: true} | {reachable: false; reason: string}
  /** Whether a branch or tag upstream holds the pinned commit; null when it cannot be told (no answer, no cache). */
  upstream: boolean | null
}

/** The folders of a store that hold derived or machine-local files, never a commit's. */
const DERIVED = new Set(['.cairn/.cache', '.cairn/.local'])

const hashOf = (commit: string) => createHash(commit.length === 64 ? 'sha256' : 'sha1')

/** Bytes' git blob id, in the object format of the commit's id (SHA-1, or SHA-256 for a 64-digit id). */
function blobId(bytes: Buffer, commit: string): string {
  return hashOf(commit).update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

/**
 * A regular file's blob id, read a block at a time: an org store is another repository's, and a file of any size in
 * it must not be read whole into memory.
 */
function fileBlobId(file: string, size: number, commit: string): string {
  const hash = hashOf(commit).update(`blob ${size}\0`)
  const block = Buffer.alloc(1 << 20)
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
  try {
    for (let n = fs.readSync(fd, block); n > 0; n = fs.readSync(fd, block)) hash.update(block.subarray(0, n))
  } finally {
    fs.closeSync(fd)
  }
  return hash.digest('hex')
}

/** Every file under the tree's .cairn/ but the derived folders: path (POSIX, from the tree's root) → blob id. */
function treeFiles(root: string, commit: string): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(root, rel))) {
      const child = `${rel}/${name}`
      if (DERIVED.has(child)) continue
      const file = path.join(root, child)
      const st = fs.lstatSync(file)
      if (st.isDirectory()) walk(child)
      else if (st.isSymbolicLink()) files.set(child, blobId(Buffer.from(fs.readlinkSync(file)), commit))
      else if (st.isFile()) files.set(child, fileBlobId(file, st.size, commit))
    }
  }
  walk('.cairn')
  return files
}

/** How the cache's tree of `commit` differs from the commit: files changed, added or removed under .cairn/. */
export async function treeDrift(ctx: Context, dir: string, commit: string): Promise<TreeDrift> {
  const out = await runGit(ctx, dir, ['--git-dir', repoOf(dir), 'ls-tree', '-r', '-z', commit, '--', '.cairn'])
  const want = new Map<string, string>()
  for (const entry of out.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry)
    if (m) want.set(m[2], m[1])
  }
  const have = treeFiles(path.join(dir, 'trees', commit), commit)
  const drift: TreeDrift = {changed: [], added: [], removed: []}
  for (const [file, id] of have) {
    const expected = want.get(file)
    if (expected === undefined) drift.added.push(file)
    else if (expected !== id) drift.changed.push(file)
  }
  for (const file of want.keys()) if (!have.has(file)) drift.removed.push(file)
  for (const list of Object.values(drift)) list.sort()
  return drift
}

export const drifted = (d: TreeDrift): boolean => d.changed.length + d.added.length + d.removed.length > 0

/** The ids the remote's branches and tags point at (a tag's commit where the remote peels it), or why it did not answer. */
async function remoteTips(ctx: Context, cwd: string, url: string, timeoutMs: number): Promise<string[] | Error> {
  try {
    const out = await runGit(ctx, cwd, [...NETWORK, 'ls-remote', '--heads', '--tags', url], {
      env: NO_PROMPT,
      timeoutMs,
    })
    return [...new Set(out.split('\n').flatMap(line => /^([0-9a-f]{40,64})\t/.exec(line)?.[1] ?? []))]
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

const git = (ctx: Context, dir: string, args: string[]) => runGit(ctx, dir, ['--git-dir', repoOf(dir), ...args])

const has = async (ctx: Context, dir: string, id: string): Promise<boolean> =>
  git(ctx, dir, ['cat-file', '-e', `${id}^{commit}`]).then(
    () => true,
    () => false,
  )

/**
 * Whether one of the tips holds the commit; the tips the cache lacks are fetched first (all branches and tags). Null
 * when it cannot be told: the fetch failed, or a tip is still missing, and none of those at hand holds it.
 */
async function heldBy(ctx: Context, dir: string, url: string, commit: string, tips: string[]): Promise<boolean | null> {
  if (tips.includes(commit)) return true
  const missing = async () => (await Promise.all(tips.map(id => has(ctx, dir, id)))).some(p => !p)
  if (await missing()) await withOrgCache(ctx, url, locked => fetchInto(ctx, locked, url)).catch(() => undefined)
  for (const tip of tips) {
    const ancestor = await git(ctx, dir, ['merge-base', '--is-ancestor', commit, tip]).then(
      () => true,
      () => false,
    )
    if (ancestor) return true
  }
  return (await missing()) ? null : false
}

/** How the cache's copy of the pinned commit differs from the commit; null when the cache has no copy. */
export async function cachedTreeDrift(ctx: Context, pin: OrgPin): Promise<TreeDrift | null> {
  const dir = orgCacheDir(ctx, pin.url)
  if (!fs.existsSync(path.join(repoOf(dir), 'HEAD')) || !isDir(path.join(orgTreeDir(ctx, pin), '.cairn'))) return null
  // A copy whose commit the cache's repository lost cannot be checked: it counts as missing, and a fetch brings it.
  return treeDrift(ctx, dir, pin.commit).catch(() => null)
}

/** git's first fatal line without its prefix (else its last line), as a clause. */
function whyNot(message: string): string {
  const lines = message.trim().split('\n')
  const fatal = lines.find(l => /^(?:fatal|error): /.test(l))
  return (fatal ?? lines[lines.length - 1]).replace(/^(?:fatal|error): /, '').replace(/\.$/, '')
}

/** Doctor's facts about one pin. */
export async function inspectPin(ctx: Context, pin: OrgPin, timeoutMs = REMOTE_TIMEOUT_MS): Promise<OrgPinFacts> {
  const dir = orgCacheDir(ctx, pin.url)
  const repo = fs.existsSync(path.join(repoOf(dir), 'HEAD'))
  const tree = (await cachedTreeDrift(ctx, pin)) ?? 'missing'
  const tips = await remoteTips(ctx, repo ? dir : ctx.cwd, pin.url, timeoutMs)
  if (tips instanceof Error) {
    const reason = whyNot(tips.message)
    return {tree, remote: {reachable: false, reason}, upstream: null}
  }
  const upstream = repo ? await heldBy(ctx, dir, pin.url, pin.commit, tips) : null
  return {tree, remote: {reachable: true}, upstream}
}

/**
 * Makes the cache's tree of the pinned commit again (doctor --fix), under the cache's lock: the old tree is moved
 * aside (a temporary name the next lock holder sweeps), the commit is checked out whole as on first use, and the old
 * tree is removed; if the checkout fails, the old tree is put back.
 */
export async function remakeTree(ctx: Context, pin: OrgPin): Promise<void> {
  await withOrgCache(ctx, pin.url, async dir => {
    const target = path.join(dir, 'trees', pin.commit)
    const aside = path.join(dir, 'trees', `.tmp-old-${process.pid}-${Date.now()}`)
    if (isDir(target)) fs.renameSync(target, aside)
    crashPoint(ctx, 'org-remake-aside')
    try {
      await makeTree(ctx, dir, pin.url, pin.commit)
    } catch (error) {
      if (!isDir(target) && isDir(aside)) fs.renameSync(aside, target)
      throw error
    }
    fs.rmSync(aside, {recursive: true, force: true})
  })
}
