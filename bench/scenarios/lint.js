// lint: `cairn lint` over a store holding 10,000 valid cards, each linking to the previous one; then
// over libraries of 1,000 and 10,000 active cards (the recall benchmark's canonical library, whose lint
// includes the `unreachable` check), card cache cold and warm, beside the floor (`node -e 0`).
//
// Set-up (not timed) writes the cards with cloneCards() (one seed card per type proposed through
// the CLI, then cloned) and commits them. BENCH_LINT_SETUP=propose generates them with one
// `cairn propose` batch of 10,000 instead (slower; its time is logged).
//
// The active libraries: "cold" removes the card cache and lint's own caches (.cairn/.cache/cards.json,
// lint-reach.json, steering.json) before each run and keeps the recall index; "warm" lints again
// with them in place. BENCH_LINT_SIZES (default 1000,10000) picks the sizes. BENCH_BASELINE, a
// checkout of another cairn with dist/ built, is measured in the same rounds (interleaved), and every
// run of either must print the same findings. BENCH_LINT_PENDING=0 leaves out the pending cards' row.
import fs from 'node:fs'
import path from 'node:path'
import {baselineBin, CARD_TYPES, cloneCards, interleaved, log, makeRepo, measure, mustSucceed, slugs} from '../lib.js'
import {writeLibrary} from '../recall-cards.js'

export const description =
  'cairn lint: 10,000 valid pending cards; 1,000 and 10,000 active cards, card cache cold and warm, beside node -e 0'

const CARDS = 10_000
const RUNS = 3

export function generateProposals(n = CARDS) {
  const ids = slugs('bench-lint-card', n)
  return ids.map((slug, i) => ({
    slug,
    type: CARD_TYPES[i % CARD_TYPES.length],
    title: `Lint benchmark card ${i + 1}`,
    summary: `When benchmarking lint, card ${i + 1} stands in for a real lesson; keep it short and valid.`,
    keywords: ['bench', 'lint'],
    links: i > 0 ? [ids[i - 1]] : undefined,
    source_sessions: ['bench-lint-session'],
  }))
}

async function proposeAll(repo, proposals) {
  const file = path.join(repo.base, 'cards.json')
  fs.writeFileSync(file, JSON.stringify(proposals))
  const r = await mustSucceed(repo.cairn(['propose', file]), `propose ${proposals.length} cards`)
  log(
    `lint setup: propose ${proposals.length} cards took ${r.wall_ms.toFixed(0)} ms${r.peak_rss_mb === null ? '' : `, peak ${r.peak_rss_mb.toFixed(1)} MB`}`,
  )
}

const SIZES = (process.env.BENCH_LINT_SIZES ?? '1000,10000').split(',').map(Number)
/** The hook benchmark's library (hook-scale.js): team words, cairn's own layout, some cards edited by hand. */
const LIBRARY = {team: 0.2, canonical: true, handEdited: 0.05}
const CACHES = ['cards.json', 'lint-reach.json', 'steering.json']

/** Lint of n active cards, cold and warm, this build (and the baseline) in the same rounds. */
async function activeRows(n) {
  const repo = await makeRepo()
  try {
    writeLibrary(repo.dir, n, 42, LIBRARY)
    repo.git('add', '-A', '.cairn')
    repo.git('commit', '-qm', 'library')
    const cache = path.join(repo.dir, '.cairn', '.cache')
    const cold = () => {
      for (const f of CACHES) fs.rmSync(path.join(cache, f), {force: true})
    }
    let findings
    const verify = r => {
      const {checked, errors, problems} = JSON.parse(r.stdout).data
      if (checked !== n || errors !== 0) throw new Error(`lint checked ${checked} cards with ${errors} errors`)
      const text = JSON.stringify(problems)
      findings ??= text
      if (text !== findings) throw new Error(`lint of ${n} cards gave other findings than its first run`)
    }
    // Builds the index (not measured: the cold rows keep it) and warms the caches.
    await mustSucceed(repo.cairn(['lint', '--json']), `lint ${n} cards`)
    const builds = [['', undefined]]
    const baseline = baselineBin()
    if (baseline) builds.push([' (baseline)', baseline])
    const args = ['lint', '--json']
    const extra = {cards: n}
    const variants = [{name: `node -e 0 (beside lint ${n})`, argv: [process.execPath, '-e', '0'], extra}]
    for (const [tag, bin] of builds) {
      variants.push({name: `lint ${n} active cards, cold${tag}`, args, bin, setup: cold, verify, extra})
      variants.push({name: `lint ${n} active cards, warm${tag}`, args, bin, verify, extra})
    }
    const rows = await interleaved(variants, {runs: RUNS, cwd: repo.dir, env: repo.env})
    log(`lint ${n} active cards: ${JSON.parse(findings).length} findings, the same in every run`)
    return rows
  } finally {
    repo.remove()
  }
}

export async function run() {
  const rows = []
  for (const n of SIZES) rows.push(...(await activeRows(n)))
  return [...(process.env.BENCH_LINT_PENDING === '0' ? [] : await pendingRows()), ...rows]
}

async function pendingRows() {
  const mode = process.env.BENCH_LINT_SETUP === 'propose' ? 'propose' : 'clone'
  const started = Date.now()
  const repo = await makeRepo()
  try {
    const proposals = generateProposals()
    if (mode === 'propose') await proposeAll(repo, proposals)
    else await cloneCards(repo, proposals)
    log(`lint setup (${mode}): ${CARDS} cards ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    const row = await measure({
      name: `lint ${CARDS} cards`,
      runs: RUNS,
      command: () => ({args: ['lint', '--json'], cwd: repo.dir, env: repo.env}),
      verify: r => {
        const out = JSON.parse(r.stdout)
        if (!out.ok) throw new Error(`lint reported failure: ${r.stdout.slice(0, 1000)}`)
        const {checked, errors, warnings} = out.data
        if (checked !== CARDS || errors !== 0 || warnings !== 0)
          throw new Error(
            `lint checked ${checked} cards (${errors} errors, ${warnings} warnings); expected ${CARDS} clean cards`,
          )
      },
      extra: {cards: CARDS, setup: mode},
    })
    return [row]
  } finally {
    repo.remove()
  }
}
