import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {importRules} from '../src/app/import.js'
import {lint} from '../src/app/lint.js'
import {propose} from '../src/app/propose.js'
import {recall} from '../src/app/recall.js'
import {approve, review} from '../src/app/review.js'
import {cli, initRepo, type Repo} from './helpers.js'

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
  'docs/adr/README.md': '# Decision log\n\nOne file per decision.\n',
  'docs/adr/0001-use-mysql-for-storage.md': `# 1. Use MySQL for storage

Date: 2024-01-10

## Status

Superseded by [3. Use Postgres for storage](0003-use-postgres-for-storage.md)

## Context

We need a relational database the team knows.

## Decision

We will use MySQL 8 for all persistent data.

## Consequences

Ops runs one database engine.
`,
  'docs/adr/0003-use-postgres-for-storage.md': `---
status: accepted
date: 2024-06-01
---
# Use Postgres for storage

## Context and Problem Statement

MySQL lacks the JSON indexing we now need.

## Decision Outcome

Chosen option: Postgres 16, because of its JSONB indexes.
`,
  '.skein/spec/core/testing/no-mocked-database.md': `---
keywords: [database, mocks]
---
# No mocked database

Integration tests run against a real Postgres, never a mock.
`,
  '.skein/spec/recall/构建/缓存规则.md': `---
summary: 构建缓存按锁文件的哈希失效。
---
CI 的依赖缓存以 package-lock.json 的哈希为键。
`,
  '.skein/spec/.archive/20240101/old-rule.md': '# Old rule\n\nArchived.\n',
  '.fabric/knowledge/pitfall/timezone-naive-dates.md': `---
title: Timezone-naive dates break reports
summary: Store every timestamp in UTC with its offset.
relevance_paths: [src/reports/**]
keywords: [timezone]
---
Reports built from naive dates shift by the server's offset; always store UTC.
`,
  '.fabric/knowledge/decision/event-sourcing-orders.md': `---
summary: Orders are event-sourced.
---
The order service stores events, not rows.
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
  // The edited file's card is said to have changed at its source, and left as it is.
  expect(again.cards.map(c => [c.id, c.outcome])).toEqual(
    first.cards.map(c => [c.id, c.source === file ? 'source-changed' : 'skipped']),
  )
  expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head)
  return first
}

describe('cairn import cursor-rules', () => {
  it('maps globs to narrow paths, alwaysApply to core, description to summary; skips cairn-*.mdc', async () => {
    const repo = await fixtureRepo()
    const r = await importTwice(repo, 'cursor-rules', [
      '.cursor/rules/security-basics.mdc',
      'debug logs',
      'debug or trace logs',
    ])
    expect(r.cards.map(c => [c.id, c.title, `${c.source}:${c.line}`])).toEqual([
      ['react-components-write', 'React components', '.cursor/rules/react-components.mdc:6'],
      ['security-basics-print', 'Security basics', '.cursor/rules/security-basics.mdc:5'],
    ])
    const react = repo.read('.cairn/pending/guideline/react-components-write.md')
    expect(react).toContain('summary: Components are function components with typed props.')
    expect(react).toContain('load: recall')
    expect(react).toContain('paths: [src/components/**/*.tsx, src/pages/**/*.tsx]')
    // "Never print tokens" reads as a pitfall.
    expect(r.cards.map(c => c.type)).toEqual(['guideline', 'pitfall'])
    const security = repo.read('.cairn/pending/pitfall/security-basics-print.md')
    expect(security).toContain('load: core')
    expect(security).toContain('paths: []')
    expect(security).toContain('source_sessions: [import:.cursor/rules/security-basics.mdc]')
  })

  it('a malformed rule file is reported with its path and field; the good ones are imported', async () => {
    const repo = await fixtureRepo()
    repo.write('.cursor/rules/bad-rule.mdc', '---\nalwaysApply: sometimes\n---\nDo things.\n')
    const r = await importRules(repo.ctx(), {kind: 'cursor-rules'})
    expect(r.failed).toEqual([
      {
        file: '.cursor/rules/bad-rule.mdc',
        issues: [
          {
            file: '.cursor/rules/bad-rule.mdc',
            field: 'alwaysApply',
            message: 'must be true or false, not "sometimes"',
            fix: 'write alwaysApply: true or alwaysApply: false',
          },
        ],
      },
    ])
    expect(r.cards.map(c => [c.id, c.outcome])).toEqual([
      ['react-components-write', 'created'],
      ['security-basics-print', 'created'],
    ])
  })
})

describe('the rule files teams really have: format variants', () => {
  it("Cursor's unquoted globs import, and a pattern without a slash applies at any depth, as in Cursor", async () => {
    const repo = await fixtureRepo()
    repo.write(
      '.cursor/rules/typescript-style.mdc',
      '---\ndescription: TypeScript style\nglobs: *.ts,*.tsx,*.mts\nalwaysApply: false\n---\nPrefer type over interface for unions.\n',
    )
    const r = await importRules(repo.ctx(), {kind: 'cursor-rules'})
    expect(r.failed).toEqual([])
    expect(r.cards.map(c => c.id)).toContain('typescript-style-prefer')
    const card = repo.read('.cairn/pending/guideline/typescript-style-prefer.md')
    expect(card).toContain('paths: ["**/*.ts", "**/*.tsx", "**/*.mts"]')
  })

  it('applyTo and fileMatchPattern keep a comma inside braces, as a string, a comma list or a YAML list', async () => {
    const repo = await fixtureRepo()
    repo.write(
      '.github/instructions/pipelines.instructions.md',
      "---\napplyTo: '.pipelines/**/*.{yml,yaml}, /build/*.sh'\n---\nPin every task version.\n",
    )
    repo.write(
      '.github/instructions/docs.instructions.md',
      '---\napplyTo:\n  - docs/**/*.md\n  - "**/*.mdx"\n---\nWrite docs in the second person.\n',
    )
    repo.write(
      '.kiro/steering/styles.md',
      '---\ninclusion: fileMatch\nfileMatchPattern: ["src/**/*.{css,scss}", "/theme/*.json"]\n---\nUse the design tokens.\n',
    )
    const copilot = await importRules(repo.ctx(), {kind: 'copilot'})
    expect(copilot.failed).toEqual([])
    const fileOf = (r: typeof copilot, source: string) => {
      const c = r.cards.find(x => x.source.endsWith(source))!
      return repo.read(`.cairn/pending/${c.type}/${c.id}.md`)
    }
    expect(fileOf(copilot, 'pipelines.instructions.md')).toContain(
      'paths: ["**/.pipelines/**/*.{yml,yaml}", build/*.sh]',
    )
    expect(fileOf(copilot, 'docs.instructions.md')).toContain('paths: ["**/docs/**/*.md", "**/*.mdx"]')
    const kiro = await importRules(repo.ctx(), {kind: 'kiro'})
    expect(kiro.failed).toEqual([])
    expect(fileOf(kiro, 'styles.md')).toContain('paths: ["src/**/*.{css,scss}", theme/*.json]')
  })

  it('ADR statuses as links, in brackets, in other words and in Chinese; Chinese sections; an unknown one is imported for review', async () => {
    const repo = await fixtureRepo()
    const adr = (name: string, text: string) => repo.write(`docs/adr/${name}.md`, text)
    adr(
      '0010-use-grpc',
      '# 10. Use gRPC between services\n\n## Status\n\n[Accepted](https://github.com/o/r/pull/541)\n\n## Decision\n\nServices talk gRPC.\n',
    )
    adr('0011-use-kafka', '# 11. Use Kafka\n\n## Status\n\n[Approved]\n\n## Decision\n\nEvents go through Kafka.\n')
    adr('0012-use-redis', '# Use Redis\n\n* Status: Approved\n\n## Decision\n\nCache in Redis.\n')
    adr(
      '0013-zh',
      '# ADR-013：统一使用 UTC 存储时间\n\n## 状态\n\n已接受\n\n## 背景\n\n各服务时区不一致。\n\n## 决策\n\n数据库一律存 UTC。\n\n## 后果\n\n前端负责转换。\n',
    )
    adr('0014-old', '# Use SOAP\n\n## Status\n\nDeprecated\n\n## Decision\n\nSOAP everywhere.\n')
    adr('0015-odd', '# Cache everything\n\n## Status\n\nMaybe\n\n## Decision\n\nCache it.\n')
    const r = await importRules(repo.ctx(), {kind: 'adr', path: 'docs/adr'})
    expect(r.failed).toEqual([])
    const text = (name: string) => {
      const c = r.cards.find(x => x.source === `docs/adr/${name}.md`)!
      return repo.read(`.cairn/pending/decision/${c.id}.md`)
    }
    const reason = (name: string) => /proposed_reason: ['"]?(.*?)['"]?$/m.exec(text(name))![1].replace(/\\"/g, '"')
    expect(reason('0010-use-grpc')).toMatch(/ADR status: accepted$/)
    expect(reason('0011-use-kafka')).toMatch(/ADR status: accepted$/)
    expect(reason('0012-use-redis')).toMatch(/ADR status: accepted$/)
    expect(reason('0014-old')).toMatch(/ADR status: deprecated$/)
    expect(reason('0015-odd')).toMatch(/ADR status: "Maybe" \(not a status cairn knows; check it in review\)$/)
    const zh = text('0013-zh')
    expect(zh).toContain('title: 统一使用 UTC 存储时间')
    expect(zh).toContain('summary: 数据库一律存 UTC。')
    expect(reason('0013-zh')).toMatch(/ADR status: accepted$/)
  })

  it('deprecated and superseded ADRs (by link, by number, or 已废弃) are retired records: approved as such, never recalled', async () => {
    const repo = await fixtureRepo()
    const adr = (name: string, text: string) => repo.write(`docs/adr/${name}.md`, text)
    adr(
      '0020-use-soap',
      '# Use SOAP for partner APIs\n\n## Status\n\nDeprecated\n\n## Decision\n\nPartner APIs speak SOAP.\n',
    )
    adr(
      '0021-use-memcached',
      '# Use Memcached for sessions\n\n## Status\n\nSuperseded by ADR-0023\n\n## Decision\n\nSessions live in Memcached.\n',
    )
    adr('0022-ftp-uploads', '# 使用 FTP 上传报表\n\n## 状态\n\n已废弃\n\n## 决策\n\n报表通过 FTP 上传到合作方。\n')
    adr(
      '0023-use-redis',
      '# Use Redis for sessions\n\n## Status\n\nAccepted\n\n## Decision\n\nSessions live in Redis.\n',
    )
    adr('0024-use-corba', '# Use CORBA\n\n## Status\n\nRejected\n\n## Decision\n\nServices talk CORBA.\n')
    adr('0025-use-grpc', '# Use gRPC\n\n## Status\n\nProposed\n\n## Decision\n\nServices talk gRPC.\n')
    const r = await importRules(repo.ctx(), {kind: 'adr', path: 'docs/adr'})
    expect(r.failed).toEqual([])
    const id = (name: string) => r.cards.find(x => x.source === `docs/adr/${name}.md`)!.id
    const pending = (name: string) => repo.read(`.cairn/pending/decision/${id(name)}.md`)
    expect(pending('0020-use-soap')).toMatch(/^status: deprecated$/m)
    expect(pending('0021-use-memcached')).toMatch(/^status: superseded$/m)
    expect(pending('0021-use-memcached')).toContain(`superseded_by: ${id('0023-use-redis')}`)
    expect(pending('0022-ftp-uploads')).toMatch(/^status: deprecated$/m)
    expect(pending('0023-use-redis')).toMatch(/^status: pending$/m)
    // A rejected decision was never taken: a retired record too. A proposed one is reviewed as any card.
    expect(pending('0024-use-corba')).toMatch(/^status: deprecated$/m)
    expect(pending('0025-use-grpc')).toMatch(/^status: pending$/m)
    // Review says what approving does, and where each card came from with the ADR's status; lint is clean.
    const listed = (await review(repo.ctx())).text
    expect(listed).toContain(
      'Proposed because: imported from docs/adr/0025-use-grpc.md line 1 (cairn import adr); ADR status: proposed',
    )
    expect(listed).toContain(
      'status: deprecated — approving keeps it as a deprecated record in cards/: it is never recalled.',
    )
    expect((await lint(repo.ctx())).problems).toEqual([])
    await approve(repo.ctx(), {all: true})
    const card = (name: string) => repo.read(`.cairn/cards/decision/${id(name)}.md`)
    expect(card('0020-use-soap')).toMatch(/^status: deprecated$/m)
    expect(card('0021-use-memcached')).toMatch(/^status: superseded$/m)
    expect(card('0022-ftp-uploads')).toMatch(/^status: deprecated$/m)
    expect(card('0023-use-redis')).toMatch(/^status: active$/m)
    expect(card('0024-use-corba')).toMatch(/^status: deprecated$/m)
    const ids = async (prompt: string) => (await recall(repo.ctx(), {prompt})).cards.map(c => c.id)
    expect(await ids('where do sessions live, memcached or redis?')).toEqual([id('0023-use-redis')])
    expect(await ids('add a SOAP endpoint for partner APIs')).toEqual([])
    expect(await ids('报表怎么通过 FTP 上传给合作方')).toEqual([])
    expect((await lint(repo.ctx())).problems).toEqual([])
  })
})

describe("a whole-file rule's title", () => {
  it('is its first H1 or H2, never a deeper heading or a comment line inside a code block', async () => {
    const repo = await fixtureRepo()
    repo.write(
      '.kiro/steering/shell-scripts.md',
      '---\ninclusion: manual\n---\n```sh\n# run from the repo root\n./build.sh\n```\n\n### Details\n\nQuote every variable.\n',
    )
    repo.write(
      '.kiro/steering/naming-rules.md',
      '---\ninclusion: manual\n---\n### Intro\n\n## Naming\n\nUse kebab-case file names.\n',
    )
    const r = await importRules(repo.ctx(), {kind: 'kiro'})
    const title = (source: string) => r.cards.find(c => c.source.endsWith(source))!.title
    expect([title('shell-scripts.md'), title('naming-rules.md')]).toEqual(['Shell scripts', 'Naming'])
    // One of several H2s (or of several H1s) names a part of the file, not the file: the file's name speaks.
    repo.write(
      '.kiro/steering/webapp.md',
      '---\ninclusion: manual\n---\n## Environment variables\n\nRead env through env.server.ts.\n\n## Testing\n\nTest services in isolation.\n',
    )
    const again = await importRules(repo.ctx(), {kind: 'kiro'})
    expect(again.cards.find(c => c.source.endsWith('webapp.md'))!.title).toBe('Webapp')
  })
})

