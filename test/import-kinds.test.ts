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
  '.github/copilot-instructions.md': `# Copilot instructions

## Error handling

- Wrap external calls in a Result type; never throw across module boundaries.

<!-- cairn:begin -->
## Core cards

- exported by cairn
<!-- cairn:end -->
`,
  '.github/instructions/python-style.instructions.md': `---
applyTo: "scripts/**/*.py"
description: Python scripts follow black formatting.
---
Format every script with black before committing.
`,
  '.kiro/steering/product.md': `---
inclusion: always
---
# Product overview

The app lets clinics book appointments online.
`,
  '.kiro/steering/api-standards.md': `---
inclusion: fileMatch
fileMatchPattern: "api/**/*.ts"
---
Every endpoint validates its input with zod.
`,
  '.kiro/steering/release-checklist.md': `---
inclusion: manual
---
- Tag the release and update the changelog.
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

describe('cairn import copilot', () => {
  it('imports the repository-wide file by section (cairn block skipped) and applyTo as narrow paths', async () => {
    const repo = await fixtureRepo()
    const r = await importTwice(repo, 'copilot', ['.github/copilot-instructions.md', 'Result type', 'Result<T> type'])
    expect(r.cards.map(c => [c.id, c.title, `${c.source}:${c.line}`])).toEqual([
      ['copilot-error-handling', 'Error handling', '.github/copilot-instructions.md:3'],
      ['python-style-imported', 'Python style', '.github/instructions/python-style.instructions.md:5'],
    ])
    const py = repo.read('.cairn/pending/guideline/python-style-imported.md')
    expect(py).toContain('paths: [scripts/**/*.py]')
    expect(py).toContain('summary: Python scripts follow black formatting.')
    expect(py).toContain('source_sessions: [import:.github/instructions/python-style.instructions.md]')
  })
})

describe('cairn import kiro', () => {
  it('maps inclusion always to core, fileMatch to narrow paths, manual to a recalled card', async () => {
    const repo = await fixtureRepo()
    const r = await importTwice(repo, 'kiro', ['.kiro/steering/product.md', 'online', 'online and by phone'])
    expect(r.cards.map(c => [c.id, c.title])).toEqual([
      ['api-standards-imported', 'Api standards'],
      ['product-imported-team', 'Product overview'],
      ['release-checklist-imported', 'Release checklist'],
    ])
    const card = (id: string) => repo.read(`.cairn/pending/guideline/${id}.md`)
    expect(card('product-imported-team')).toContain('load: core')
    expect(card('api-standards-imported')).toContain('load: recall')
    expect(card('api-standards-imported')).toContain('paths: [api/**/*.ts]')
    expect(card('release-checklist-imported')).toContain('load: recall')
    expect(card('release-checklist-imported')).toContain('paths: []')
  })

  it('an unknown inclusion is reported with the file, the field and the fix', async () => {
    const repo = await fixtureRepo()
    repo.write('.kiro/steering/odd.md', '---\ninclusion: sometimes\n---\nDo things.\n')
    const r = await importRules(repo.ctx(), {kind: 'kiro'})
    expect(r.failed).toEqual([{file: '.kiro/steering/odd.md', issues: [{file: '.kiro/steering/odd.md', field: 'inclusion', message: 'must be one of always, fileMatch, manual, not "sometimes"', fix: 'write inclusion: always, fileMatch or manual'}]}])
    expect(r.cards.map(c => c.id)).toEqual(['api-standards-imported', 'product-imported-team', 'release-checklist-imported'])
  })
})
