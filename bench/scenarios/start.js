// start: what a person waits for at the terminal, each whole process beside `node -e 0` run just
// before it (in the untimed set-up), so every ratio is to the floor of the same moment.
//   cairn --version                  nothing but oclif's start
//   cairn list on 20 cards           a small team store, committed
//   cairn recall on 100 cards        both benchmark prompts (English and Chinese), each with a
//                                    planted answer, on a warm index
// Target (issue 13): cairn list within 3x the floor. BENCH_START_RUNS sets runs per row (9).
import {execFileSync} from 'node:child_process'
import {BIN, log, makeRepo, measure, median, runProcess} from '../lib.js'
import {PROMPTS, writeLibrary} from '../recall-cards.js'

export const description = 'CLI start: --version, list on 20 cards, recall on 100 cards, against node -e 0'

const RUNS = Number(process.env.BENCH_START_RUNS ?? 9)
const LIST_TARGET = 3

/** A store of n committed cards, so list and recall read a clean tree. */
async function store(n) {
  const repo = await makeRepo()
  writeLibrary(repo.dir, n)
  repo.git('add', '-A')
  repo.git('commit', '-q', '-m', `${n} cards`)
  return repo
}

export async function run() {
  const small = await store(20)
  const large = await store(100)
  try {
    const floors = []
    const timed = (name, repo, args, verify) =>
      measure({
        name,
        runs: RUNS,
        setup: async () => {
          floors.push(await runProcess([process.execPath, '-e', '0'], {cwd: repo.dir, env: repo.env}))
          return {}
        },
        command: () => ({args, cwd: repo.dir, env: repo.env}),
        verify,
      })
    // Warm: the recall index exists, as it does after the first recall or hook.
    for (const p of PROMPTS)
      execFileSync(process.execPath, [BIN, 'recall', p.text], {cwd: large.dir, env: large.env, stdio: 'ignore'})
    const version = await timed('cairn --version', small, ['--version'], r => {
      if (!/^cairn-memory\/\d/.test(r.stdout)) throw new Error(`--version printed ${r.stdout}`)
    })
    const list = await timed('cairn list (20 cards)', small, ['list'], r => {
      if (r.stdout.trim().split('\n').length !== 21)
        throw new Error(`list printed ${r.stdout.split('\n').length} lines, expected a heading and 20 cards`)
    })
    const recalls = []
    for (const [i, p] of PROMPTS.entries()) {
      recalls.push(
        await timed(`cairn recall (100 cards, prompt ${i + 1})`, large, ['recall', p.text], r => {
          if (!r.stdout.includes(`(${p.expect})`))
            throw new Error(`recall did not bring ${p.expect}: ${r.stdout.slice(0, 400)}`)
        }),
      )
    }
    const floor = {
      name: 'node -e 0 (beside every run)',
      median_ms: median(floors.map(f => f.wall_ms)),
      runs_ms: floors.map(f => Math.round(f.wall_ms)),
      peak_rss_mb: Math.max(...floors.map(f => f.peak_rss_mb ?? 0)) || null,
    }
    const rows = [floor, version, list, ...recalls]
    for (const r of rows.slice(1)) r.ratio = Math.round((r.median_ms / floor.median_ms) * 100) / 100
    const ok = list.ratio <= LIST_TARGET
    log(
      `floor ${floor.median_ms.toFixed(0)} ms; ${rows
        .slice(1)
        .map(r => `${r.name} ${r.median_ms.toFixed(0)} ms (${r.ratio}x)`)
        .join('; ')}`,
    )
    log(`cairn list is ${list.ratio}x the floor: ${ok ? 'within' : 'OVER'} the ${LIST_TARGET}x target`)
    return rows
  } finally {
    small.remove()
    large.remove()
  }
}
