import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {createContext, type Context} from '../store/context.js'
import {gitClient} from '../store/git.js'
import {init} from './init.js'
import {lint} from './lint.js'
import {list} from './list.js'
import {log} from './log.js'
import {propose} from './propose.js'
import {recall} from './recall.js'
import {approve, review} from './review.js'
import {show} from './show.js'

export const DEMO_CARDS = fileURLToPath(new URL('../../templates/demo/cards.json', import.meta.url))

export interface DemoStep {
  step: string
  command: string
  result: unknown
}

export interface DemoResult {
  dir: string
  kept: boolean
  steps: DemoStep[]
}

/**
 * Runs the whole flow on built-in sample cards in a throwaway repo (HOME and CAIRN_HOME
 * inside it too), calling each step through the same app functions the commands use.
 */
export async function demo(ctx: Context, options: {keep?: boolean; onStep?: (s: DemoStep) => void} = {}): Promise<DemoResult> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-demo-')))
  const dir = path.join(base, 'repo')
  const home = path.join(base, 'home')
  fs.mkdirSync(dir)
  fs.mkdirSync(home)
  const steps: DemoStep[] = []
  const record = (step: string, command: string, result: unknown) => {
    const s = {step, command, result}
    steps.push(s)
    options.onStep?.(s)
  }
  try {
    const env = {...ctx.env, HOME: home, CAIRN_HOME: path.join(home, '.cairn')}
    const demoCtx = createContext({cwd: dir, env, now: ctx.pinnedClock ? ctx.now() : undefined, actor: 'cairn-demo', stdin: Buffer.alloc(0)})
    const git = gitClient(demoCtx, dir)
    await git.raw(['init', '--quiet', '-b', 'main'])
    await git.raw(['config', 'user.name', 'cairn demo'])
    await git.raw(['config', 'user.email', 'demo@cairn.invalid'])
    await git.raw(['config', 'commit.gpgsign', 'false'])
    fs.writeFileSync(path.join(dir, 'README.md'), '# demo project\n')
    await git.raw(['add', 'README.md'])
    await git.raw(['commit', '--quiet', '--no-verify', '-m', 'initial'])
    record('init', 'cairn init', await init(demoCtx))
    record('propose', `cairn propose ${path.relative(process.cwd(), DEMO_CARDS) || DEMO_CARDS}`, await propose(demoCtx, {file: DEMO_CARDS}))
    record('lint', 'cairn lint', await lint(demoCtx))
    record('review', 'cairn review', await review(demoCtx))
    record('approve', 'cairn review approve --all', await approve(demoCtx, {all: true}))
    record('list', 'cairn list', list(demoCtx))
    record('recall', 'cairn recall "merge the hook settings into .claude/settings.json"', await recall(demoCtx, {prompt: 'merge the hook settings into .claude/settings.json'}))
    record('show', 'cairn show deepmerge-array-replace-trap --section rule', show(demoCtx, {id: 'deepmerge-array-replace-trap', section: 'rule'}))
    record('log', 'cairn log deepmerge-array-replace-trap', await log(demoCtx, {id: 'deepmerge-array-replace-trap'}))
    return {dir, kept: !!options.keep, steps}
  } finally {
    if (!options.keep) fs.rmSync(base, {recursive: true, force: true})
  }
}
