// hook-worst (issue 35, the worst-case prompt): at 1,000 and 10,000 cards whose triggers are three
// words of one 20-word team vocabulary (bench/recall-cards.js, writeWorstLibrary: `${a} ${b} ${c}`,
// use_when phrases of two of the words in English and in Chinese), the prompt hook,
// `cairn hook user-prompt-submit --agent claude` as a whole process with Claude Code's JSON on stdin
// and a warm index, for a prompt holding six of the words (WORST_PROMPT): hundreds of cards match
// one of their triggers fully. Median CPU (user + sys, from wait4) and wall, each over the median of
// the `node -e 0` runs interleaved with them, and peak RSS; the same prompt through
// bin/prompt-recall.js (the same match, no hook runner and no deadline).
// BENCH_WORST_BASELINE=<dir of another built checkout> runs that build's hook in the same loop,
// interleaved, on the same fixture (an old build against this one).
// Each size's repo is cached in BENCH_FIXTURES (default <tmp>/cairn-bench-fixtures/hook-worst-g<GENERATOR>-<n>)
// and reused while its card files are unchanged; its .cache and .local are cleared first.
// BENCH_WORST_SIZES (default 1000,10000), BENCH_WORST_RUNS runs per row (7).
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {costSource, log, makeRepo, median, ROOT, runCost, sandboxEnv} from '../lib.js'
import {WORST_PROMPT, writeWorstLibrary} from '../recall-cards.js'

export const description =
  'issue 35: prompt hook for the worst-case prompt (six words of a 20-word team vocabulary), 1,000 and 10,000 cards beside node -e 0'

