// hook-cold (issue 35, recall while the index is cold): the first prompt on a fresh clone, at 1,000 and
// 10,000 cards. Each run removes .cairn/.cache (a fresh clone has none), runs
// `cairn hook user-prompt-submit --agent claude` as a whole process with the hook's default deadline
// (1.5 s), then waits for the background rebuild it started to end, so runs do not overlap. Rows: the
// node floor (`node -e 0`) and, per prompt, the hook's wall, CPU and peak RSS, how many runs answered
// with cards, and how many passed the deadline. BENCH_COLD_OLD=<path to another build's bin/run.js>
// runs that build interleaved with this one (before/after figures from the same moment).
// The library is hook-scale's (bench/recall-cards.js, 5% hand-edited), cached in BENCH_FIXTURES
// (<tmp>/cairn-bench-fixtures/hook-cold-g1-<n>). BENCH_COLD_SIZES (1000,10000), BENCH_COLD_RUNS (3).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {BIN, cachedFixture, costStats, log, ROOT, round, runCost} from '../lib.js'
import {writeLibrary} from '../recall-cards.js'

export const description =
  'issue 35: the first prompt hook on a fresh clone (no index), 1,000 and 10,000 cards, beside node -e 0'

const SIZES = (process.env.BENCH_COLD_SIZES ?? '1000,10000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 3)
const OLD = process.env.BENCH_COLD_OLD
const PROMPTS = {
  rare: 'the dirty worktree has a staged diff',
  zh: '在真实浏览器里做验收',
  none: 'rename the quarterly vacation spreadsheet colours',
}

const fixture = n =>
  cachedFixture(`hook-cold-g1-${n}`, 1, repo => {
    writeLibrary(repo.dir, n, 42, {team: 0.2, canonical: true, handEdited: 0.05})
    return {n}
  })

/** Waits until the background rebuild a hook started has ended (recall/open.ts waitForIndexRebuild), at most 120 s. */
async function settle(dir) {
  const [{waitForIndexRebuild}, {projectStoreAt}] = await Promise.all([
    import(pathToFileURL(path.join(ROOT, 'dist', 'recall', 'open.js')).href),
    import(pathToFileURL(path.join(ROOT, 'dist', 'store', 'layout.js')).href),
  ])
  await waitForIndexRebuild(projectStoreAt(dir), 120_000)
}

const payload = (cwd, prompt) => JSON.stringify({session_id: 'bench', cwd, hook_event_name: 'UserPromptSubmit', prompt})

async function coldHook(bin, {dir, env}, prompt) {
  await settle(dir)
  fs.rmSync(path.join(dir, '.cairn', '.cache'), {recursive: true, force: true})
  fs.rmSync(path.join(dir, '.cairn', '.local'), {recursive: true, force: true})
  const r = await runCost([process.execPath, bin, 'hook', 'user-prompt-submit', '--agent', 'claude'], {
    cwd: dir,
    env: {...env, CAIRN_HOOK_DEADLINE_MS: ''},
    input: payload(dir, prompt),
  })
  const errors = path.join(dir, '.cairn', '.local', 'hook-errors.log')
  const late = fs.existsSync(errors) && fs.readFileSync(errors, 'utf8').includes('deadline')
  await settle(dir)
  return {...r, answered: r.stdout.includes('additionalContext'), late}
}

const stat = runs => ({
  ...costStats(runs),
  answered: runs.filter(r => r.answered).length,
  late: runs.filter(r => r.late).length,
})

export async function run() {
  const rows = []
  for (const n of SIZES) {
    const fx = await fixture(n)
    const builds = OLD ? {old: OLD, new: BIN} : {new: BIN}
    const runs = {floor: []}
    for (let i = 0; i < RUNS; i++) {
      runs.floor.push(await runCost([process.execPath, '-e', '0'], {cwd: fx.dir, env: fx.env}))
      for (const [key, prompt] of Object.entries(PROMPTS))
        for (const [build, bin] of Object.entries(builds)) {
          const r = await coldHook(bin, fx, prompt)
          ;(runs[`${build} ${key}`] ??= []).push(r)
          log(
            `hook-cold ${n}: run ${i + 1}/${RUNS} ${build} ${key}: ${round(r.wall_ms)} ms wall, answered ${r.answered}`,
          )
        }
    }
    const floor = stat(runs.floor)
    rows.push({name: `node -e 0 (floor) ${n}`, cards: n, ...floor, load_avg: os.loadavg().map(x => round(x, 2))})
    for (const [key, list] of Object.entries(runs)) {
      if (key === 'floor') continue
      const s = stat(list)
      rows.push({
        name: `first prompt, no index, ${key} ${n}`,
        cards: n,
        ...s,
        cpu_ratio: round(s.cpu_ms / floor.cpu_ms, 2),
        wall_ratio: round(s.median_ms / floor.median_ms, 2),
      })
    }
  }
  return rows
}
