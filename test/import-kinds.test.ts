import {describe, expect, it} from 'vitest'
import {importRules} from '../src/app/import.js'
import {lint} from '../src/app/lint.js'
import {initRepo, type Repo} from './helpers.js'

/** A repository holding every source kind the importers read, plus what cairn exported itself. */
const FIXTURE: Record<string, string> = {
  '.cursor/rules/react-components.mdc': `---
description: Components are function components with typed props.
globs: src/components/**/*.tsx, src/pages/**/*.tsx
alwaysApply: false
---
# React components

- Write function components; type their props with an interface.
`,
  '.cursor/rules/security-basics.mdc': `---
description: Never log secrets.
alwaysApply: true
---
Never print tokens, passwords or keys, not even in debug logs.
`,
  '.cursor/rules/cairn-old-export-card.mdc': `---
description: exported by cairn
alwaysApply: true
---
<!-- cairn:managed -->
cairn's own export
`,
}

async function fixtureRepo(): Promise<Repo> {
  const repo = await initRepo()
  for (const [file, text] of Object.entries(FIXTURE)) repo.write(file, text)
  return repo
}

/** Imports a kind, checks the cards pass lint, then that a second run after an edit adds nothing. */
async function importTwice(repo: Repo, kind: string, edit: [string, string, string]) {
  const first = await importRules(repo.ctx(), {kind})
  expect(first.failed).toEqual([])
  expect(first.cards.every(c => c.outcome === 'created')).toBe(true)
  expect((await lint(repo.ctx())).problems).toEqual([])
  const head = repo.git('rev-parse', 'HEAD').trim()
  const [file, from, to] = edit
  repo.write(file, repo.read(file).replace(from, to))
  const again = await importRules(repo.ctx(), {kind})
  expect(again.cards.map(c => [c.id, c.outcome])).toEqual(first.cards.map(c => [c.id, 'skipped']))
  expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head)
  return first
}

describe('cairn import cursor-rules', () => {
  it('maps globs to narrow paths, alwaysApply to core, description to summary; skips cairn-*.mdc', async () => {
    const repo = await fixtureRepo()
    const r = await importTwice(repo, 'cursor-rules', ['.cursor/rules/security-basics.mdc', 'debug logs', 'debug or trace logs'])
    expect(r.cards.map(c => [c.id, c.title, `${c.source}:${c.line}`])).toEqual([
      ['react-components-imported', 'React components', '.cursor/rules/react-components.mdc:6'],
      ['security-basics-imported', 'Security basics', '.cursor/rules/security-basics.mdc:5'],
    ])
    const react = repo.read('.cairn/pending/guideline/react-components-imported.md')
    expect(react).toContain('summary: Components are function components with typed props.')
    expect(react).toContain('load: recall')
    expect(react).toContain('paths: [src/components/**/*.tsx, src/pages/**/*.tsx]')
    const security = repo.read('.cairn/pending/guideline/security-basics-imported.md')
    expect(security).toContain('load: core')
    expect(security).toContain('paths: []')
    expect(security).toContain('source_sessions: [import:.cursor/rules/security-basics.mdc]')
  })

  it('a malformed rule file is reported with its path and field; the good ones are imported', async () => {
    const repo = await fixtureRepo()
    repo.write('.cursor/rules/bad-rule.mdc', '---\nalwaysApply: sometimes\n---\nDo things.\n')
    const r = await importRules(repo.ctx(), {kind: 'cursor-rules'})
    expect(r.failed).toEqual([{file: '.cursor/rules/bad-rule.mdc', issues: [{file: '.cursor/rules/bad-rule.mdc', field: 'alwaysApply', message: 'must be true or false, not "sometimes"', fix: 'write alwaysApply: true or alwaysApply: false'}]}])
    expect(r.cards.map(c => [c.id, c.outcome])).toEqual([['react-components-imported', 'created'], ['security-basics-imported', 'created']])
  })
})
