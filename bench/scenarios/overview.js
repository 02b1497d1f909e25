// overview: `board state --overview` of the 2,000-item board (20 topics of 99 items; bench/scenarios/board.js), timed
// in process from dist/ without Node and oclif start: writeOverview draws every layer (21 pictures, the root one with
// 2,000 boxes, each topic's items nested in it), writes the SVGs, rasterises the PNGs and writes the JSON files.
import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {cleanup, log, makeRepo, median, mustSucceed, ROOT, tempDir} from '../lib.js'
import {boardBatch} from './board.js'

export const description = 'writeOverview in process: every layer of a 2,000-item board as SVG and PNG'

const NOW = '2026-10-09T12:00:00Z'
const RUNS = 5
const load = file => import(pathToFileURL(path.join(ROOT, 'dist', file)).href)

export async function run() {
  const repo = await makeRepo()
  const file = path.join(repo.base, 'setup.json')
  fs.writeFileSync(file, JSON.stringify(boardBatch()))
  await mustSucceed(
    repo.cairn(['board', 'commit', file, '--now', '2026-10-08T08:00:00Z', '--actor', 'bench']),
    'board setup',
  )
  const {createContext} = await load('context.js')
  const {openBoard} = await load('app/board/open.js')
  const {writeOverview} = await load('app/board/overview.js')
  const {viewState} = await load('domain/board/view.js')
  const ctx = createContext({cwd: repo.dir, env: repo.env, now: NOW})
  const board = await openBoard(ctx, {now: NOW}, {write: false})
  const state = {store: 'project', ...viewState(board.state, board.settings, board.now)}
  const times = []
  const cpu = []
  let images = 0
  for (let r = 0; r <= RUNS; r++) {
    const dir = tempDir('cairn-bench-overview-')
    const start = process.hrtime.bigint()
    const used = process.cpuUsage()
    const overview = await writeOverview(ctx, board, state, {dir})
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    const spent = process.cpuUsage(used)
    const cpuMs = (spent.user + spent.system) / 1000
    images = overview.images.length
    const boxes = (fs.readFileSync(path.join(dir, 'now-root.svg'), 'utf8').match(/data-box="item"/g) ?? []).length
    if (images !== 21 || boxes !== 2000)
      throw new Error(`expected 21 pictures and 2,000 boxes in the root one, got ${images} and ${boxes}`)
    cleanup(dir)
    // The first run loads resvg and the font: reported, not counted.
    if (r === 0) log(`warm-up: ${ms.toFixed(1)} ms`)
    else (times.push(ms), cpu.push(cpuMs), log(`run ${r}/${RUNS}: ${ms.toFixed(1)} ms (CPU ${cpuMs.toFixed(1)} ms)`))
  }
  return [
    {
      name: `writeOverview: 2,000 items, ${images} layers (SVG + PNG each)`,
      median_ms: Math.round(median(times) * 10) / 10,
      runs_ms: times.map(t => Math.round(t * 10) / 10),
      peak_rss_mb: null,
      items: 2000,
      images,
      // On a busy machine the wall time waits for other processes; the CPU time this process spent does not.
      cpu_median_ms: Math.round(median(cpu) * 10) / 10,
    },
  ]
}
