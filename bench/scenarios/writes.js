// writes: what one write and one bulk write cost (issue 35), beside their floors.
//
// At each size (BENCH_WRITES_SIZES, default 1000,10000) one committed store of that many active cards
// (the recall benchmark's canonical library) with its recall index built, then, each run timed as a
// whole process:
//   floors          `node -e 0`, and `git commit` of one changed file in the same repo
//   one card        `cairn propose` (flags), `review approve <id>`, `review modify <id> --set title=…`,
//                   `archive <id>`; the card each needs is made in the untimed set-up
//   bulk            `cairn propose <file>` of that many cards from one JSON file, and
//                   `review approve --all` of that many pending cards, each in a fresh repo, one commit
// Before each timed run the background rebuild of the recall index a previous write started is waited
// out, so no run pays for another's. With BENCH_WRITES_BASELINE=<another checkout>/bin/run.js each
// run is made with both builds, alternating which goes first (before and after, interleaved).
// BENCH_WRITES_RUNS (default 3) runs per one-card row; bulk rows run BENCH_WRITES_BULK_RUNS (default 1), and
// BENCH_WRITES_BULK=0 leaves them out. Each row has the median wall time and the median CPU (user + sys, git's
// children included: runCost), since on a shared machine wall time swings with the others' load.
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {BIN, countFiles, log, makeRepo, median, runCost} from '../lib.js'
import {writeLibrary} from '../recall-cards.js'
import {generateCards} from './propose.js'

export const description =
  'issue 35: one-card propose/approve/modify/archive and bulk propose/approve, beside node -e 0 and git commit'

const SIZES = (process.env.BENCH_WRITES_SIZES ?? '1000,10000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_WRITES_RUNS ?? 3)
const BULK_RUNS = Number(process.env.BENCH_WRITES_BULK_RUNS ?? 1)
const BULK = process.env.BENCH_WRITES_BULK !== '0'
const BASELINE = process.env.BENCH_WRITES_BASELINE
const BUILDS = [{label: 'this', bin: BIN}, ...(BASELINE ? [{label: 'baseline', bin: path.resolve(BASELINE)}] : [])]

/** git's own path: runCost starts its program by path, not through PATH. */
const GIT = execFileSync('sh', ['-c', 'command -v git'], {encoding: 'utf8'}).trim()

const round = x => (x === null ? null : Math.round(x * 10) / 10)

/** Runs the CLI of one build; fails loudly when it does not exit 0. */
async function cairn(build, repo, args, what = args.join(' ')) {
  const r = await runCost([process.execPath, build.bin, ...args], {cwd: repo.dir, env: repo.env})
  if (r.code !== 0) throw new Error(`${what} (${build.label}) exited ${r.code}\nstderr: ${r.stderr.slice(0, 2000)}`)
  return r
}

/** Waits until no background rebuild of the recall index holds its lock (a write-through may have started one). */
async function settled(repo) {
  const lock = path.join(repo.dir, '.cairn', '.cache', 'recall-index.lock')
  const until = Date.now() + 300_000
  while (fs.existsSync(lock) && Date.now() < until) await new Promise(resolve => setTimeout(resolve, 50))
}

/** A committed store of n active cards whose recall index is built and proven. */
async function library(n) {
  const repo = await makeRepo()
  writeLibrary(repo.dir, n, 42, {team: 0.2, canonical: true, handEdited: 0.05})
  repo.git('add', '-A', '.cairn')
  repo.git('commit', '-q', '-m', 'cards')
  await cairn(BUILDS[0], repo, ['recall', 'retry budget for the queue worker'], 'index build')
  return repo
}

/** Each run of each build, alternating which build goes first; returns one row per build. */
async function rows(name, runs, one, extra = {}) {
  const samples = new Map(BUILDS.map(b => [b.label, {ms: [], cpu: [], mb: []}]))
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? BUILDS : [...BUILDS].reverse()
    for (const build of order) {
      const r = await one(build, i)
      samples.get(build.label).ms.push(r.wall_ms)
      samples.get(build.label).cpu.push(r.cpu_ms)
      samples.get(build.label).mb.push(r.peak_rss_mb)
      log(
        `${name} (${build.label}): run ${i + 1}/${runs} ${r.wall_ms.toFixed(0)} ms wall, ${r.cpu_ms.toFixed(0)} ms cpu, ${r.peak_rss_mb?.toFixed(1)} MB`,
      )
    }
  }
  return BUILDS.map(b => {
    const s = samples.get(b.label)
    const mb = s.mb.filter(x => x !== null)
    return {
      name: BASELINE ? `${name} [${b.label}]` : name,
      median_ms: round(median(s.ms)),
      runs_ms: s.ms.map(round),
      cpu_ms: round(median(s.cpu)),
      runs_cpu_ms: s.cpu.map(round),
      peak_rss_mb: mb.length ? round(Math.max(...mb)) : null,
      ...extra,
    }
  })
}

const slugOf = (build, op, n, i) => `write-bench-${build.label}-${op}-${n}x${i}`

const proposeArgs = slug => [
  'propose',
  '--type',
  'pitfall',
  '--slug',
  slug,
  '--title',
  `Retry budget of the queue worker ${slug.slice(-6)}`,
  '--summary',
  'When the queue worker retries without a budget, the queue stalls; cap retries at three and log each.',
  '--trigger',
  'queue worker retry budget',
]

