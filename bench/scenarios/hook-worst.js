// hook-worst (issue 35, the worst-case prompt): at 1,000 and 10,000 cards whose triggers are three
// words of one 20-word team vocabulary (bench/recall-cards.js, writeWorstLibrary: `${a} ${b} ${c}`,
// use_when phrases of two of the words in English and in Chinese), the prompt hook,
// `cairn hook user-prompt-submit --agent claude` as a whole process with Claude Code's JSON on stdin
// and a warm index, for two prompts: one holding six of the words (WORST_PROMPT), for which hundreds
// of cards match one of their triggers fully; and a short one with one of the words
// (WORST_SHORT_PROMPT), which a card may answer by any of its wording, though hardly any holds every
// word of it. Median CPU (user + sys, from wait4) and wall, each over the median of the `node -e 0`
// runs interleaved with them, and peak RSS; the worst-case prompt also through bin/prompt-recall.js
// (the same match, no hook runner and no deadline).
// BENCH_WORST_BASELINE=<dir of another built checkout> runs that build's hook in the same loop,
// interleaved, on the same fixture (an old build against this one); both must answer alike.
// Each size's repo is cached in BENCH_FIXTURES (default <tmp>/cairn-bench-fixtures/hook-worst-g<GENERATOR>-<n>)
// and reused while its card files are unchanged; its .cache and .local are cleared first.
// BENCH_WORST_SIZES (default 1000,10000), BENCH_WORST_RUNS runs per row (7).
import path from 'node:path'
import {cachedFixture, costSource, costStats, log, median, mustCost, promptPayload, ROOT, round} from '../lib.js'
import {WORST_PROMPT, WORST_SHORT_PROMPT, writeWorstLibrary} from '../recall-cards.js'

export const description =
  'issue 35: prompt hook for the worst-case prompt (six words of a 20-word team vocabulary), 1,000 and 10,000 cards beside node -e 0'

