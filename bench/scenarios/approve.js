// approve: `cairn review approve --all` over 1,000 pending cards, as one commit.
//
// Fresh initialised repo per run; set-up (not timed) proposes the 1,000 cards in one `cairn
// propose` batch, which commits them. The timed run moves them to .cairn/cards/<type>/, sets
// status active and approved {by, at}, and commits once.
import fs from 'node:fs'
import path from 'node:path'
import {CARD_TYPES, countFiles, makeRepo, measure, mustSucceed, slugs} from '../lib.js'

export const description = 'cairn review approve --all: 1,000 pending cards in one commit (fresh repo per run)'

const CARDS = 1000
const RUNS = 3

export function generateCards(n = CARDS) {
  return slugs('bench-approve-card', n).map((slug, i) => ({
    slug,
    type: CARD_TYPES[i % CARD_TYPES.length],
    title: `Approve benchmark card ${i + 1}`,
    summary: `When benchmarking approve, card ${i + 1} stands in for a real lesson; keep it short and valid.`,
    keywords: ['bench', `card-${i + 1}`],
    source_sessions: [`bench-session-${Math.floor(i / 100) + 1}`],
  }))
}

/** Repo-relative paths of the regular files under rel (recursive, POSIX separators). */
function filesUnder(dir, rel) {
  const out = []
  const walk = r => {
    const d = path.join(dir, ...r.split('/'))
    if (!fs.existsSync(d)) return
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      if (e.isDirectory()) walk(`${r}/${e.name}`)
      else if (e.isFile()) out.push(`${r}/${e.name}`)
    }
  }
  walk(rel)
  return out
}

export async function run() {
  const cards = generateCards()
  const json = JSON.stringify(cards)
  const row = await measure({
    name: `review approve --all ${CARDS} cards`,
    runs: RUNS,
    setup: async () => {
      const repo = await makeRepo()
      const file = path.join(repo.base, 'cards.json')
      fs.writeFileSync(file, json)
      await mustSucceed(repo.cairn(['propose', file]), `propose ${CARDS} cards`)
      const pending = countFiles(path.join(repo.dir, '.cairn', 'pending'))
      if (pending !== CARDS) throw new Error(`set-up: expected ${CARDS} pending cards, found ${pending}`)
      if (repo.git('status', '--porcelain').trim()) throw new Error('set-up: work tree not clean after propose')
      return {repo, head: repo.git('rev-parse', 'HEAD').trim()}
    },
    command: ({repo}) => ({args: ['review', 'approve', '--all', '--json'], cwd: repo.dir, env: repo.env}),
    verify: (r, {repo, head}) => {
      const out = JSON.parse(r.stdout)
      if (!out.ok) throw new Error(`approve failed: ${r.stdout.slice(0, 1000)}`)
      if (out.data.cards.length !== CARDS)
        throw new Error(`approve reported ${out.data.cards.length} cards, expected ${CARDS}`)
      const left = countFiles(path.join(repo.dir, '.cairn', 'pending'))
      if (left !== 0) throw new Error(`${left} files left in .cairn/pending`)
      const approved = filesUnder(repo.dir, '.cairn/cards')
      if (approved.length !== CARDS)
        throw new Error(`expected ${CARDS} files in .cairn/cards, found ${approved.length}`)
      const want = new Set(cards.map(c => `.cairn/cards/${c.type}/${c.slug}.md`))
      const stray = approved.filter(p => !want.has(p))
      if (stray.length) throw new Error(`unexpected files in .cairn/cards, e.g. ${stray[0]}`)
      for (const p of approved) {
        const text = fs.readFileSync(path.join(repo.dir, ...p.split('/')), 'utf8')
        if (!/^status: active$/m.test(text) || !/^approved:\n {2}by: bench\n/m.test(text))
          throw new Error(`${p} is not approved (status active, approved.by bench)`)
      }
      const added = Number(repo.git('rev-list', '--count', `${head}..HEAD`).trim())
      if (added !== 1) throw new Error(`expected exactly 1 new commit, found ${added}`)
      // Without rename detection the commit is 1,000 deletions in pending/ and 1,000 additions in cards/.
      const changes = repo
        .git('diff-tree', '-r', '--no-commit-id', '--no-renames', '--name-status', 'HEAD')
        .trim()
        .split('\n')
        .filter(Boolean)
      const deleted = changes.filter(l => /^D\t\.cairn\/pending\//.test(l)).length
      const addedFiles = changes.filter(l => /^A\t\.cairn\/cards\//.test(l)).length
      if (deleted !== CARDS || addedFiles !== CARDS || changes.length !== 2 * CARDS) {
        throw new Error(
          `the commit has ${changes.length} changes (${deleted} pending deletions, ${addedFiles} cards additions); expected ${CARDS} of each`,
        )
      }
      const dirty = repo.git('status', '--porcelain').trim()
      if (dirty) throw new Error(`work tree not clean after approve:\n${dirty.slice(0, 500)}`)
    },
    teardown: ({repo}) => repo.remove(),
    extra: {cards: CARDS},
  })
  return [row]
}