describe('the core budget at import', () => {
  it('says which imported core cards would not load at session start once approved, and nothing when all fit', async () => {
    const repo = await fixtureRepo()
    const fits = await importRules(repo.ctx(), {kind: 'kiro'})
    expect(fits.coreOverflow).toBeNull()
    const budget = Number(/core_budget: (\d+)/.exec(repo.read('.cairn/config.yaml'))![1])
    for (const name of ['alpha-rules', 'beta-rules', 'gamma-rules'])
      repo.write(
        `.kiro/steering/${name}.md`,
        `---\ninclusion: always\n---\n${`Keep the ${name} in mind. `.repeat(Math.ceil(budget / 3 / 25))}\n`,
      )
    // Pending core cards count too (product, imported above): they load once approved. Session start cuts in id order.
    const out = await cli(['import', 'kiro'], {cwd: repo.dir, env: repo.env})
    expect(out.code).toBe(0)
    const line = out.stdout.split('\n').find(l => l.startsWith('core budget: '))!
    expect(line).toMatch(
      new RegExp(
        `^core budget: once approved, the core cards hold \\d+ characters, over core_budget \\(${budget}\\), so gamma-rules-keep-mind, product-overview-app would not load at session start\\. Fix: `,
      ),
    )
    expect(Number(/hold (\d+) characters/.exec(line)![1])).toBeGreaterThan(budget)
    // The three new cards have only derived triggers: the report points to enrich with their count.
    expect(out.stdout).toContain(
      'Then: 3 of these cards have only the triggers cairn derived, and rules rarely hold the words prompts say. Run the cairn-enrich skill',
    )
  })
})