const SIZES = (process.env.BENCH_WORST_SIZES ?? '1000,10000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_WORST_RUNS ?? 7)
const FIXTURES = process.env.BENCH_FIXTURES ?? path.join(os.tmpdir(), 'cairn-bench-fixtures')
const FRESH = process.env.BENCH_FIXTURES_FRESH === '1'
const BASELINE = process.env.BENCH_WORST_BASELINE ? path.resolve(process.env.BENCH_WORST_BASELINE) : null
/** Bump when writeWorstLibrary's output changes: cached fixtures of another generator are not used. */
const GENERATOR = 1
/** Issue 35's target at 10,000 cards: median CPU and wall over the floor's. */
const TARGET = {10000: 3}
const PROMPT_RECALL = path.join(ROOT, 'bin', 'prompt-recall.js')

const rmrf = p => fs.rmSync(p, {recursive: true, force: true})

async function fixture(n) {
  const base = path.join(FIXTURES, `hook-worst-g${GENERATOR}-${n}`)
  const dir = path.join(base, 'repo')
  const home = path.join(base, 'home')
  const marker = path.join(base, 'fixture.json')
  const env = sandboxEnv(home)
  if (!FRESH && fs.existsSync(marker)) {
    const m = JSON.parse(fs.readFileSync(marker, 'utf8'))
    const status = ['status', '--porcelain', '--untracked-files=all', '--', '.cairn/cards']
    const changed = execFileSync('git', status, {cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28})
    if (m.generator === GENERATOR && m.n === n && changed === '') {
      for (const d of [path.join(dir, '.cairn', '.cache'), path.join(dir, '.cairn', '.local')]) rmrf(d)
      log(`hook-worst: ${n} cards: cached fixture ${base}`)
      return {dir, env, ...m}
    }
  }
  rmrf(base)
  fs.mkdirSync(base, {recursive: true})
  const repo = await makeRepo({base})
  const {full} = writeWorstLibrary(dir, n)
  repo.git('add', '-A', '.cairn')
  repo.git('commit', '-q', '-m', `bench: ${n} worst-case cards`)
  const m = {generator: GENERATOR, n, full}
  fs.writeFileSync(marker, `${JSON.stringify(m)}\n`)
  log(`hook-worst: ${n} cards written and committed (${base})`)
  return {dir, env, ...m}
}

const hookPayload = (cwd, session) =>
  JSON.stringify({
    session_id: session,
    transcript_path: null,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt: WORST_PROMPT,
  })

async function mustRun(argv, opts, what) {
  const r = await runCost(argv, opts)
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\nstderr: ${r.stderr.slice(0, 2000)}`)
  return r
}

const round = (x, d = 1) => (x === null || x === undefined ? null : Math.round(x * 10 ** d) / 10 ** d)
const stat = runs => ({
  median_ms: round(median(runs.map(r => r.wall_ms))),
  runs_ms: runs.map(r => round(r.wall_ms)),
  cpu_ms: round(median(runs.map(r => r.cpu_ms))),
  runs_cpu_ms: runs.map(r => round(r.cpu_ms)),
  peak_rss_mb: round(Math.max(...runs.map(r => r.peak_rss_mb))),
})

/** The hook's answer: the card ids it injected, in order. */
const injected = r => {
  const text = r.stdout.trim() ? (JSON.parse(r.stdout).hookSpecificOutput?.additionalContext ?? '') : ''
  return [...text.matchAll(/\((bench-worst-card-\d+)\)/g)].map(m => m[1])
}

async function measureSize(n) {
  const {dir: cwd, env, full} = await fixture(n)
  const node = process.execPath
  const builds = {new: ROOT, ...(BASELINE ? {old: BASELINE} : {})}
  // Build each index (untimed), and what the prompt reaches.
  const r = await mustRun([node, PROMPT_RECALL, '--json', WORST_PROMPT], {cwd, env}, 'prompt-recall --json')
  const d = JSON.parse(r.stdout).data
  const reach = {total: d.total, considered: d.considered, shown: d.cards.length, full_trigger: full}
  if (full < n / 50) throw new Error(`only ${full} cards match a trigger fully: not the worst case`)
  const hook = (root, session) => [
    [node, path.join(root, 'bin', 'run.js'), 'hook', 'user-prompt-submit', '--agent', 'claude'],
    {cwd, env, input: hookPayload(cwd, session)},
  ]
  const answers = {}
  for (const [key, root] of Object.entries(builds)) {
    await mustRun([node, path.join(root, 'bin', 'prompt-recall.js'), WORST_PROMPT], {cwd, env}, `${key} build's index`)
    for (let i = 0; i < 2; i++) answers[key] = injected(await mustRun(...hook(root, `warm-${key}-${i}`), 'warm-up'))
  }
  if (answers.old && answers.old.join() !== answers.new.join())
    throw new Error(`the builds answer differently: ${answers.old.join(' ')} vs ${answers.new.join(' ')}`)
  const runs = {floor: [], matcher: [], ...Object.fromEntries(Object.keys(builds).map(k => [k, []]))}
  for (let i = 0; i < RUNS; i++) {
    runs.floor.push(await mustRun([node, '-e', '0'], {cwd, env}, 'node -e 0'))
    const order = Object.keys(builds)
    for (const key of i % 2 ? order.reverse() : order) {
      const h = await mustRun(...hook(builds[key], `worst-${key}-${i}`), `prompt hook (${key})`)
      if (injected(h).join() !== answers.new.join())
        throw new Error(`the ${key} hook answered ${h.stdout.slice(0, 300)}`)
      runs[key].push(h)
    }
    const m = [node, PROMPT_RECALL]
    runs.matcher.push(await mustRun(m, {cwd, env, input: hookPayload(cwd, `worst-m-${i}`)}, 'bin/prompt-recall.js'))
    const ms = key => runs[key][i].cpu_ms.toFixed(0)
    log(
      `hook-worst ${n}: run ${i + 1}/${RUNS}: cpu ms: floor ${ms('floor')}, hook ${ms('new')}` +
        `${BASELINE ? `, baseline hook ${ms('old')}` : ''}, matcher ${ms('matcher')}`,
    )
  }
  const floor = stat(runs.floor)
  const rows = [{name: `node -e 0 (beside the worst-case prompt) ${n}`, cards: n, ...floor}]
  const names = {
    new: 'prompt hook, worst-case prompt',
    old: 'prompt hook, worst-case prompt (baseline build)',
    matcher: 'matcher path, worst-case prompt (no deadline)',
  }
  for (const key of ['new', ...(BASELINE ? ['old'] : []), 'matcher']) {
    const s = stat(runs[key])
    rows.push({
      name: `${names[key]} ${n}`,
      cards: n,
      ...s,
      cpu_ratio: round(s.cpu_ms / floor.cpu_ms, 2),
      wall_ratio: round(s.median_ms / floor.median_ms, 2),
      ...reach,
      ...(key === 'matcher' ? {} : {shown_ids: answers.new}),
    })
  }
  return rows
}

export async function run() {
  log(`hook-worst: CPU times from ${costSource()}; prompt: "${WORST_PROMPT}"`)
  const rows = []
  for (const n of SIZES) rows.push(...(await measureSize(n)))
  const f = (x, dd = 0) => (x === null || x === undefined ? '—' : Number(x).toFixed(dd))
  const lines = rows.map(r => {
    const t = TARGET[r.cards]
    const mark = r.cpu_ratio === undefined || !t ? '' : r.cpu_ratio <= t && r.wall_ratio <= t ? ' ok' : ` MISS(>${t}x)`
    const ratios = r.cpu_ratio === undefined ? '' : `  cpu ${f(r.cpu_ratio, 2)}x wall ${f(r.wall_ratio, 2)}x${mark}`
    return `${r.name.padEnd(62)} cpu ${f(r.cpu_ms).padStart(5)} ms  wall ${f(r.median_ms).padStart(5)} ms  ${f(r.peak_rss_mb).padStart(4)} MB${ratios}`
  })
  const notes = [
    `hook-worst: medians of ${RUNS} runs; cpu = user + sys (${costSource()}), over the median of the node -e 0 runs interleaved.`,
    `prompt: "${WORST_PROMPT}"; target (issue 35): at 10,000 cards cpu and wall ≤ 3x the floor.`,
  ]
  process.stdout.write(`\n${notes.join('\n')}\n${lines.join('\n')}\n`)
  return rows
}