const SIZES = (process.env.BENCH_WORST_SIZES ?? '1000,10000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_WORST_RUNS ?? 7)
const BASELINE = process.env.BENCH_WORST_BASELINE ? path.resolve(process.env.BENCH_WORST_BASELINE) : null
/** Bump when writeWorstLibrary's output changes: cached fixtures of another generator are not used. */
const GENERATOR = 1
/** Issue 35's target at 10,000 cards: median CPU and wall over the floor's. */
const TARGET = {10000: 3}
const PROMPT_RECALL = path.join(ROOT, 'bin', 'prompt-recall.js')

const fixture = n =>
  cachedFixture(`hook-worst-g${GENERATOR}-${n}`, GENERATOR, repo => ({n, full: writeWorstLibrary(repo.dir, n).full}))

const PROMPTS = {worst: WORST_PROMPT, short: WORST_SHORT_PROMPT}

/** The hook's answer: the card ids it injected, in order. */
const injected = r => {
  const text = r.stdout.trim() ? (JSON.parse(r.stdout).hookSpecificOutput?.additionalContext ?? '') : ''
  return [...text.matchAll(/\((bench-worst-card-\d+)\)/g)].map(m => m[1])
}

async function measureSize(n) {
  const {dir: cwd, env, full} = await fixture(n)
  const node = process.execPath
  const builds = {new: ROOT, ...(BASELINE ? {old: BASELINE} : {})}
  if (full < n / 50) throw new Error(`only ${full} cards match a trigger fully: not the worst case`)
  // Each build's index (untimed), and what each prompt reaches.
  const reach = {}
  for (const [p, prompt] of Object.entries(PROMPTS)) {
    const r = await mustCost([node, PROMPT_RECALL, '--json', prompt], {cwd, env}, 'prompt-recall --json')
    const d = JSON.parse(r.stdout).data
    reach[p] = {total: d.total, considered: d.considered, shown: d.cards.length, full_trigger: full}
  }
  const hook = (root, session, prompt) => [
    [node, path.join(root, 'bin', 'run.js'), 'hook', 'user-prompt-submit', '--agent', 'claude'],
    {cwd, env, input: promptPayload(cwd, session, prompt)},
  ]
  const answers = {}
  for (const [key, root] of Object.entries(builds)) {
    await mustCost([node, path.join(root, 'bin', 'prompt-recall.js'), WORST_PROMPT], {cwd, env}, `${key} build's index`)
    for (const [p, prompt] of Object.entries(PROMPTS))
      for (let i = 0; i < 2; i++)
        answers[`${key} ${p}`] = injected(await mustCost(...hook(root, `warm-${key}-${i}`, prompt), 'warm-up'))
  }
  for (const p of Object.keys(PROMPTS))
    if (answers[`old ${p}`] && answers[`old ${p}`].join() !== answers[`new ${p}`].join())
      throw new Error(
        `the builds answer the ${p} prompt differently: ${answers[`old ${p}`].join(' ')} vs ${answers[`new ${p}`].join(' ')}`,
      )
  const keys = Object.keys(builds).flatMap(k => Object.keys(PROMPTS).map(p => `${k} ${p}`))
  const runs = {floor: [], matcher: [], ...Object.fromEntries(keys.map(k => [k, []]))}
  for (let i = 0; i < RUNS; i++) {
    runs.floor.push(await mustCost([node, '-e', '0'], {cwd, env}, 'node -e 0'))
    for (const key of i % 2 ? [...keys].reverse() : keys) {
      const [build, p] = key.split(' ')
      const h = await mustCost(
        ...hook(builds[build], `worst-${key}-${i}`.replace(' ', '-'), PROMPTS[p]),
        `prompt hook (${key})`,
      )
      if (injected(h).join() !== answers[`new ${p}`].join())
        throw new Error(`the ${key} hook answered ${h.stdout.slice(0, 300)}`)
      runs[key].push(h)
    }
    const m = [node, PROMPT_RECALL]
    runs.matcher.push(
      await mustCost(m, {cwd, env, input: promptPayload(cwd, `worst-m-${i}`, WORST_PROMPT)}, 'bin/prompt-recall.js'),
    )
    log(
      `hook-worst ${n}: run ${i + 1}/${RUNS}: cpu ms: ${['floor', ...keys, 'matcher'].map(k => `${k} ${runs[k][i].cpu_ms.toFixed(0)}`).join(', ')}`,
    )
  }
  const floor = costStats(runs.floor)
  const rows = [{name: `node -e 0 (beside the worst-case prompt) ${n}`, cards: n, ...floor}]
  const names = {
    'new worst': 'prompt hook, worst-case prompt',
    'old worst': 'prompt hook, worst-case prompt (baseline build)',
    'new short': 'prompt hook, short prompt of one team word',
    'old short': 'prompt hook, short prompt of one team word (baseline build)',
    matcher: 'matcher path, worst-case prompt (no deadline)',
  }
  for (const key of [...keys, 'matcher']) {
    const s = costStats(runs[key])
    const p = key === 'matcher' ? 'worst' : key.split(' ')[1]
    rows.push({
      name: `${names[key]} ${n}`,
      cards: n,
      ...s,
      cpu_ratio: round(s.cpu_ms / floor.cpu_ms, 2),
      wall_ratio: round(s.median_ms / floor.median_ms, 2),
      prompt: PROMPTS[p],
      ...reach[p],
      ...(key === 'matcher' ? {} : {shown_ids: answers[`new ${p}`]}),
    })
  }
  return rows
}

export async function run() {
  log(`hook-worst: CPU times from ${costSource()}`)
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
    `prompts: worst-case "${WORST_PROMPT}", short "${WORST_SHORT_PROMPT}";`,
    '  target (issue 35): at 10,000 cards cpu and wall ≤ 3x the floor.',
  ]
  process.stdout.write(`\n${notes.join('\n')}\n${lines.join('\n')}\n`)
  return rows
}