describe('a secret in one file', () => {
  it('is left out and named with its fingerprint and the allow fix; the other files are imported', async () => {
    const repo = await fixtureRepo()
    repo.write(
      '.kiro/steering/database.md',
      '---\ninclusion: always\n---\nConnect with DATABASE_URL=postgresql://app:s3cr3tPassw0rd@db.internal:5432/app\n',
    )
    const r = await importRules(repo.ctx(), {kind: 'kiro'})
    expect(r.cards.map(c => c.id)).toEqual(['api-standards-endpoint', 'product-overview-app', 'release-checklist-tag'])
    expect(r.failed.map(f => f.file)).toEqual(['.kiro/steering/database.md'])
    const [issue] = r.failed[0].issues
    expect(issue.file).toBe('.kiro/steering/database.md:4')
    expect(issue.message).toMatch(/^contains a .+ \(fingerprint [0-9a-f]+\)$/)
    const fp = /fingerprint ([0-9a-f]+)/.exec(issue.message)![1]
    expect(issue.fix).toBe(
      `remove it, and rotate it if it is real; if it is not a secret, list "${fp}" under secrets: allow: in .cairn/config.yaml`,
    )
    expect(repo.git('show', '--name-only', '--format=', 'HEAD')).not.toContain('database')
    // Allowed by its fingerprint, the next import takes it.
    repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('  allow: []', `  allow: [${fp}]`))
    const again = await importRules(repo.ctx(), {kind: 'kiro'})
    expect([again.failed, again.cards.filter(c => c.outcome === 'created').map(c => c.source)]).toEqual([
      [],
      ['.kiro/steering/database.md'],
    ])
  })
})

