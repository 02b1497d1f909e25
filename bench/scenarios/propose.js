// propose: one `cairn propose cards.json` call with 1,000 new cards, in a fresh initialised repo.
import fs from 'node:fs'
import path from 'node:path'
import {CARD_TYPES, countFiles, makeRepo, measure, slugs} from '../lib.js'

export const description = 'cairn propose: 1,000 cards in one batch (fresh repo per run)'

const CARDS = 1000
const RUNS = 3

export function generateCards(n = CARDS) {
  return slugs('bench-propose-card', n).map((slug, i) => ({
    slug,
    type: CARD_TYPES[i % CARD_TYPES.length],
    title: `Benchmark card ${i + 1}`,
    summary: `When benchmarking propose, card ${i + 1} stands in for a real lesson; keep it short and valid.`,
    keywords: ['bench', `card-${i + 1}`],
    source_sessions: [`bench-session-${Math.floor(i / 100) + 1}`],
  }))
}

export async function run() {
  const cards = generateCards()
  const json = JSON.stringify(cards)
  const row = await measure({
    name: `propose ${CARDS} cards`,
    runs: RUNS,
    setup: async () => {
      const repo = await makeRepo()
      // The input file sits outside the work tree so it does not show up in git status.
      const file = path.join(repo.base, 'cards.json')
      fs.writeFileSync(file, json)
      return {repo, file, head: repo.git('rev-parse', 'HEAD').trim()}
    },
    command: ({repo, file}) => ({args: ['propose', file], cwd: repo.dir, env: repo.env}),
    verify: (_r, {repo, head}) => {
      const pending = countFiles(path.join(repo.dir, '.cairn', 'pending'))
      if (pending !== CARDS) throw new Error(`expected ${CARDS} files in .cairn/pending, found ${pending}`)
      const added = Number(repo.git('rev-list', '--count', `${head}..HEAD`).trim())
      if (added !== 1) throw new Error(`expected exactly 1 new commit, found ${added}`)
      const committed = repo.git('show', '--name-only', '--format=', 'HEAD').trim().split('\n').filter(Boolean).length
      if (committed !== CARDS) throw new Error(`expected the commit to add ${CARDS} files, it touched ${committed}`)
      const dirty = repo.git('status', '--porcelain').trim()
      if (dirty) throw new Error(`work tree not clean after propose:\n${dirty.slice(0, 500)}`)
    },
    teardown: ({repo}) => repo.remove(),
    extra: {cards: CARDS, input_bytes: Buffer.byteLength(json)},
  })
  return [row]
}
