// maintain: `cairn maintain --dry-run --json` (the planner) over 10,000 reviewed cards.
//
// Set-up (not timed): one seed card per type is proposed and approved through the real CLI, then
// each approved file is cloned for every card with id, title, summary (frontmatter and body),
// keywords, status, load, protected, created/updated/approved.at and the idempotency key
// substituted. The cards are committed with plain git and checked once with `cairn lint`.
//
// The clock is pinned (CAIRN_NOW) so staleness is deterministic. The mix, by index i:
//   - stale:      i % 10 === 3       updated 181+ days before now (stale_days 180)
//   - deprecated: i % 500 === 7      status: deprecated
//   - triples:    9000 <= i < 9600   200 groups of 3 sharing one keyword set (2 of 3 archived)
//   - core:       i % 50 === 11      load: core, 200 cards ≈ 4x the 8,000-char core budget
//   - protected:  i % 1000 in {3, 7, 11}: 10 stale and 10 deprecated cards the plan must list as
//                 skipped, and 10 core cards it must never demote (one of them, 9011, also loses
//                 its keyword triple, so it is skipped too: 21 skipped in all)
// Everything else is fresh, active, recall, with a keyword set of its own. The expected plan is
// computed from this mix and the scenario checks the planner's output against it exactly.
import fs from 'node:fs'
import path from 'node:path'
import {createHash} from 'node:crypto'
import {CARD_TYPES, countFiles, log, makeRepo, measure, mustSucceed, slugs} from '../lib.js'

export const description = 'cairn maintain --dry-run: planner over 10,000 reviewed cards (one repo, every run plans it)'

const CARDS = 10_000
const RUNS = 3
const NOW = '2026-11-29T10:00:00Z'
const STALE_DAYS = 180
const CORE_BUDGET = 8000
const DAY = 86_400_000
const TRIPLES = {from: 9000, to: 9600}

const SEED_SUMMARY = 'Seed summary placeholder for the maintain benchmark templates; replaced in every clone.'

const iso = ms => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
const pad = (i, n = CARDS) => String(i + 1).padStart(String(n).length, '0')

/** The card mix (see the header). Pure: the same n always gives the same cards. */
export function generateCards(n = CARDS) {
  const ids = slugs('bench-maintain-card', n)
  const now = Date.parse(NOW)
  return ids.map((id, i) => {
    const stale = i % 10 === 3
    const deprecated = i % 500 === 7
    const core = i % 50 === 11
    const triple = i >= TRIPLES.from && i < TRIPLES.to ? Math.floor((i - TRIPLES.from) / 3) : null
    const protectedCard = stale || deprecated || core ? [3, 7, 11].includes(i % 1000) : false
    // Fresh cards: 1–170 days old; stale ones 181–880 days. Distinct times keep "newest" unambiguous.
    const ageDays = stale ? STALE_DAYS + 1 + (i % 700) : 1 + (i % 170)
    const updated = iso(now - ageDays * DAY - (i % 3600) * 1000)
    return {
      id,
      type: CARD_TYPES[i % CARD_TYPES.length],
      title: `Maintain benchmark card ${pad(i, n)}`,
      summary: `When benchmarking maintain, card ${pad(i, n)} stands in for a real lesson; keep it short and valid.`,
      keywords:
        triple === null
          ? [`topic-${pad(i, n)}`, 'bench']
          : [`trio-${String(triple).padStart(3, '0')}`, 'shared-topic', 'bench'],
      status: deprecated ? 'deprecated' : 'active',
      load: core ? 'core' : 'recall',
      protected: protectedCard,
      updated,
      stale,
      deprecated,
      triple,
    }
  })
}

