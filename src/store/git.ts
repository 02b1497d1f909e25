import fs from 'node:fs'
import path from 'node:path'
import git from 'isomorphic-git'
import {simpleGit, type SimpleGit} from 'simple-git'
import {CairnError} from '../domain/errors.js'
import type {Context} from './context.js'
import {gitDir, projectKeyFromUrl} from './repo.js'

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
      throw new CairnError('conflict', `${root} is in the middle of ${what}; finish or abort it (git status shows how), then run cairn again`)
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
function failOnExitCode(error: Buffer | Error | undefined, result: {exitCode: number; stdOut: Buffer[]; stdErr: Buffer[]}): Buffer | Error | undefined {
  if (error) return error
  if (result.exitCode === 0) return undefined
  const output = Buffer.concat([...result.stdErr, ...result.stdOut]).toString('utf8').trim()
  return new Error(output || `git exited with code ${result.exitCode}`)
}

export function gitClient(ctx: Context, root: string): SimpleGit {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v
  if (ctx.pinnedClock) {
    const date = ctx.now().toISOString()
    env.GIT_AUTHOR_DATE = date
    env.GIT_COMMITTER_DATE = date
  }
  // simple-git strips or rejects GIT_* and editor variables unless allowed; the user's own
  // git environment must behave natively, so everything we pass on is allowed.
  return simpleGit({baseDir: root, allowEnvironment: Object.keys(env), unsafe: USER_ENVIRONMENT, errors: failOnExitCode}).env(env)
}

export function gitFailure(error: unknown, what: string): CairnError {
  if (error instanceof CairnError) return error
  const message = String((error as Error)?.message ?? error).trim()
  return new CairnError('git', `git failed while ${what}: ${message}`)
}

/** "github.com/owner/repo" from the origin remote, or null without one. */
export async function remoteProjectKey(root: string): Promise<string | null> {
  try {
    const url = await git.getConfig({fs, dir: root, gitdir: gitDir(root), path: 'remote.origin.url'})
    return typeof url === 'string' ? projectKeyFromUrl(url) : null
  } catch {
    return null
  }
}