describe('cairn import copilot', () => {
  it('imports the repository-wide file by section (cairn block skipped) and applyTo as narrow paths', async () => {
    const repo = await fixtureRepo()
    const r = await importTwice(repo, 'copilot', ['.github/copilot-instructions.md', 'Result type', 'Result<T> type'])
    expect(r.cards.map(c => [c.id, c.title, `${c.source}:${c.line}`])).toEqual([
      ['copilot-error-handling', 'Error handling', '.github/copilot-instructions.md:3'],
      ['python-style-format-script', 'Python style', '.github/instructions/python-style.instructions.md:5'],
    ])
    const py = repo.read('.cairn/pending/guideline/python-style-format-script.md')
    // VS Code matches an applyTo that does not start with / or **/ at any depth.
    expect(py).toContain('paths: ["**/scripts/**/*.py"]')
    expect(py).toContain('summary: Python scripts follow black formatting.')
    expect(py).toContain('source_sessions: [import:.github/instructions/python-style.instructions.md]')
  })
})

describe('cairn import kiro', () => {
  it('maps inclusion always to core, fileMatch to narrow paths, manual to a recalled card', async () => {
    const repo = await fixtureRepo()
    const r = await importTwice(repo, 'kiro', ['.kiro/steering/product.md', 'online', 'online and by phone'])
    expect(r.cards.map(c => [c.id, c.title])).toEqual([
      ['api-standards-endpoint', 'Api standards'],
      ['product-overview-app', 'Product overview'],
      ['release-checklist-tag', 'Release checklist'],
    ])
    const card = (id: string) => repo.read(`.cairn/pending/guideline/${id}.md`)
    expect(card('product-overview-app')).toContain('load: core')
    expect(card('api-standards-endpoint')).toContain('load: recall')
    expect(card('api-standards-endpoint')).toContain('paths: [api/**/*.ts]')
    expect(card('release-checklist-tag')).toContain('load: recall')
    expect(card('release-checklist-tag')).toContain('paths: []')
  })

  it('inclusion auto is a recall card summarised by its description; an unknown mode is imported with a note, never refused', async () => {
    const repo = await fixtureRepo()
    repo.write(
      '.kiro/steering/docs-style.md',
      '---\ninclusion: auto\ndescription: Code documentation standards for all packages\n---\n# Docs\n\nEvery exported function has a TSDoc comment.\n',
    )
    repo.write('.kiro/steering/odd.md', '---\ninclusion: sometimes\n---\nDo things.\n')
    const r = await importRules(repo.ctx(), {kind: 'kiro'})
    expect(r.failed).toEqual([])
    const file = (source: string) => {
      const c = r.cards.find(x => x.source.endsWith(source))!
      return repo.read(`.cairn/pending/${c.type}/${c.id}.md`)
    }
    expect(file('docs-style.md')).toContain('summary: Code documentation standards for all packages')
    expect(file('docs-style.md')).toContain('load: recall')
    expect(file('odd.md')).toContain('load: recall')
    expect(file('odd.md')).toContain(
      'Kiro inclusion: "sometimes" (not a mode cairn knows; imported as a recall card, check it in review)',
    )
  })
})

