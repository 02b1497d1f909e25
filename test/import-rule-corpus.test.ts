import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {importRules, type ImportResult} from '../src/app/import.js'
import {init} from '../src/app/init.js'
import {lint} from '../src/app/lint.js'
import {approve} from '../src/app/review.js'
import {parseCard} from '../src/domain/card/format.js'
import {globsMatch} from '../src/recall/match/gates.js'
import {ROOT, tempRepo} from './helpers.js'

// Real rule files from 17 public projects (evals/rule-corpus: each file as its repository holds it, with the commit
// and licence it came from), imported as a user would: every kind the project holds, without PATH, and a file the
// default places miss by its own path. evals/rule-corpus/run.mjs scores recall on the same corpus.
const CORPUS = path.join(ROOT, 'evals', 'rule-corpus')
interface Project {
  repo: string
  commit: string
  licence: string
  kinds: string[]
  files: Record<string, string>
}
const projects = ['en', 'zh'].flatMap(lang =>
  fs
    .readdirSync(path.join(CORPUS, lang))
    .filter(f => f.endsWith('.json'))
    .map(f => ({
      dir: f.replace(/\.json$/, ''),
      ...(JSON.parse(fs.readFileSync(path.join(CORPUS, lang, f), 'utf8')) as Project),
    })),
)
const cases = JSON.parse(fs.readFileSync(path.join(CORPUS, 'cases.json'), 'utf8')) as {
  paths: {id: string; dir: string; file: string; match: string; nomatch: string}[]
}

// The ADRs these projects retired ("[Deprecated](…)", "superseded by [slug](file.md)"): approved as records, never active.
const RETIRED: Record<string, Record<string, string>> = {
  'Adyen__adyen-commercetools': {
    'docs/adr/0002-matching-adyen-notification.md': 'deprecated',
    'docs/adr/0012-remove-obsoleted-api-call.md': 'deprecated',
  },
  thomvaill__log4brains: {'docs/adr/20200926-use-the-adr-number-as-its-unique-id.md': 'superseded'},
}

const OF_KIND: Record<string, RegExp> = {
  'claude-md': /(^|\/)(CLAUDE|AGENTS|GEMINI)\.md$/i,
  'cursor-rules': /\.mdc$/,
  copilot: /(^|\/)\.github\/(copilot-instructions\.md$|instructions\/)/,
  kiro: /(^|\/)\.kiro\/steering\//,
  adr: /^(?!.*(^|\/)(readme|index|template)\.md$).*\.md$/i,
}

async function importProject(repo: ReturnType<typeof tempRepo>, p: (typeof projects)[number]) {
  const results: ImportResult[] = []
  for (const kind of p.kinds) {
    const r = await importRules(repo.ctx(), {kind}).catch((e: {code?: string}) => {
      if (e.code === 'not_found') return null
      throw e
    })
    if (r) results.push(r)
    const reached = new Set(results.flatMap(x => [...x.cards.map(c => c.source), ...x.failed.map(f => f.file)]))
    for (const f of Object.keys(p.files).filter(f => !reached.has(f) && OF_KIND[kind].test(f)))
      results.push(await importRules(repo.ctx(), {kind, path: f}))
  }
  return results
}

describe('the real rule-file corpus', () => {
  it('records where every file came from', () => {
    expect(projects.length).toBe(17)
    for (const p of projects) {
      expect(p.repo, p.dir).toMatch(/^[\w.-]+\/[\w.-]+$/)
      expect(p.commit, p.dir).toMatch(/^[0-9a-f]{40}$/)
      expect(p.licence, p.dir).toMatch(/^(MIT|Apache-2\.0|BSD-\d-Clause)$/)
    }
  })

  it.each(projects.map(p => [p.dir, p] as const))(
    '%s imports whole, lints clean, re-imports nothing, and scopes its paths as its tool does',
    async (_, p) => {
      const repo = tempRepo(p.files)
      await init(repo.ctx())
      const first = await importProject(repo, p)
      expect(first.flatMap(r => r.failed)).toEqual([])
      const cards = first.flatMap(r => r.cards)
      expect(cards.length).toBeGreaterThan(0)
      expect(cards.every(c => c.outcome === 'created')).toBe(true)
      await approve(repo.ctx(), {all: true})
      expect((await lint(repo.ctx())).errors).toBe(0)
      const again = (await importProject(repo, p)).flatMap(r => r.cards)
      expect(again.filter(c => c.outcome !== 'skipped')).toEqual([])
      const status = (source: string) => {
        const c = cards.find(x => x.source === source)!
        return parseCard(repo.read(`.cairn/cards/${c.type}/${c.id}.md`), c.id).status
      }
      for (const c of cards.filter(x => x.type === 'decision'))
        expect(status(c.source), c.source).toBe(RETIRED[p.dir]?.[c.source] ?? 'active')
      for (const c of cases.paths.filter(x => x.dir === p.dir)) {
        const scoped = cards
          .filter(x => x.source === c.file)
          .map(x => parseCard(repo.read(`.cairn/cards/${x.type}/${x.id}.md`), x.id))
        expect(scoped.length, c.id).toBeGreaterThan(0)
        for (const card of scoped) {
          expect(globsMatch(card.scope.paths, c.match), `${c.id} ${card.id} ${c.match}`).toBe(true)
          expect(globsMatch(card.scope.paths, c.nomatch), `${c.id} ${card.id} ${c.nomatch}`).toBe(false)
        }
      }
    },
  )
})
