// recall: wall time and peak memory of `cairn recall` and of the prompt-hook matcher path
// (bin/prompt-recall.js, warm index) at 100, 1,000, 10,000 and 100,000 cards, next to the floor
// (`node -e 0`), with the cold index build's time and the index's size.
//
// Set-up (not timed): a fresh repo per size; card files are generated straight into
// .cairn/cards/ (see bench/recall-cards.js) and left uncommitted, which neither path cares about;
// one hook run builds the index cache, timed once as "index build (cold)".
// BENCH_RECALL_SIZES=100,1000 picks sizes; BENCH_RECALL_RUNS sets runs per row (default 5).
import fs from 'node:fs'
import path from 'node:path'
import {log, makeRepo, measure, ROOT} from '../lib.js'
import {PROMPTS, writeLibrary} from '../recall-cards.js'

export const description =
  'cairn recall and the prompt-hook path, 100 to 100,000 cards, against node -e 0, with the index build and size'

const SIZES = (process.env.BENCH_RECALL_SIZES ?? '100,1000,10000,100000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_RECALL_RUNS ?? 5)
const HOOK = path.join(ROOT, 'bin', 'prompt-recall.js')

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
      const build = await measure({
        name: `index build (cold) ${n}`,
        runs: 1,
        command: () => ({argv: [process.execPath, HOOK, en.text], cwd, env}),
        verify: expectCard(en.expect),
        extra: {cards: n},
      })
      const floor = await measure({
        name: `node -e 0 (${n})`,
        runs,
        command: () => ({argv: [process.execPath, '-e', '0'], cwd, env}),
        extra: {cards: n},
      })
      const bytes = fs.statSync(path.join(cwd, '.cairn', '.cache', 'recall-index')).size
      const size = {
        name: `index size ${n}`,
        median_ms: null,
        runs_ms: [],
        peak_rss_mb: null,
        cards: n,
        index_bytes: bytes,
      }
      log(`recall index at ${n} cards: ${(bytes / 1024 / 1024).toFixed(2)} MB`)
      const hook = await measure({
        name: `hook path warm ${n}`,
        runs,
        command: () => ({argv: [process.execPath, HOOK, en.text], cwd, env}),
        verify: expectCard(en.expect),
        extra: {cards: n},
      })
      const hookZh = await measure({
        name: `hook path warm zh ${n}`,
        runs,
        command: () => ({argv: [process.execPath, HOOK, zh.text], cwd, env}),
        verify: expectCard(zh.expect),
        extra: {cards: n},
      })
      const recall = await measure({
        name: `cairn recall ${n}`,
        runs,
        command: () => ({args: ['recall', en.text], cwd, env}),
        verify: expectCard(en.expect),
        extra: {cards: n},
      })
      rows.push(build, size, floor, hook, hookZh, recall)
      table.push({n, floor, hook, hookZh, recall, build, bytes})
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
  const head = [
    'cards',
    'node -e 0',
    'hook ms',
    'hook/node',
    'hook MB',
    'hook zh ms',
    'recall ms',
    'recall/node',
    'recall MB',
    'cold build ms',
    'index MB',
  ]
  const body = table.map(t => [
    String(t.n),
    f(t.floor.median_ms),
    f(t.hook.median_ms),
    r(t.hook.median_ms, t.floor.median_ms),
    f(t.hook.peak_rss_mb),
    f(t.hookZh.median_ms),
    f(t.recall.median_ms),
    r(t.recall.median_ms, t.floor.median_ms),
    f(t.recall.peak_rss_mb),
    f(t.build.median_ms),
    (t.bytes / 1024 / 1024).toFixed(2),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map(b => b[i].length)))
  const line = cells => cells.map((c, i) => c.padStart(widths[i])).join('  ')
  process.stdout.write(
    `\nrecall: medians side by side (ms; MB = peak RSS)\n${[line(head), ...body.map(line)].join('\n')}\n`,
  )
}