describe('cairn import adr', () => {
  it('makes one decision card per ADR (Nygard and MADR), superseded → superseded_by; README skipped', async () => {
    const repo = await fixtureRepo()
    const r = await importTwice(repo, 'adr', [
      'docs/adr/0003-use-postgres-for-storage.md',
      'JSONB indexes',
      'JSONB and GIN indexes',
    ])
    expect(r.cards.map(c => [c.id, c.type, c.title, `${c.source}:${c.line}`])).toEqual([
      ['0001-use-mysql-storage', 'decision', 'Use MySQL for storage', 'docs/adr/0001-use-mysql-for-storage.md:1'],
      [
        '0003-use-postgres-storage',
        'decision',
        'Use Postgres for storage',
        'docs/adr/0003-use-postgres-for-storage.md:5',
      ],
    ])
    const old = repo.read('.cairn/pending/decision/0001-use-mysql-storage.md')
    expect(old).toContain('superseded_by: 0003-use-postgres-storage')
    expect(old).toContain('summary: We will use MySQL 8 for all persistent data.')
    expect(old).toContain('(cairn import adr); ADR status: superseded')
    expect(old).toContain('We need a relational database the team knows.')
    const next = repo.read('.cairn/pending/decision/0003-use-postgres-storage.md')
    expect(next).toContain('superseded_by: null')
    expect(next).toContain('summary: "Chosen option: Postgres 16, because of its JSONB indexes."')
    expect(next).toContain('ADR status: accepted')
    // In review the superseded ADR says so; approved, it is kept as a superseded record and never recalled.
    expect((await review(repo.ctx())).text).toContain(
      'superseded_by: 0003-use-postgres-storage — approving keeps it as a superseded record',
    )
    await approve(repo.ctx(), {all: true})
    expect(repo.read('.cairn/cards/decision/0001-use-mysql-storage.md')).toContain('status: superseded')
    expect(repo.read('.cairn/cards/decision/0003-use-postgres-storage.md')).toContain('status: active')
    const found = await recall(repo.ctx(), {prompt: 'which database for storage, mysql or postgres'})
    expect(found.cards.map(c => c.id)).not.toContain('0001-use-mysql-storage')
    expect(found.cards.map(c => c.id)).toContain('0003-use-postgres-storage')
  })

  it('an ADR without a title is reported with its path; one with an unknown status is imported for review; a template is left out', async () => {
    const repo = await fixtureRepo()
    repo.write('docs/adr/0004-no-title.md', 'Just some text.\n')
    repo.write('docs/adr/0005-odd-status.md', '# Cache everything\n\n## Status\n\nMaybe\n\n## Decision\n\nCache it.\n')
    repo.write(
      'docs/adr/0006-template.md',
      '# 6. Pick a queue\n\n## Status\n\nAccepted\n\n## Decision\n\n<!-- What is the change we are making? -->\n',
    )
    const r = await importRules(repo.ctx(), {kind: 'adr', path: 'docs/adr'})
    expect(r.failed).toEqual([
      {
        file: 'docs/adr/0004-no-title.md',
        issues: [
          {
            file: 'docs/adr/0004-no-title.md',
            field: '(title)',
            message: 'has no "# " title line',
            fix: 'start the ADR with "# <the decision>"',
          },
        ],
      },
    ])
    expect(r.cards.map(c => [c.id, c.outcome])).toEqual([
      ['0001-use-mysql-storage', 'created'],
      ['0003-use-postgres-storage', 'created'],
      ['0005-odd-status-cache', 'created'],
    ])
    // A template whose decision is only its HTML comment prompt decides nothing a reader sees: left out, and said so.
    expect(r.leftOut).toEqual([
      {
        source: 'docs/adr/0006-template.md',
        line: 1,
        title: 'Pick a queue',
        why: 'it holds only HTML comments, which a reader never sees',
      },
    ])
    expect(fs.existsSync(path.join(repo.dir, '.cairn/pending/decision/0006-template-pick-queue.md'))).toBe(false)
  })
})