/** The plan the planner must produce for generateCards(): archive/skip/demote id sets and core sums. */
export function expectedPlan(cards) {
  const hits = new Set()
  for (const c of cards) if (c.stale || c.deprecated) hits.add(c.id)
  const groups = new Map()
  for (const c of cards) if (c.triple !== null) groups.set(c.triple, [...(groups.get(c.triple) ?? []), c])
  for (const group of groups.values()) {
    const [, ...rest] = [...group].sort((a, b) => b.updated.localeCompare(a.updated) || a.id.localeCompare(b.id))
    for (const c of rest) hits.add(c.id)
  }
  const archive = cards.filter(c => hits.has(c.id) && !c.protected).map(c => c.id)
  const skipped = cards.filter(c => hits.has(c.id) && c.protected).map(c => c.id)
  const archived = new Set(archive)
  const core = cards.filter(c => c.load === 'core' && !archived.has(c.id))
  const chars = c => [...`### ${c.title} (${c.id})\n${c.summary}\n`].length
  const before = core.reduce((n, c) => n + chars(c), 0)
  // Every card has the same core length (padded numbers), so the planner (no usage data, ties by
  // id) demotes the first k unprotected core cards by id.
  let after = before
  const demote = []
  for (const c of core.filter(x => !x.protected).sort((a, b) => a.id.localeCompare(b.id))) {
    if (after <= CORE_BUDGET) break
    after -= chars(c)
    demote.push(c.id)
  }
  return {archive, skipped, demote, before, after, groups: groups.size}
}

function replaceLine(text, key, value) {
  const re = new RegExp(`^${key}: .*$`, 'm')
  if (!re.test(text)) throw new Error(`seed card has no "${key}:" line`)
  return text.replace(re, () => `${key}: ${value}`)
}

const idempotencyKey = (type, slug) =>
  createHash('sha256')
    .update(JSON.stringify({source_session: undefined, type, slug}))
    .digest('hex')

/**
 * Proposes and approves one seed card per type through the CLI, then clones the approved files
 * into .cairn/cards/<type>/<id>.md for every card and commits them (the seeds are removed).
 */
export async function writeReviewedCards(repo, cards) {
  const seeds = CARD_TYPES.map(type => ({
    slug: `bench-seed-${type}-template`,
    type,
    title: `Seed ${type} template`,
    summary: SEED_SUMMARY,
    keywords: ['seed-one', 'seed-two'],
  }))
  const seedFile = path.join(repo.base, 'seeds.json')
  fs.writeFileSync(seedFile, JSON.stringify(seeds))
  await mustSucceed(repo.cairn(['propose', seedFile]), 'propose seed cards')
  await mustSucceed(repo.cairn(['review', 'approve', '--all']), 'approve seed cards')
  const templates = new Map()
  for (const seed of seeds) {
    const rel = `.cairn/cards/${seed.type}/${seed.slug}.md`
    const text = fs.readFileSync(path.join(repo.dir, rel), 'utf8')
    const close = text.indexOf('\n---\n', 4)
    if (close < 0) throw new Error(`seed card ${seed.slug} has no closing frontmatter line`)
    const body = text.slice(close + 5)
    if (!body.includes(SEED_SUMMARY)) throw new Error(`seed card ${seed.slug}: summary not found in the body`)
    templates.set(seed.type, {head: text.slice(0, close + 5), body})
    repo.git('rm', '-q', '--', rel)
    // git rm drops the emptied type directory.
    fs.mkdirSync(path.join(repo.dir, '.cairn', 'cards', seed.type), {recursive: true})
  }
  for (const c of cards) {
    const {head, body} = templates.get(c.type)
    let fm = replaceLine(head, 'id', c.id)
    fm = replaceLine(fm, 'status', c.status)
    fm = replaceLine(fm, 'title', JSON.stringify(c.title))
    fm = replaceLine(fm, 'summary', JSON.stringify(c.summary))
    fm = replaceLine(fm, 'load', c.load)
    fm = replaceLine(fm, 'keywords', JSON.stringify(c.keywords))
    fm = replaceLine(fm, 'protected', String(c.protected))
    fm = replaceLine(fm, '  idempotency_key', idempotencyKey(c.type, c.id))
    fm = replaceLine(fm, 'created', c.updated)
    fm = replaceLine(fm, 'updated', c.updated)
    fm = replaceLine(fm, '  at', c.updated)
    const file = path.join(repo.dir, '.cairn', 'cards', c.type, `${c.id}.md`)
    if (fs.existsSync(file)) throw new Error(`${file} already exists`)
    fs.writeFileSync(file, fm + body.split(SEED_SUMMARY).join(c.summary))
  }
  repo.git('add', '-A', '.cairn')
  repo.git('commit', '-q', '-m', `bench: ${cards.length} reviewed cards`)
}

