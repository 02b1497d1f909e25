import {execFileSync, spawn} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {createRequire} from 'node:module'
import type {SimpleGit} from 'simple-git'
import {CairnError} from '../domain/errors.js'
import type {Context} from '../context.js'
import {gitDir} from './repo.js'

export {findRepoRoot, gitDir, projectKeyFromUrl} from './repo.js'

/** A repo mid-merge, mid-rebase or mid-cherry-pick is refused: a cairn commit would tangle with it. */
export function assertCleanState(root: string): void {
  const dir = gitDir(root)
  const markers: [string, string][] = [
    ['MERGE_HEAD', 'a merge'],
    ['rebase-merge', 'a rebase'],
    ['rebase-apply', 'a rebase or am'],
    ['CHERRY_PICK_HEAD', 'a cherry-pick'],
    ['REVERT_HEAD', 'a revert'],
  ]
  for (const [marker, what] of markers) {
    if (fs.existsSync(path.join(dir, marker))) {
      throw new CairnError(
        'conflict',
        `${root} is in the middle of ${what}. Fix: finish or abort it as "git status" shows, then run cairn again`,
      )
    }
  }
}

/** The user's own environment variables configure their git; cairn passes no user data as options. */
const USER_ENVIRONMENT = {
  allowUnsafeEditor: true,
  allowUnsafeAskPass: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeConfigEnvCount: true,
  allowUnsafeExec: true,
  allowUnsafeDiffExternal: true,
  allowUnsafePager: true,
  allowUnsafeGitProxy: true,
  allowUnsafeTemplateDir: true,
  allowUnsafeSshCommand: true,
}

/**
 * simple-git resolves when git exits non-zero with an empty stderr (a silent failing commit
 * hook, rev-parse --quiet); any non-zero exit must be a failure, or a commit could be lost.
 */
function failOnExitCode(
  error: Buffer | Error | undefined,
  result: {exitCode: number; stdOut: Buffer[]; stdErr: Buffer[]},
): Buffer | Error | undefined {
  if (error) return error
  if (result.exitCode === 0) return undefined
  const output = Buffer.concat([...result.stdErr, ...result.stdOut])
    .toString('utf8')
    .trim()
  return new Error(output || `git exited with code ${result.exitCode}`)
}

/** The user's environment for git, with the pinned clock as commit dates and no optional locks. */
function gitEnv(ctx: Context): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v
  // A read such as `git status` must not take index.lock to refresh the index: run beside another
  // cairn process's commit (or the user's), it would make that commit fail with "index.lock exists".
  env.GIT_OPTIONAL_LOCKS = '0'
  if (ctx.pinnedClock) {
    const date = ctx.now().toISOString()
    env.GIT_AUTHOR_DATE = date
    env.GIT_COMMITTER_DATE = date
  }
  return env
}

/**
 * Runs git directly when the caller needs stdin or the child itself (the transaction's commit:
 * a crash test kills cairn while this child runs). Fails on any non-zero exit.
 */
export async function runGit(ctx: Context, root: string, args: string[], options: GitRunOptions = {}): Promise<string> {
  return (await gitBytes(ctx, root, args, options)).toString('utf8')
}

/** runGit's output as bytes, for output read by byte count. */
export interface GitRunOptions {
  input?: string
  onSpawn?: () => void
  /** Set on top of the user's environment (GIT_INDEX_FILE for a temporary index, GIT_TERMINAL_PROMPT). */
  env?: Record<string, string>
  /** Kills git after this long and fails with "timed out" (a remote that does not answer). */
  timeoutMs?: number
}

function gitBytes(ctx: Context, root: string, args: string[], options: GitRunOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const env = {...gitEnv(ctx), ...options.env}
    const child = spawn('git', args, {cwd: root, env, stdio: ['pipe', 'pipe', 'pipe']})
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', d => out.push(d))
    child.stderr.on('data', d => err.push(d))
    child.on('error', reject)
    // A git that does not read stdin may exit before we finish writing it.
    child.stdin.on('error', () => {})
    child.on('spawn', () => options.onSpawn?.())
    let timedOut = false
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true
          child.kill('SIGKILL')
        }, options.timeoutMs)
      : undefined
    child.on('close', code => {
      if (timer) clearTimeout(timer)
      if (timedOut) reject(new Error(`no answer within ${Math.ceil((options.timeoutMs ?? 0) / 1000)} s`))
      else if (code === 0) resolve(Buffer.concat(out))
      else {
        const output = Buffer.concat([...err, ...out])
          .toString('utf8')
          .trim()
        reject(new Error(output || `git exited with code ${code}`))
      }
    })
    child.stdin.end(options.input ?? '')
  })
}

/**
 * The contents of many blobs from one `git cat-file --batch`, by object id: one process, not one per blob. Each
 * answer is "<id> blob <size>\n<bytes>\n", read by byte count, so content holding any bytes splits right.
 */
export async function readBlobs(ctx: Context, root: string, ids: readonly string[]): Promise<Map<string, string>> {
  const blobs = new Map<string, string>()
  if (ids.length === 0) return blobs
  const all = await gitBytes(ctx, root, ['cat-file', '--batch'], {input: `${ids.join('\n')}\n`})
  let at = 0
  while (at < all.length) {
    const eol = all.indexOf(10, at)
    if (eol < 0) break
    const [id, type, size] = all.subarray(at, eol).toString('utf8').split(' ')
    // "<id> missing" has no size and no content.
    if (size === undefined) {
      at = eol + 1
      continue
    }
    const end = eol + 1 + Number(size)
    if (type === 'blob') blobs.set(id, all.subarray(eol + 1, end).toString('utf8'))
    at = end + 1
  }
  return blobs
}

/** simple-git, loaded on the first git query: a command that runs none (list, show) does not pay for it. */
let simpleGitModule: typeof import('simple-git') | undefined
const loadSimpleGit = (): typeof import('simple-git') =>
  (simpleGitModule ??= createRequire(import.meta.url)('simple-git'))

export function gitClient(ctx: Context, root: string): SimpleGit {
  const env = gitEnv(ctx)
  // simple-git strips or rejects GIT_* and editor variables unless allowed; the user's own
  // git environment must behave natively, so everything we pass on is allowed.
  return loadSimpleGit()
    .simpleGit({baseDir: root, allowEnvironment: Object.keys(env), unsafe: USER_ENVIRONMENT, errors: failOnExitCode})
    .env(env)
}

export function gitFailure(error: unknown, what: string): CairnError {
  if (error instanceof CairnError) return error
  const message = String((error as Error)?.message ?? error).trim()
  return new CairnError(
    'git',
    `Git failed while ${what}: ${message.trim().replace(/\.$/, '')}. Fix: mend what git reports, then run the command again`,
  )
}

/** git's user.name as seen from cwd (repo, global and system config); undefined when unset or git fails. */
export function gitUserName(cwd: string, env: Record<string, string | undefined>): string | undefined {
  try {
    const out = execFileSync('git', ['config', '--get', 'user.name'], {
      cwd,
      env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    return out.trim() || undefined
  } catch {
    return undefined
  }
}