describe('cairn import, every kind in one repository', () => {
  it('all kinds together, OME too, write valid pending cards with distinct slugs; a second round adds nothing', async () => {
    const repo = await fixtureRepo()
    repo.write('CLAUDE.md', '## Testing\n\n- Run the tests before pushing.\n')
    const kinds = ['claude-md', 'cursor-rules', 'copilot', 'kiro', 'adr', 'skein', 'fabric']
    const ids: string[] = []
    repo.write(
      'ome/experiences.json',
      JSON.stringify(
        {
          experiences: [
            {
              id: 'git-force-push-shared-branch',
              title: 'Never force-push a shared branch',
              summary: 'Use --force-with-lease on your own branch.',
              recall: {policy: 'must', risk: 'high', triggers: ['force push']},
            },
            {
              id: 'release-notes-before-tag',
              title: 'Write release notes before the tag',
              summary: 'The tag job publishes the notes it finds.',
            },
          ],
        },
        null,
        2,
      ),
    )
    const sources: [string, string | undefined][] = [
      ...kinds.map(k => [k, undefined] as [string, undefined]),
      ['ome', 'ome/experiences.json'],
    ]
    for (const [kind, path] of sources) ids.push(...(await importRules(repo.ctx(), {kind, path})).cards.map(c => c.id))
    expect(ids).toHaveLength(16)
    expect(new Set(ids).size).toBe(16)
    expect(repo.git('status', '--porcelain', '.cairn')).toBe('')
    expect(await lint(repo.ctx())).toMatchObject({checked: 16, errors: 0, warnings: 0})
    for (const [kind, path] of sources) {
      expect((await importRules(repo.ctx(), {kind, path})).cards.filter(c => c.outcome !== 'skipped')).toEqual([])
    }
  })
})

