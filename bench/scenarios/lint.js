// lint: `cairn lint` over a store holding 10,000 valid cards.
//
// Set-up (not timed) proposes one seed card per type through the real CLI, then clones the seed
// files with a new id, title, idempotency key and a link to the previous card, and commits them.
// BENCH_LINT_SETUP=propose generates the 10,000 cards with one `cairn propose` batch instead.
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {CARD_TYPES, log, makeRepo, measure, mustSucceed, slugs} from '../lib.js'

export const description = 'cairn lint: 10,000 valid cards (same repo for every run)'

const CARDS = 10_000
const RUNS = 3
const SESSION = 'bench-lint-session'

const idempotencyKey = (type, slug) => createHash('sha256').update(JSON.stringify({source_session: SESSION, type, slug})).digest('hex')

const proposal = (slug, i) => ({
  slug,
  type: CARD_TYPES[i % CARD_TYPES.length],
  title: `Lint benchmark card ${i + 1}`,
  summary: `When benchmarking lint, card ${i + 1} stands in for a real lesson; keep it short and valid.`,
  keywords: ['bench', 'lint'],
  links: i > 0 ? [`bench-lint-card-${String(i).padStart(String(CARDS).length, '0')}`] : undefined,
  source_sessions: [SESSION],
})

function replaceLine(text, key, value) {
  const re = new RegExp(`^${key}: .*$`, 'm')
  if (!re.test(text)) throw new Error(`seed card has no "${key}:" line`)
  return text.replace(re, `${key}: ${value}`)
}

/** Proposes one seed card per type, then writes CARDS card files cloned from the seeds. */
async function cloneCards(repo, ids) {
  const seeds = CARD_TYPES.map((type, i) => ({...proposal(`bench-lint-seed-${type}-card`, i), type, links: undefined}))
  const seedFile = path.join(repo.base, 'seeds.json')
  fs.writeFileSync(seedFile, JSON.stringify(seeds))
  await mustSucceed(repo.cairn(['propose', seedFile]), 'propose seeds')
  const templates = new Map(seeds.map(s => {
    const file = path.join(repo.dir, '.cairn', 'pending', s.type, `${s.slug}.md`)
    const text = fs.readFileSync(file, 'utf8')
    fs.rmSync(file)
    return [s.type, {text, seed: s}]
  }))
  ids.forEach((slug, i) => {
    const p = proposal(slug, i)
    const {text: template, seed} = templates.get(p.type)
    let text = template.split(seed.slug).join(slug).split(seed.title).join(p.title).split(seed.summary).join(p.summary)
    text = replaceLine(text, '  idempotency_key', idempotencyKey(p.type, slug))
    if (p.links) text = replaceLine(text, 'links', `[${p.links.join(', ')}]`)
    const file = path.join(repo.dir, '.cairn', 'pending', p.type, `${slug}.md`)
    fs.writeFileSync(file, text)
  })
}

async function proposeCards(repo, ids) {
  const file = path.join(repo.base, 'cards.json')
  fs.writeFileSync(file, JSON.stringify(ids.map(proposal)))
  const r = await mustSucceed(repo.cairn(['propose', file]), `propose ${ids.length} cards`)
  log(`lint setup: propose ${ids.length} cards took ${r.wall_ms.toFixed(0)} ms${r.peak_rss_mb === null ? '' : `, ${r.peak_rss_mb.toFixed(1)} MB`}`)
}

export async function run() {
  const mode = process.env.BENCH_LINT_SETUP === 'propose' ? 'propose' : 'clone'
  const started = Date.now()
  const repo = await makeRepo()
  try {
    const ids = slugs('bench-lint-card', CARDS)
    if (mode === 'propose') await proposeCards(repo, ids)
    else {
      await cloneCards(repo, ids)
      repo.git('add', '-A')
      repo.git('commit', '-q', '-m', `bench: ${CARDS} cards`)
    }
    log(`lint setup (${mode}): ${CARDS} cards ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    const row = await measure({
      name: `lint ${CARDS} cards`,
      runs: RUNS,
      command: () => ({args: ['lint', '--json'], cwd: repo.dir, env: repo.env}),
      verify: r => {
        const out = JSON.parse(r.stdout)
        if (!out.ok) throw new Error(`lint reported failure: ${r.stdout.slice(0, 1000)}`)
        const {checked, errors, warnings} = out.data
        if (checked !== CARDS || errors !== 0 || warnings !== 0) throw new Error(`lint checked ${checked} cards (${errors} errors, ${warnings} warnings); expected ${CARDS} clean cards`)
      },
      extra: {cards: CARDS, setup: mode},
    })
    return [row]
  } finally {
    repo.remove()
  }
}
