import {spawnSync} from 'node:child_process'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {lint} from '../src/app/lint.js'
import {recallStores} from '../src/app/prompt-recall.js'
import {ROOT, tempRepo} from './helpers.js'
import {plantCard} from './recall-index-helpers.js'

/**
 * Cold lint's `unreachable` prompts, matched in chunks on a worker thread and here, against all matched here
 * (lint-reach-pool.ts). The worker thread needs the compiled script (dist/app/lint-reach-worker.js): run
 * `npm run build` first.
 */

/**
 * Runs in a child process on the compiled modules: every prompt a chunk of its own, pooled and not. The
 * caller's first chunk holds it up for a while, so the worker thread, once started, takes the chunks after it.
 * Prints how many chunks the caller ran itself and both answers.
 */
const CHILD = `
const [pool, reach, recall, stores_] = await Promise.all(['app/lint-reach-pool', 'app/lint-reach', 'recall/index', 'store/stores'].map(m => import(process.argv[1] + '/' + m + '.js')))
const {stores, items, identity} = JSON.parse(process.argv[2])
const out = await recall.useIndex(stores, async index => {
  const projectKey = stores_.projectKeyOf(stores[0].root, index.settings.projectKey)
  const r = await reach.reacher(index, projectKey)
  let ran = 0
  const slowed = chunk => {
    if (ran++ === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000)
    return r(chunk)
  }
  const job = {stores, identity: identity ?? index.identity(), projectKey, items}
  const pooled = await pool.reachInChunks(job, slowed, {min: 1, chunk: 1})
  const alone = await pool.reachInChunks(job, r, {min: Infinity, chunk: 1})
  return {ran, pooled, alone}
})
process.stdout.write(JSON.stringify(out))
`

// Its positive hint ui_surface gates it: its own title and summary name no UI, so they never recall it.
const GATED = {
  type: 'process',
  title: 'Check the storybook snapshots before a release',
  summary: 'Compare the storybook snapshots with the last release before tagging.',
  engine_hints: {positive: ['ui_surface']},
}
const FLAKY = {
  title: 'Run the flaky login test alone',
  summary: 'Run the flaky login test on its own before blaming the change.',
  recall: {triggers: ['flaky login test']},
}

/** A library of one reachable card and one its hint gates, its index built; the two prompts, three times over. */
async function library() {
  const repo = tempRepo()
  await init(repo.ctx())
  const project = path.join(repo.dir, '.cairn')
  plantCard(project, 'flaky-login-test-alone', FLAKY)
  plantCard(project, 'storybook-snapshot-check', GATED)
  const result = await lint(repo.ctx())
  const reach = [
    {store: 'project', id: 'flaky-login-test-alone', prompt: `${FLAKY.title}\n${FLAKY.summary}`},
    {store: 'project', id: 'storybook-snapshot-check', prompt: `${GATED.title}\n${GATED.summary}`},
  ]
  return {repo, result, items: [...reach, ...reach, ...reach]}
}

async function pooledRun(identity?: string): Promise<{ran: number; pooled: boolean[]; alone: boolean[]}> {
  const {repo, items} = await library()
  const stores = recallStores(repo.ctx())
  const dist = pathToFileURL(path.join(ROOT, 'dist')).href
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', CHILD, dist, JSON.stringify({stores, items, identity})],
    {cwd: repo.dir, env: repo.env, encoding: 'utf8', timeout: 60_000},
  )
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
  return JSON.parse(r.stdout)
}

describe('lint: unreachable prompts on a second core', () => {
  it('the library lints with one unreachable warning', async () => {
    const {result} = await library()
    expect(result.problems.map(p => [p.file, p.rule])).toEqual([
      ['.cairn/cards/process/storybook-snapshot-check.md', 'unreachable'],
    ])
  })

  it('a worker thread answers the chunks the caller does not take, as the caller would', async () => {
    const {ran, pooled, alone} = await pooledRun()
    expect(alone).toEqual([true, false, true, false, true, false])
    expect(pooled).toEqual(alone)
    // The worker took every chunk after the caller's first.
    expect(ran).toBe(1)
  })

  it('a worker that opens another index answers nothing, and the caller answers every chunk', async () => {
    const {ran, pooled, alone} = await pooledRun('another index')
    expect(alone).toEqual([true, false, true, false, true, false])
    expect(pooled).toEqual(alone)
    expect(ran).toBe(6)
  })
})