describe('cairn import skein', () => {
  it('keeps the layer as load and the folder as category; a Chinese file name takes its slug from the folders', async () => {
    const repo = await fixtureRepo()
    const r = await importTwice(repo, 'skein', ['.skein/spec/recall/构建/缓存规则.md', '为键', '为缓存键'])
    expect(r.cards.map(c => [c.id, c.title, c.source])).toEqual([
      ['no-mocked-database-integration', 'No mocked database', '.skein/spec/core/testing/no-mocked-database.md'],
      ['huan-cun-guize-yilai', '缓存规则', '.skein/spec/recall/构建/缓存规则.md'],
    ])
    const core = repo.read('.cairn/pending/guideline/no-mocked-database-integration.md')
    expect(core).toContain('load: core')
    expect(core).toContain('category: testing')
    expect(core).toContain('keywords: [database, mocks]')
    const zh = repo.read('.cairn/pending/guideline/huan-cun-guize-yilai.md')
    expect(zh).toContain('load: recall')
    expect(zh).toContain('category: 构建')
    expect(zh).toContain('language: zh')
  })
})

describe('cairn import fabric', () => {
  it('maps types one to one from the folder, keeping title, summary, keywords and relevance paths', async () => {
    const repo = await fixtureRepo()
    const r = await importTwice(repo, 'fabric', [
      '.fabric/knowledge/decision/event-sourcing-orders.md',
      'not rows',
      'not table rows',
    ])
    expect(r.cards.map(c => [c.id, c.type, c.title])).toEqual([
      ['event-sourcing-orders', 'decision', 'Event sourcing orders'],
      ['timezone-naive-dates', 'pitfall', 'Timezone-naive dates break reports'],
    ])
    const tz = repo.read('.cairn/pending/pitfall/timezone-naive-dates.md')
    expect(tz).toContain('paths: [src/reports/**]')
    expect(tz).toContain('keywords: [timezone]')
    expect(tz).toContain('summary: Store every timestamp in UTC with its offset.')
  })

  it('a file in no type folder and without a type is reported with its path', async () => {
    const repo = await fixtureRepo()
    repo.write('.fabric/knowledge/notes/loose.md', 'Some note.\n')
    const r = await importRules(repo.ctx(), {kind: 'fabric'})
    expect(r.failed.map(f => [f.file, f.issues[0].field, f.issues[0].message])).toEqual([
      ['.fabric/knowledge/notes/loose.md', 'type', '"notes" is not a knowledge type'],
    ])
    expect(r.cards).toHaveLength(2)
  })
})

