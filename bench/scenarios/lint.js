// lint: `cairn lint` over a store holding 10,000 valid cards, each linking to the previous one.
//
// Set-up (not timed) writes the cards with cloneCards() (one seed card per type proposed through
// the CLI, then cloned) and commits them. BENCH_LINT_SETUP=propose generates them with one
// `cairn propose` batch of 10,000 instead (slower; its time is logged).
import fs from 'node:fs'
import path from 'node:path'
import {CARD_TYPES, cloneCards, log, makeRepo, measure, mustSucceed, slugs} from '../lib.js'

export const description = 'cairn lint: 10,000 valid cards (one repo, every run lints it)'

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

export async function run() {
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
