// stale: `cairn stale --since base --json` over 10,000 active cards and a 500-file change, and `cairn stale --json`
// (each card against its own confirmation, every symbol looked for in HEAD's tree).
//
// Set-up (not timed): a repository of 2,000 source files (src/mod-NN/file-NNNN.ts, each defining one function
// fnNNNN and a few lines of code), tagged base, and 10,000 active cards (cairn/card@3) committed with it. Card i cites
// two files as recent paths (file i % 2000 and file (i + 7) % 2000), one symbol (fn of file i % 2000), and one card in
// ten a folder glob (src/mod-NN/**) as scope.paths; every card is confirmed at the base commit. The change (one
// commit): 100 files deleted, 100 renamed, 100 rewritten (5 of their 7 lines), 50 lose their function (a one-line change),
// and 150 get a one-line edit: 500 files. The expected reasons are computed from this mix and checked exactly:
// a card is listed when one of its two files was deleted (with its symbol when that was its own file), renamed, or
// rewritten, or its own function was removed; small edits list nothing.
import fs from 'node:fs'
import path from 'node:path'
import {log, makeRepo, measure} from '../lib.js'

export const description = 'cairn stale --since (a 500-file change) and cairn stale, 10,000 active cards'

const CARDS = Number(process.env.BENCH_STALE_CARDS ?? 10_000)
const FILES = 2000
const RUNS = 3
const NOW = '2026-11-29T10:00:00Z'
const pad = (n, w = 4) => String(n).padStart(w, '0')
const fileOf = f => `src/mod-${pad(f % 40, 2)}/file-${pad(f)}.ts`
const fnOf = f => `fn${pad(f)}`
const source = f =>
  [
    `export function ${fnOf(f)}(input: string): string {`,
    `  const value = input.trim()`,
    `  return value.length > ${f % 97} ? value.slice(0, ${f % 97}) : value`,
    `}`,
    ``,
    `export const weight${pad(f)} = ${f}`,
    `export const label${pad(f)} = 'module ${f % 40}'`,
    ``,
  ].join('\n')

/** What the change does to file f (f < 500; the rest are untouched). */
const fate = f =>
  f < 100
    ? 'deleted'
    : f < 200
      ? 'renamed'
      : f < 300
        ? 'rewritten'
        : f < 350
          ? 'unfunctioned'
          : f < 500
            ? 'edited'
            : null
const renamed = f => fileOf(f).replace('/file-', '/moved-')

/** The reasons cairn stale --since must give card i, as JSON text per reason, in the command's order. */
function expected(i) {
  const own = i % FILES
  const files = [own, (i + 7) % FILES]
  const out = []
  for (const f of files) {
    const kind = fate(f)
    if (kind === 'deleted') out.push({kind: 'deleted', path: fileOf(f)})
    if (kind === 'renamed') out.push({kind: 'renamed', path: fileOf(f), to: renamed(f)})
    if (kind === 'rewritten') out.push({kind: 'rewritten', path: fileOf(f), changed: 5, lines: 7})
  }
  if (fate(own) === 'deleted' || fate(own) === 'unfunctioned') out.push({kind: 'symbol', symbol: fnOf(own)})
  return out
}

function cardText(i, base, {renderCard, validateFrontmatter, renderBody}) {
  const id = `bench-stale-card-${pad(i, 5)}`
  const own = i % FILES
  const fm = validateFrontmatter({
    schema: 'cairn/card@3',
    id,
    type: 'pitfall',
    status: 'active',
    title: `Stale benchmark card ${pad(i, 5)}`,
    summary: `Call \`${fnOf(own)}\` before reading ${fileOf(own)}; card ${i} stands in for a real lesson.`,
    recall: {triggers: [`stale bench ${i}`]},
    scope: {level: 'project', paths: i % 10 === 0 ? [`src/mod-${pad(own % 40, 2)}/**`] : []},
    evidence: {symbols: [fnOf(own)], verified_at: NOW, verified_commit: base},
    provenance: {recent_paths: [fileOf(own), fileOf((i + 7) % FILES)]},
    created: NOW,
    updated: NOW,
    approved: {by: 'bench', at: NOW},
  })
  const body = renderBody(
    {
      problem: fm.summary,
      use_when: [],
      ignore_when: [],
      policy: 'may',
      risk: 'medium',
      rule: fm.summary,
      evidence: '-',
    },
    'en',
  )
  return [id, renderCard({...fm, body})]
}