describe('cairn import, card types and taken slugs', () => {
  it('types each card by its wording (Chinese headings too); a frontmatter type naming a card type wins', async () => {
    const repo = await initRepo()
    repo.write(
      'CLAUDE.md',
      [
        '## 避免在循环里查询数据库',
        '',
        '- 先批量取出，再在内存里匹配。',
        '',
        '## 发布步骤',
        '',
        '1. 打标签。',
        '2. 推送标签。',
        '',
        '## Architecture decision',
        '',
        '- We chose Postgres for its JSONB indexes.',
        '',
        '## Style',
        '',
        '- Use prettier.',
        '',
      ].join('\n'),
    )
    repo.write(
      '.cursor/rules/deploy-runbook.mdc',
      '---\ntype: process\nalwaysApply: false\n---\nAlways deploy from main.\n',
    )
    const md = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(md.cards.map(c => [c.id, c.type, c.title])).toEqual([
      ['claude-bimian-xunhuan-li-chaxun', 'pitfall', '避免在循环里查询数据库'],
      ['claude-fabu-buzhou-biaoqian', 'process', '发布步骤'],
      ['claude-architecture-decision', 'decision', 'Architecture decision'],
      ['claude-style-prettier', 'guideline', 'Style'],
    ])
    const rules = await importRules(repo.ctx(), {kind: 'cursor-rules'})
    expect(rules.cards.map(c => [c.id, c.type, c.path])).toEqual([
      ['deploy-runbook-main-imported', 'process', '.cairn/pending/process/deploy-runbook-main-imported.md'],
    ])
    expect(await lint(repo.ctx())).toMatchObject({checked: 5, errors: 0})
  })

  it('a derived slug a card from elsewhere holds takes a stable discriminator; the import still succeeds', async () => {
    const repo = await fixtureRepo()
    const mine = {
      slug: 'react-components-write',
      type: 'guideline',
      title: 'My own card',
      summary: 'Proposed by hand before the import.',
    }
    await propose(repo.ctx(), {fields: mine})
    const first = await importRules(repo.ctx(), {kind: 'cursor-rules'})
    expect(first.failed).toEqual([])
    expect(first.cards.map(c => [c.id, c.outcome])).toEqual([
      ['react-components-write-k55245', 'created'],
      ['security-basics-print', 'created'],
    ])
    expect(repo.read('.cairn/pending/guideline/react-components-write.md')).toContain('title: My own card')
    const again = await importRules(repo.ctx(), {kind: 'cursor-rules'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([
      ['react-components-write-k55245', 'skipped'],
      ['security-basics-print', 'skipped'],
    ])
  })
})
