import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {type Context, createContext} from '../context.js'
import {gitClient, gitFailure, gitUserName} from './git.js'
import {isRepoRoot} from './layout.js'

/** The personal store's directory as its own git repo, created on first use. */
export async function createPersonalRepo(ctx: Context, home: string): Promise<void> {
  fs.mkdirSync(home, {recursive: true})
  if (isRepoRoot(home)) return
  try {
    await gitClient(ctx, home).raw(['init', '--quiet'])
  } catch (error) {
    throw gitFailure(error, `creating the personal store at ${home}`)
  }
}

export interface ScratchRepo {
  /** A context inside the scratch repo, with HOME and CAIRN_HOME inside it too. */
  ctx: Context
  dir: string
  remove(): void
}

/**
 * A throwaway git repo for the demo and recall evals: nothing they do can reach the user's
 * own repo or home. With a first file, it gets an initial commit.
 */
export async function scratchRepo(
  ctx: Context,
  options: {name: string; actor: string; now?: Date; firstFile?: [string, string]},
): Promise<ScratchRepo> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `cairn-${options.name}-`)))
  const remove = () => fs.rmSync(base, {recursive: true, force: true})
  try {
    const dir = path.join(base, 'repo')
    const home = path.join(base, 'home')
    fs.mkdirSync(dir)
    fs.mkdirSync(home)
    const env = {...ctx.env, HOME: home, CAIRN_HOME: path.join(home, '.cairn')}
    const inner = createContext({
      cwd: dir,
      env,
      now: options.now ?? (ctx.pinnedClock ? ctx.now() : undefined),
      actor: options.actor,
      lookupActor: gitUserName,
      stdin: Buffer.alloc(0),
      warn: ctx.warn,
    })
    const git = gitClient(inner, dir)
    await git.raw(['init', '--quiet', '-b', 'main'])
    await git.raw(['config', 'user.name', `cairn ${options.name}`])
    await git.raw(['config', 'user.email', `${options.name}@cairn.invalid`])
    await git.raw(['config', 'commit.gpgsign', 'false'])
    if (options.firstFile) {
      fs.writeFileSync(path.join(dir, options.firstFile[0]), options.firstFile[1])
      await git.raw(['add', options.firstFile[0]])
      await git.raw(['commit', '--quiet', '--no-verify', '-m', 'initial'])
    }
    return {ctx: inner, dir, remove}
  } catch (error) {
    remove()
    throw gitFailure(error, `creating a scratch repository for the ${options.name}`)
  }
}