const sameSet = (label, got, want) => {
  const g = new Set(got)
  const w = new Set(want)
  const missing = want.filter(id => !g.has(id))
  const extra = got.filter(id => !w.has(id))
  if (g.size !== got.length) throw new Error(`${label}: duplicate ids in the plan`)
  if (missing.length || extra.length || got.length !== want.length) {
    throw new Error(
      `${label}: expected ${want.length}, got ${got.length} (missing ${missing.slice(0, 5).join(', ') || '-'}; unexpected ${extra.slice(0, 5).join(', ') || '-'})`,
    )
  }
}

export async function run() {
  const started = Date.now()
  const repo = await makeRepo()
  try {
    const cards = generateCards()
    const want = expectedPlan(cards)
    await writeReviewedCards(repo, cards)
    const onDisk = countFiles(path.join(repo.dir, '.cairn', 'cards'))
    if (onDisk !== CARDS) throw new Error(`expected ${CARDS} files in .cairn/cards, found ${onDisk}`)
    if (repo.git('status', '--porcelain').trim()) throw new Error('work tree not clean after set-up')
    log(`maintain setup: ${CARDS} reviewed cards committed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    const lint = await mustSucceed(repo.cairn(['lint', '--json']), 'lint the generated cards')
    const lintOut = JSON.parse(lint.stdout).data
    if (lintOut.checked !== CARDS || lintOut.errors !== 0)
      throw new Error(`lint: ${lintOut.checked} checked, ${lintOut.errors} errors; expected ${CARDS} valid cards`)
    log(`maintain setup: lint ok (${lintOut.warnings} warnings) in ${lint.wall_ms.toFixed(0)} ms`)
    log(
      `maintain setup: expecting ${want.archive.length} archives, ${want.demote.length} demotions, ${want.skipped.length} skipped; core ${want.before} -> ${want.after} chars`,
    )
    const head = repo.git('rev-parse', 'HEAD').trim()
    const env = {...repo.env, CAIRN_NOW: NOW}
    const marker = path.join(repo.dir, '.cairn', '.local', '.pending-fix')

    const row = await measure({
      name: `maintain --dry-run ${CARDS} cards`,
      runs: RUNS,
      command: () => ({args: ['maintain', '--dry-run', '--json'], cwd: repo.dir, env}),
      verify: r => {
        const out = JSON.parse(r.stdout)
        if (!out.ok) throw new Error(`maintain failed: ${r.stdout.slice(0, 1000)}`)
        const plan = out.data
        if (plan.applied || plan.commit || plan.marker !== 'untouched')
          throw new Error(
            `dry run wrote something: applied ${plan.applied}, commit ${plan.commit}, marker ${plan.marker}`,
          )
        if (plan.unreadable.length)
          throw new Error(`${plan.unreadable.length} unreadable cards, e.g. ${plan.unreadable[0]}`)
        const byAction = a => plan.actions.filter(x => x.action === a).map(x => x.id)
        sameSet('archive', byAction('archive'), want.archive)
        sameSet('demote', byAction('demote'), want.demote)
        sameSet(
          'skipped',
          plan.skipped.map(s => s.id),
          want.skipped,
        )
        const reasons = new Set(plan.actions.flatMap(a => a.reasons))
        for (const r of ['stale', 'deprecated', 'duplicate-keywords', 'core-over-budget'])
          if (!reasons.has(r)) throw new Error(`no action with reason ${r}`)
        const {budget, before, after} = plan.core
        if (budget !== CORE_BUDGET || before !== want.before || after !== want.after)
          throw new Error(
            `core ${JSON.stringify(plan.core)}; expected budget ${CORE_BUDGET}, before ${want.before}, after ${want.after}`,
          )
        if (plan.reports.length) throw new Error(`unexpected reports: ${JSON.stringify(plan.reports.slice(0, 3))}`)
        if (fs.existsSync(marker)) throw new Error('dry run wrote the .pending-fix marker')
        if (repo.git('rev-parse', 'HEAD').trim() !== head || repo.git('status', '--porcelain').trim())
          throw new Error('dry run changed the repository')
      },
      extra: {
        cards: CARDS,
        archive: want.archive.length,
        demote: want.demote.length,
        skipped: want.skipped.length,
        core_before: want.before,
        core_after: want.after,
      },
    })
    return [row]
  } finally {
    repo.remove()
  }
}
