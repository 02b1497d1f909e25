// search (issue 35): `cairn search <pattern> --json` over 1,000 and 10,000 cards, with ripgrep and with the
// search in Node that runs where rg is missing (CAIRN_RG=off), beside the node floor (`node -e 0`).
//
// The library is bench/recall-cards.js's (one word in five from a team vocabulary, 5% hand-edited layouts, CRLF
// among them), written as files, with one card in ten moved to pending/ and one in ten to an archive, so the search
// crosses every folder; committed. Three patterns: a regex that thousands of cards match (team words as whole
// words), a fixed string a few hundred of 10,000 match, and one that matches nothing. Each run times, interleaved,
// the floor, the rg search and the Node search as whole processes (CPU from wait4); the two engines' hits must be
// equal (checked, not timed). BENCH_SEARCH_SIZES (1000,10000) and BENCH_SEARCH_RUNS (5) choose the sizes and runs.
import fs from 'node:fs'
import path from 'node:path'
import {BIN, log, makeRepo, median, runCost} from '../lib.js'
import {writeLibrary} from '../recall-cards.js'

export const description =
  'issue 35: cairn search --json, ripgrep and the Node fallback, 1,000 and 10,000 cards, beside node -e 0'

const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '1000,10000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 5)
const PATTERNS = [
  {name: 'common regex', args: ['\\b(retry|queue)\\w*']},
  {name: 'fixed string, few cards', args: ['-F', 'queue worker']},
  {name: 'no match', args: ['zebra-quartz-nothing']},
]
const round = (x, d = 1) => (x === null || x === undefined ? null : Math.round(x * 10 ** d) / 10 ** d)

/** A committed store of n cards across cards/, pending/ and one archive. */
async function fixture(n) {
  const repo = await makeRepo()
  writeLibrary(repo.dir, n, 42, {team: 0.2, canonical: true, handEdited: 0.05})
  const store = path.join(repo.dir, '.cairn')
  let i = 0
  for (const type of fs.readdirSync(path.join(store, 'cards'))) {
    for (const file of fs.readdirSync(path.join(store, 'cards', type)).sort()) {
      const to = i % 10 === 3 ? 'pending' : i % 10 === 7 ? 'archive/2026-01-01T00-00-00Z/cards' : null
      i++
      if (!to) continue
      fs.mkdirSync(path.join(store, to, type), {recursive: true})
      fs.renameSync(path.join(store, 'cards', type, file), path.join(store, to, type, file))
    }
  }
  repo.git('-c', 'core.safecrlf=false', 'add', '-A', '.cairn')
  repo.git('commit', '-q', '-m', `bench: ${n} cards`)
  return repo
}

const stat = runs => ({
  median_ms: round(median(runs.map(r => r.wall_ms))),
  runs_ms: runs.map(r => round(r.wall_ms)),
  cpu_ms: round(median(runs.map(r => r.cpu_ms))),
  peak_rss_mb: round(Math.max(...runs.map(r => r.peak_rss_mb))),
})

async function cairn(repo, args, env) {
  const r = await runCost([process.execPath, BIN, 'search', ...args, '--json'], {cwd: repo.dir, env})
  if (r.code !== 0) throw new Error(`cairn search ${args.join(' ')} exited ${r.code}: ${r.stderr.slice(0, 2000)}`)
  return {...r, data: JSON.parse(r.stdout).data}
}

async function measureSize(n) {
  log(`search: writing ${n} cards`)
  const repo = await fixture(n)
  const rows = []
  try {
    const floor = []
    const runs = PATTERNS.map(() => ({rg: [], node: [], hits: 0}))
    for (let i = 0; i < RUNS; i++) {
      floor.push(await runCost([process.execPath, '-e', '0'], {cwd: repo.dir, env: repo.env}))
      for (const [k, p] of PATTERNS.entries()) {
        const rg = await cairn(repo, p.args, repo.env)
        const node = await cairn(repo, p.args, {...repo.env, CAIRN_RG: 'off'})
        if (rg.data.engine !== 'ripgrep' || node.data.engine !== 'node') throw new Error('search: wrong engine')
        if (JSON.stringify(rg.data.hits) !== JSON.stringify(node.data.hits))
          throw new Error(`search: the engines disagree on ${p.args.join(' ')} at ${n} cards`)
        runs[k].rg.push(rg)
        runs[k].node.push(node)
        runs[k].hits = rg.data.hits.length
        runs[k].files = rg.data.files
        log(
          `search: ${n} cards, ${p.name}, run ${i + 1}/${RUNS}: rg ${rg.wall_ms.toFixed(0)} ms, node ${node.wall_ms.toFixed(0)} ms`,
        )
      }
    }
    const base = stat(floor)
    rows.push({name: `node floor (node -e 0) ${n}`, cards: n, ...base})
    for (const [k, p] of PATTERNS.entries()) {
      for (const engine of ['rg', 'node']) {
        const s = stat(runs[k][engine])
        rows.push({
          name: `search ${p.name}, ${engine === 'rg' ? 'ripgrep' : 'Node fallback'} ${n}`,
          cards: n,
          hits: runs[k].hits,
          cards_matched: runs[k].files,
          ...s,
          x_floor: round(s.median_ms / base.median_ms),
        })
      }
    }
  } finally {
    repo.remove()
  }
  return rows
}

export async function run() {
  const rows = []
  for (const n of SIZES) rows.push(...(await measureSize(n)))
  return rows
}