export async function run() {
  const format = await import(new URL('../../dist/domain/card/format.js', import.meta.url).href)
  const sections = await import(new URL('../../dist/domain/card/sections.js', import.meta.url).href)
  const started = Date.now()
  const repo = await makeRepo()
  try {
    for (let f = 0; f < FILES; f++) {
      fs.mkdirSync(path.join(repo.dir, path.dirname(fileOf(f))), {recursive: true})
      fs.writeFileSync(path.join(repo.dir, fileOf(f)), source(f))
    }
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'bench: code')
    const base = repo.git('rev-parse', 'HEAD').trim()
    const dir = path.join(repo.dir, '.cairn', 'cards', 'pitfall')
    fs.mkdirSync(dir, {recursive: true})
    const api = {...format, renderBody: sections.renderBody}
    for (let i = 0; i < CARDS; i++) {
      const [id, text] = cardText(i, base, api)
      fs.writeFileSync(path.join(dir, `${id}.md`), text)
    }
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', `bench: ${CARDS} cards`)
    repo.git('tag', 'base')
    for (let f = 0; f < 500; f++) {
      const file = path.join(repo.dir, fileOf(f))
      const kind = fate(f)
      if (kind === 'deleted') repo.git('rm', '-q', fileOf(f))
      else if (kind === 'renamed') repo.git('mv', fileOf(f), renamed(f))
      else if (kind === 'rewritten')
        fs.writeFileSync(
          file,
          `${source(f)
            .replace(/value/g, 'text')
            .replace(/export/g, '/* moved */ export')}`,
        )
      else if (kind === 'unfunctioned')
        fs.writeFileSync(file, source(f).replace(`function ${fnOf(f)}(`, `function gone${pad(f)}(`))
      else fs.writeFileSync(file, source(f).replace(`= ${f}`, `= ${f + 1}`))
    }
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'bench: a 500-file change')
    const changed = repo.git('diff', '--name-only', '--no-renames', 'base', 'HEAD', '--', 'src').trim().split('\n')
    log(
      `stale setup: ${CARDS} cards, ${changed.length} changed paths (500 files) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    )
    const want = new Map()
    for (let i = 0; i < CARDS; i++) {
      const reasons = expected(i)
      if (reasons.length) want.set(`bench-stale-card-${pad(i, 5)}`, JSON.stringify(reasons))
    }
    const env = {...repo.env, CAIRN_NOW: NOW}
    const check = (r, label) => {
      const out = JSON.parse(r.stdout)
      if (!out.ok) throw new Error(`${label}: ${r.stdout.slice(0, 500)}`)
      const got = out.data.cards
      if (out.data.checked !== CARDS) throw new Error(`${label}: checked ${out.data.checked} cards, not ${CARDS}`)
      if (got.length !== want.size) throw new Error(`${label}: listed ${got.length} cards, expected ${want.size}`)
      for (const c of got) {
        const text = JSON.stringify(c.reasons)
        if (want.get(c.id) !== text) throw new Error(`${label}: ${c.id} gave ${text}, expected ${want.get(c.id)}`)
      }
    }
    const since = await measure({
      name: `stale --since ${CARDS} cards, 500 files`,
      runs: RUNS,
      command: () => ({args: ['stale', '--since', 'base', '--json'], cwd: repo.dir, env}),
      verify: r => check(r, 'stale --since'),
      extra: {cards: CARDS, changed_files: 500, listed: want.size},
    })
    const full = await measure({
      name: `stale ${CARDS} cards (each against its confirmation)`,
      runs: RUNS,
      command: () => ({args: ['stale', '--json'], cwd: repo.dir, env}),
      verify: r => check(r, 'stale'),
      extra: {cards: CARDS, changed_files: 500, listed: want.size},
    })
    return [since, full]
  } finally {
    repo.remove()
  }
}
