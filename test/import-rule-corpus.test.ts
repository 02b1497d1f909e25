import {describe, expect, it} from 'vitest'
import {importRules} from '../src/app/import.js'
import {init} from '../src/app/init.js'
import {lint} from '../src/app/lint.js'
import {approve} from '../src/app/review.js'
import {parseCard} from '../src/domain/card/format.js'
import {globsMatch} from '../src/recall/match/gates.js'
import {tempRepo} from './helpers.js'
import {importProject, loadCases, loadProjects} from '../evals/rule-corpus/corpus.mjs'

// Real rule files from 17 public projects (evals/rule-corpus: each file as its repository holds it, with the commit
// and licence it came from), imported as a user would (importProject). evals/rule-corpus/run.mjs scores recall on it.
const projects = loadProjects()
const cases = loadCases()

// The ADRs these projects retired ("[Deprecated](…)", "superseded by [slug](file.md)"): approved as records, never active.
const RETIRED: Record<string, Record<string, string>> = {
  'Adyen__adyen-commercetools': {
    'docs/adr/0002-matching-adyen-notification.md': 'deprecated',
    'docs/adr/0012-remove-obsoleted-api-call.md': 'deprecated',
  },
  thomvaill__log4brains: {'docs/adr/20200926-use-the-adr-number-as-its-unique-id.md': 'superseded'},
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
      const first = await importProject(importRules, repo.ctx(), p)
      expect(first.flatMap(r => r.failed)).toEqual([])
      const cards = first.flatMap(r => r.cards)
      expect(cards.length).toBeGreaterThan(0)
      expect(cards.every(c => c.outcome === 'created')).toBe(true)
      await approve(repo.ctx(), {all: true})
      expect((await lint(repo.ctx())).errors).toBe(0)
      const again = (await importProject(importRules, repo.ctx(), p)).flatMap(r => r.cards)
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
