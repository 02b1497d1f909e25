// recall: wall time and peak memory of `cairn recall` and of the prompt-hook matcher path
// (bin/prompt-recall.js, warm index) at 100, 1,000, 10,000 and 100,000 cards, next to the floor
// (`node -e 0`) and the search limit (the same ripgrep search `cairn recall` runs, alone).
//
// Set-up (not timed): a fresh repo per size; card files are generated straight into
// .cairn/cards/ (see bench/recall-cards.js) and left uncommitted, which neither path cares about;
// one hook run builds the index cache, timed once as "index build (cold)".
// BENCH_RECALL_SIZES=100,1000 picks sizes; BENCH_RECALL_RUNS sets runs per row (default 5).
import path from 'node:path'
import {rgPath} from '@vscode/ripgrep'
import {log, makeRepo, measure, ROOT} from '../lib.js'
import {PROMPTS, writeLibrary} from '../recall-cards.js'

export const description = 'cairn recall and the prompt-hook path, 100 to 100,000 cards, against node -e 0 and rg'

const SIZES = (process.env.BENCH_RECALL_SIZES ?? '100,1000,10000,100000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_RECALL_RUNS ?? 5)
const HOOK = path.join(ROOT, 'bin', 'prompt-recall.js')

async function searchArgs(prompt) {
  // The exact search `cairn recall` runs, so the rg row is its search alone.
  const {analysePrompt} = await import(path.join(ROOT, 'dist/domain/recall/prompt.js'))
  const {buildRegistry} = await import(path.join(ROOT, 'dist/domain/recall/signals.js'))
  const {candidateTerms} = await import(path.join(ROOT, 'dist/domain/recall/tokenize.js'))
  const {searchArgs} = await import(path.join(ROOT, 'dist/store/ripgrep.js'))
  const terms = candidateTerms(analysePrompt(prompt, buildRegistry()).active).map(t => (t.length > 3 && t.endsWith('y') ? t.slice(0, -1) : t))
  return searchArgs(['.cairn/cards'], terms)
}

const expectCard = id => r => {
  if (!r.stdout.includes(`(${id})`)) throw new Error(`expected ${id} in the output, got: ${r.stdout.slice(0, 500)}`)
}

export async function run() {
  const rows = []
  const table = []
  for (const n of SIZES) {
    const repo = await makeRepo()
    try {
      const t = Date.now()
      writeLibrary(repo.dir, n)
      log(`recall setup: ${n} card files in ${((Date.now() - t) / 1000).toFixed(1)} s`)
      const env = repo.env
      const cwd = repo.dir
      const runs = n >= 100000 ? Math.min(RUNS, 3) : RUNS
      const [en, zh] = PROMPTS
      const build = await measure({name: `index build (cold) ${n}`, runs: 1, command: () => ({argv: [process.execPath, HOOK, en.text], cwd, env}), verify: expectCard(en.expect), extra: {cards: n}})
      const floor = await measure({name: `node -e 0 (${n})`, runs, command: () => ({argv: [process.execPath, '-e', '0'], cwd, env}), extra: {cards: n}})
      const rg = await measure({name: `rg search ${n}`, runs, command: async () => ({argv: [rgPath, ...(await searchArgs(en.text))], cwd, env}), extra: {cards: n}})
      const hook = await measure({name: `hook path warm ${n}`, runs, command: () => ({argv: [process.execPath, HOOK, en.text], cwd, env}), verify: expectCard(en.expect), extra: {cards: n}})
      const hookZh = await measure({name: `hook path warm zh ${n}`, runs, command: () => ({argv: [process.execPath, HOOK, zh.text], cwd, env}), verify: expectCard(zh.expect), extra: {cards: n}})
      const recall = await measure({name: `cairn recall ${n}`, runs, command: () => ({args: ['recall', en.text], cwd, env}), verify: expectCard(en.expect), extra: {cards: n}})
      rows.push(build, floor, rg, hook, hookZh, recall)
      table.push({n, floor, rg, hook, hookZh, recall, build})
    } finally {
      repo.remove()
    }
  }
  printRatios(table)
  return rows
}

function printRatios(table) {
  const f = x => (x === null || x === undefined ? '—' : x.toFixed(0))
  const r = (a, b) => (a && b ? `${(a / b).toFixed(1)}x` : '—')
  const head = ['cards', 'node -e 0', 'rg', 'hook ms', 'hook/node', 'hook/rg', 'hook MB', 'hook zh ms', 'recall ms', 'recall/node', 'recall/rg', 'recall MB', 'cold build ms']
  const body = table.map(t => [String(t.n), f(t.floor.median_ms), f(t.rg.median_ms), f(t.hook.median_ms), r(t.hook.median_ms, t.floor.median_ms), r(t.hook.median_ms, t.rg.median_ms), f(t.hook.peak_rss_mb), f(t.hookZh.median_ms), f(t.recall.median_ms), r(t.recall.median_ms, t.floor.median_ms), r(t.recall.median_ms, t.rg.median_ms), f(t.recall.peak_rss_mb), f(t.build.median_ms)])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map(b => b[i].length)))
  const line = cells => cells.map((c, i) => c.padStart(widths[i])).join('  ')
  process.stdout.write(`\nrecall: medians side by side (ms; MB = peak RSS)\n${[line(head), ...body.map(line)].join('\n')}\n`)
}
