import path from 'node:path'
import {fileURLToPath} from 'node:url'
import type {Context} from '../context.js'
import {init} from './init.js'
import {openStores} from './stores.js'
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
export async function demo(
  ctx: Context,
  options: {keep?: boolean; onStep?: (s: DemoStep) => void} = {},
): Promise<DemoResult> {
  const scratch = await openStores(ctx).scratchRepo({
    name: 'demo',
    actor: 'cairn-demo',
    firstFile: ['README.md', '# demo project\n'],
  })
  const steps: DemoStep[] = []
  const record = (step: string, command: string, result: unknown) => {
    const s = {step, command, result}
    steps.push(s)
    options.onStep?.(s)
  }
  const demoCtx = scratch.ctx
  try {
    record('init', 'cairn init', await init(demoCtx))
    record(
      'propose',
      `cairn propose ${path.relative(process.cwd(), DEMO_CARDS) || DEMO_CARDS}`,
      await propose(demoCtx, {file: DEMO_CARDS}),
    )
    record('lint', 'cairn lint', await lint(demoCtx))
    record('review', 'cairn review', await review(demoCtx))
    record('approve', 'cairn review approve --all', await approve(demoCtx, {all: true}))
    record('list', 'cairn list', await list(demoCtx))
    record(
      'recall',
      'cairn recall "merge the hook settings into .claude/settings.json"',
      await recall(demoCtx, {prompt: 'merge the hook settings into .claude/settings.json'}),
    )
    record(
      'show',
      'cairn show deepmerge-array-replace-trap --section rule',
      await show(demoCtx, {id: 'deepmerge-array-replace-trap', section: 'rule'}),
    )
    record('log', 'cairn log deepmerge-array-replace-trap', await log(demoCtx, {id: 'deepmerge-array-replace-trap'}))
    return {dir: scratch.dir, kept: !!options.keep, steps}
  } finally {
    if (!options.keep) scratch.remove()
  }
}