/** An active card made by this build, untimed. */
async function activeCard(build, repo, op, n, i) {
  const slug = slugOf(build, op, n, i)
  await cairn(build, repo, proposeArgs(slug))
  await cairn(build, repo, ['review', 'approve', slug])
  return slug
}

/** The commit the timed write made is cairn's, and it left the work tree clean. */
function committed(repo, op, head) {
  const subject = repo.git('log', '-1', '--format=%s').trim()
  if (!subject.startsWith(`cairn(${op})`) || repo.git('rev-parse', 'HEAD').trim() === head)
    throw new Error(`expected a new cairn(${op}) commit, HEAD is "${subject}"`)
  const dirty = repo.git('status', '--porcelain').trim()
  if (dirty) throw new Error(`work tree not clean after ${op}:\n${dirty.slice(0, 500)}`)
}

async function oneCardRows(n) {
  const repo = await library(n)
  const out = []
  const timed = async (build, op, args) => {
    await settled(repo)
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await cairn(build, repo, args)
    committed(repo, op, head)
    return r
  }
  try {
    out.push(
      ...(await rows(`node -e 0 (${n} cards)`, RUNS, async () =>
        runCost([process.execPath, '-e', '0'], {cwd: repo.dir, env: repo.env}),
      )),
    )
    out.push(
      ...(await rows(`git commit of one file (${n} cards)`, RUNS, async (_b, i) => {
        fs.appendFileSync(path.join(repo.dir, 'README.md'), `floor ${i}\n`)
        return runCost([GIT, 'commit', '-q', '-m', 'floor', '--', 'README.md'], {cwd: repo.dir, env: repo.env})
      })),
    )
    out.push(
      ...(await rows(`propose one card (${n} cards)`, RUNS, (build, i) =>
        timed(build, 'propose', proposeArgs(slugOf(build, 'propose', n, i))),
      )),
    )
    out.push(
      ...(await rows(`review approve one card (${n} cards)`, RUNS, async (build, i) => {
        const slug = slugOf(build, 'approve', n, i)
        await cairn(build, repo, proposeArgs(slug))
        return timed(build, 'approve', ['review', 'approve', slug])
      })),
    )
    out.push(
      ...(await rows(`review modify one card (${n} cards)`, RUNS, async (build, i) => {
        const slug = await activeCard(build, repo, 'modify', n, i)
        return timed(build, 'modify', ['review', 'modify', slug, '--set', `title=Retry budget, modified ${i}`])
      })),
    )
    out.push(
      ...(await rows(`archive one card (${n} cards)`, RUNS, async (build, i) => {
        const slug = await activeCard(build, repo, 'archive', n, i)
        return timed(build, 'archive', ['archive', slug])
      })),
    )
  } finally {
    await settled(repo)
    repo.remove()
  }
  return out
}

/** A fresh repo with the n-card proposal file beside it (outside the work tree). */
async function bulkRepo(n) {
  const repo = await makeRepo()
  const file = path.join(repo.base, 'cards.json')
  fs.writeFileSync(file, JSON.stringify(generateCards(n)))
  return {repo, file}
}

async function bulkRows(n) {
  const out = []
  out.push(
    ...(await rows(
      `propose ${n} cards from one file`,
      BULK_RUNS,
      async build => {
        const {repo, file} = await bulkRepo(n)
        try {
          const head = repo.git('rev-parse', 'HEAD').trim()
          const r = await cairn(build, repo, ['propose', file])
          committed(repo, 'propose', head)
          const pending = countFiles(path.join(repo.dir, '.cairn', 'pending'))
          if (pending !== n) throw new Error(`expected ${n} pending cards, found ${pending}`)
          if (repo.git('rev-list', '--count', `${head}..HEAD`).trim() !== '1') throw new Error('expected one commit')
          return r
        } finally {
          repo.remove()
        }
      },
      {cards: n},
    )),
  )
  out.push(
    ...(await rows(
      `review approve --all of ${n} cards`,
      BULK_RUNS,
      async build => {
        const {repo, file} = await bulkRepo(n)
        try {
          await cairn(build, repo, ['propose', file])
          const head = repo.git('rev-parse', 'HEAD').trim()
          const r = await cairn(build, repo, ['review', 'approve', '--all', '--json'])
          committed(repo, 'approve', head)
          if (JSON.parse(r.stdout).data.cards.length !== n) throw new Error(`approve did not report ${n} cards`)
          if (countFiles(path.join(repo.dir, '.cairn', 'cards')) !== n) throw new Error(`expected ${n} active cards`)
          if (repo.git('rev-list', '--count', `${head}..HEAD`).trim() !== '1') throw new Error('expected one commit')
          return r
        } finally {
          repo.remove()
        }
      },
      {cards: n},
    )),
  )
  return out
}

export async function run() {
  const out = []
  for (const n of SIZES) {
    out.push(...(await oneCardRows(n)))
    if (BULK) out.push(...(await bulkRows(n)))
  }
  const load = os.loadavg().map(x => Math.round(x * 100) / 100)
  return out.map(r => ({...r, load_avg: load}))
}
