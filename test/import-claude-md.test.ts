import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {importRules} from '../src/app/import.js'
import {lint} from '../src/app/lint.js'
import {approve, reject, review} from '../src/app/review.js'
import {cli, initRepo} from './helpers.js'

const CLAUDE = `# Project notes

Some intro text about the project.

## Testing

- Run \`npm test\` before every push.
- Never mock the database in integration tests.

## Architecture

The app is a monolith.

## 提交规范

- 提交信息必须使用英文。

<!-- cairn:begin -->
## Exported card

- always something cairn wrote
<!-- cairn:end -->
`

const AGENTS = `## Code style

Always use two-space indentation in TypeScript files.
`

describe('cairn import claude-md', () => {
  it('proposes one pending card per rule-like section, skips the cairn block, and a second run adds nothing', async () => {
    const repo = await initRepo()
    repo.write('CLAUDE.md', CLAUDE)
    repo.write('AGENTS.md', AGENTS)
    const head = repo.git('rev-parse', 'HEAD').trim()
    const dry = await importRules(repo.ctx(), {kind: 'claude-md', dryRun: true})
    expect(dry.cards.map(c => [c.id, c.outcome, `${c.source}:${c.line}`])).toEqual([
      ['claude-testing-run-npm', 'would-create', 'CLAUDE.md:5'],
      ['claude-architecture-app', 'would-create', 'CLAUDE.md:10'],
      ['claude-tijiao-guifan', 'would-create', 'CLAUDE.md:14'],
      ['agents-code-style-two', 'would-create', 'AGENTS.md:1'],
    ])
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head)
    expect(repo.git('status', '--porcelain')).toBe('?? AGENTS.md\n?? CLAUDE.md\n')

    const out = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(out.failed).toEqual([])
    // The H1's introduction gives no rule: no card, and the report says so.
    expect(out.leftOut).toEqual([
      {
        source: 'CLAUDE.md',
        line: 1,
        title: 'Project notes',
        why: 'an introduction that gives no rule (no list, table, code or instruction)',
      },
    ])
    expect(out.cards.map(c => [c.id, c.type, c.outcome, c.path])).toEqual([
      ['claude-testing-run-npm', 'guideline', 'created', '.cairn/pending/guideline/claude-testing-run-npm.md'],
      ['claude-architecture-app', 'guideline', 'created', '.cairn/pending/guideline/claude-architecture-app.md'],
      ['claude-tijiao-guifan', 'guideline', 'created', '.cairn/pending/guideline/claude-tijiao-guifan.md'],
      ['agents-code-style-two', 'guideline', 'created', '.cairn/pending/guideline/agents-code-style-two.md'],
    ])
    const card = repo.read('.cairn/pending/guideline/claude-testing-run-npm.md')
    expect(card).toContain('status: pending')
    expect(card).toContain('title: Testing')
    expect(card).toContain('summary: Run `npm test` before every push.')
    expect(card).toContain('source_sessions: [import:CLAUDE.md#testing]')
    expect(card).toContain('proposed_reason: imported from CLAUDE.md line 5 (cairn import claude-md)')
    expect(card).toContain('- Never mock the database in integration tests.')
    expect(repo.git('log', '-1', '--format=%s')).toContain('4 cards')
    const checked = await lint(repo.ctx())
    expect(checked.problems).toEqual([])

    const imported = repo.git('rev-parse', 'HEAD').trim()
    // The text is edited (and moved down a line): same slugs, nothing added, no commit, the card unchanged.
    repo.write('CLAUDE.md', `\n${CLAUDE.replace('before every push', 'before every push and every merge')}`)
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    // The edited section is said to have changed at its source; its card keeps its text.
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([
      ['claude-testing-run-npm', 'source-changed'],
      ['claude-architecture-app', 'skipped'],
      ['claude-tijiao-guifan', 'skipped'],
      ['agents-code-style-two', 'skipped'],
    ])
    expect(again.commit).toBeNull()
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(imported)
    expect(repo.git('status', '--porcelain', '.cairn')).toBe('')
    expect(repo.read('.cairn/pending/guideline/claude-testing-run-npm.md')).not.toContain('every merge')
    const text = await cli(['import', 'claude-md'], {cwd: repo.dir, env: repo.env})
    expect(text.stdout.trim().split('\n').pop()).toBe(
      'nothing added: 3 imported before, 1 imported before and changed in the source since (the cards keep their text: edit them to follow)',
    )
  })

  it('reports a malformed file with its path, imports the rest and exits 6 (CLI contract)', async () => {
    const repo = await initRepo()
    repo.write('rules/good.md', AGENTS)
    repo.write('rules/bad.md', Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]))
    const r = await cli(['import', 'claude-md', 'rules', '--json'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(6)
    const env = JSON.parse(r.stdout)
    expect(env.ok).toBe(false)
    expect(env.error.code).toBe('validation')
    expect(env.error.message).toBe(
      'Not imported, in part or whole: rules/bad.md. Fix: mend each file as its warning says, then import again.',
    )
    expect(env.error.data.cards.map((c: {id: string; outcome: string}) => [c.id, c.outcome])).toEqual([
      ['good-code-style-two-space', 'created'],
    ])
    expect(env.error.data.failed[0].file).toBe('rules/bad.md')
    // In text, one block says what became no card and why.
    repo.write('rules/good.md', `# Rules\n\nThis file provides guidance to Claude Code.\n\n${AGENTS}`)
    const text = await cli(['import', 'claude-md', 'rules'], {cwd: repo.dir, env: repo.env})
    expect(text.code, text.stdout + text.stderr).toBe(6)
    const block = text.stdout.slice(text.stdout.indexOf('not imported:')).split('\n').slice(0, 3)
    expect(block[0]).toBe('not imported:')
    expect(block[1]).toBe('  rules/bad.md: (content) invalid UTF-8 at byte 2; the warning says how to fix it')
    expect(block[2]).toBe('  rules/good.md:1 "Rules": it only says what the file is')
    expect(env.error.data.failed[0].issues[0].file).toBe('rules/bad.md')
    expect(repo.read('.cairn/pending/guideline/good-code-style-two-space.md')).toContain('status: pending')
  })
})

describe('cairn import claude-md: the rule files teams really have', () => {
  it('every rule becomes a card (Chinese wording, a table, code), a nested file is scoped to its folder, and a summary states the rule', async () => {
    const repo = await initRepo()
    repo.write(
      'tests/AGENTS.md',
      [
        '## 注释',
        '',
        '所有的注释都要使用中文。',
        '',
        '## Commit types',
        '',
        '| type | when |',
        '|---|---|',
        '| feat | a new feature |',
        '| fix | a bug fix |',
        '',
        '## Empty heading',
        '',
        '## Database client',
        '',
        'Run these after a schema change:',
        '',
        '```sh',
        'bun run db:generate',
        '```',
        '',
        'Regenerate the client after every schema edit.',
        '',
      ].join('\n'),
    )
    const r = await importRules(repo.ctx(), {kind: 'claude-md', path: 'tests/AGENTS.md'})
    expect(r.failed).toEqual([])
    expect(r.cards.map(c => c.title)).toEqual(['注释', 'Commit types', 'Database client'])
    const text = (title: string) => {
      const c = r.cards.find(x => x.title === title)!
      return repo.read(`.cairn/pending/${c.type}/${c.id}.md`)
    }
    expect(text('注释')).toContain('summary: 所有的注释都要使用中文。')
    expect(text('Commit types')).toContain('| feat | a new feature |')
    expect(text('Database client')).toContain('summary: Regenerate the client after every schema edit.')
    expect(text('Database client')).toContain('bun run db:generate')
    for (const title of ['注释', 'Commit types', 'Database client'])
      expect(text(title), title).toContain('  paths: [tests/**]')
  })

  it('without PATH finds nested CLAUDE.md, AGENTS.md and GEMINI.md at any depth, each scoped to its folder; ignored ones are not read', async () => {
    const repo = await initRepo()
    repo.write('AGENTS.md', '## Commits\n\nWrite Conventional Commits messages.\n')
    repo.write('tests/AGENTS.md', '## Fixtures\n\nKeep fixtures small and named after the case.\n')
    repo.write('packages/api/CLAUDE.md', '## Handlers\n\nValidate every request body with zod.\n')
    repo.write('.claude/CLAUDE.md', '## Releases\n\nTag releases from main only.\n')
    repo.write('.github/workflows/CLAUDE.md', '## Workflows\n\nPin every action to a commit.\n')
    repo.write('.gitignore', 'vendor/\n')
    repo.write('vendor/lib/AGENTS.md', '## Vendored\n\nNever edit vendored code.\n')
    // A document about agents is not their rules; a tracked file deleted from the work tree is not read.
    repo.write('docs/agents.md', '## Agents we run\n\nAlways name the model.\n')
    repo.write('old/AGENTS.md', '## Old\n\nAlways do the old thing.\n')
    repo.git('add', 'old/AGENTS.md')
    repo.git('commit', '-qm', 'old rules')
    fs.rmSync(path.join(repo.dir, 'old/AGENTS.md'))
    const r = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(r.failed).toEqual([])
    expect(r.cards.map(c => [c.id, c.source])).toEqual([
      ['agents-commits-write', 'AGENTS.md'],
      ['claude-releases-tag-main', '.claude/CLAUDE.md'],
      ['workflows-claude-pin', '.github/workflows/CLAUDE.md'],
      ['api-claude-handlers-validate', 'packages/api/CLAUDE.md'],
      ['tests-agents-fixtures', 'tests/AGENTS.md'],
    ])
    const paths = (id: string) => /^ {2}paths: .*$/m.exec(repo.read(`.cairn/pending/guideline/${id}.md`))?.[0]
    expect(paths('agents-commits-write')).toBe('  paths: []')
    expect(paths('api-claude-handlers-validate')).toBe('  paths: [packages/api/**]')
    expect(paths('tests-agents-fixtures')).toBe('  paths: [tests/**]')
    expect(paths('claude-releases-tag-main')).toBe('  paths: []')
    expect(paths('workflows-claude-pin')).toBe('  paths: [.github/workflows/**]')
    // Review says where a folder's scope came from: the rule file's folder, not a session's edits.
    expect((await review(repo.ctx())).text).toContain(
      "Scope reasoning: narrow — gated by 1 path pattern, from the imported rule file's own scope (its globs, or its folder); it only appears when work touches them.",
    )
    // A second run finds the same files and adds nothing.
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => c.outcome)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped'])
  })

  it('a card a reviewer rejected is not proposed again; the report says so', async () => {
    const repo = await initRepo()
    repo.write(
      'AGENTS.md',
      '## Commits\n\nWrite Conventional Commits messages.\n\n## Fixtures\n\nKeep fixtures small.\n',
    )
    const first = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(first.cards.map(c => c.id)).toEqual(['agents-commits-write', 'agents-fixtures-keep'])
    await reject(repo.ctx(), {id: 'agents-fixtures-keep', reason: 'not a rule we keep'})
    const head = repo.git('rev-parse', 'HEAD').trim()
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([
      ['agents-commits-write', 'skipped'],
      ['agents-fixtures-keep', 'rejected'],
    ])
    expect(again.commit).toBeNull()
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head)
    const text = await cli(['import', 'claude-md'], {cwd: repo.dir, env: repo.env})
    expect(text.code).toBe(0)
    expect(text.stdout.trim().split('\n').pop()).toBe(
      'nothing added: 1 imported before, 1 rejected in review before (not proposed again; "cairn propose" takes one after all)',
    )
  })

  it('a reject names the source in its message, so a squash merge of the review branch still keeps it rejected', async () => {
    const repo = await initRepo()
    repo.write('team rules/AGENTS.md', '## Fixtures\n\nKeep fixtures small.\n')
    const first = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(first.cards.map(c => c.id)).toEqual(['team-rules-fixtures-keep'])
    repo.git('checkout', '-q', '-b', 'review')
    await reject(repo.ctx(), {id: 'team-rules-fixtures-keep', reason: 'not ours'})
    expect(repo.git('log', '-1', '--format=%(trailers:key=Cairn-Source,valueonly)').trim()).toBe(
      'import:team rules/AGENTS.md#fixtures',
    )
    repo.git('checkout', '-q', '-')
    repo.git('merge', '--squash', '-q', 'review')
    // git's own squash message indents each squashed commit's message.
    repo.git('commit', '-q', '--no-edit')
    expect(repo.git('log', '-1', '--format=%B')).toContain('    Cairn-Source: import:team rules/AGENTS.md#fixtures')
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([['team-rules-fixtures-keep', 'rejected']])
  })

  it('a reject made before the Cairn-Source trailer is read from the card it deleted, quoted keys too', async () => {
    const repo = await initRepo()
    repo.write('team rules/AGENTS.md', '## Fixtures, small\n\nKeep fixtures small.\n')
    await importRules(repo.ctx(), {kind: 'claude-md'})
    const [file] = repo.git('ls-files', '.cairn/pending').trim().split('\n')
    expect(repo.read(file)).toContain('source_sessions: [import:team rules/AGENTS.md#fixtures-small]')
    repo.git('rm', '-q', file)
    repo.git(
      'commit',
      '-q',
      '-m',
      'cairn(reject): x\n\nReason: no\n\nCairn-Op: reject\nCairn-Actor: t\nCairn-Format: 1',
    )
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => c.outcome)).toEqual(['rejected'])
  })

  it('a Chinese heading anchors its card by a hash of its text, so a section added above it finds the same card', async () => {
    const repo = await initRepo()
    repo.write('AGENTS.md', '## 提交规范\n\n- 提交信息必须使用英文。\n\n## 测试\n\n- 测试代码要写在tests目录下。\n')
    const first = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(first.cards.map(c => c.id)).toEqual(['agents-tijiao-guifan', 'agents-ceshi-daima-yaoxie'])
    expect(repo.read('.cairn/pending/guideline/agents-tijiao-guifan.md')).toContain(
      'source_sessions: [import:AGENTS.md#h58db96]',
    )
    await reject(repo.ctx(), {id: 'agents-ceshi-daima-yaoxie', reason: 'not ours'})
    repo.write('AGENTS.md', `## 注释\n\n- 所有的注释都要使用中文。\n\n${repo.read('AGENTS.md')}`)
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([
      ['agents-zhushi-suoyou', 'created'],
      ['agents-tijiao-guifan', 'skipped'],
      ['agents-ceshi-daima-yaoxie', 'rejected'],
    ])
  })

  it('a card an older cairn anchored by position (section-N) is still found', async () => {
    const repo = await initRepo()
    repo.write('AGENTS.md', '## 提交规范\n\n- 提交信息必须使用英文。\n')
    await importRules(repo.ctx(), {kind: 'claude-md'})
    const file = '.cairn/pending/guideline/agents-tijiao-guifan.md'
    repo.write(file, repo.read(file).replace('#h58db96]', '#section-1]'))
    repo.git('commit', '-qam', 'an older import')
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([['agents-tijiao-guifan', 'skipped']])
  })

  it('a card the reviewer edited and approved is not called changed at its source; a source edit still is', async () => {
    const repo = await initRepo()
    repo.write('AGENTS.md', '## Fixtures\n\nKeep fixtures small.\n')
    await importRules(repo.ctx(), {kind: 'claude-md'})
    const file = '.cairn/pending/guideline/agents-fixtures-keep.md'
    repo.write(file, repo.read(file).replace('```text\nKeep fixtures small.\n```', 'Keep fixtures under 1 MB.'))
    repo.git('commit', '-qam', 'reviewer edit')
    await approve(repo.ctx(), {ids: ['agents-fixtures-keep']})
    expect(repo.read('.cairn/cards/guideline/agents-fixtures-keep.md')).toContain('Keep fixtures under 1 MB.')
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([['agents-fixtures-keep', 'skipped']])
    repo.write('AGENTS.md', '## Fixtures\n\nKeep fixtures tiny.\n')
    const changed = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(changed.cards.map(c => [c.id, c.outcome])).toEqual([['agents-fixtures-keep', 'source-changed']])
  })

  it("an older anchor is not taken from a section the file still has: 'API 设计' added above '## API'", async () => {
    const repo = await initRepo()
    repo.write('AGENTS.md', '## API\n\nEvery endpoint is REST.\n\n## Logging\n\nLog as JSON.\n')
    await importRules(repo.ctx(), {kind: 'claude-md'})
    await reject(repo.ctx(), {id: 'agents-api-endpoint-rest', reason: 'not ours'})
    repo.write('AGENTS.md', `## API 设计\n\n接口一律使用 REST。\n\n${repo.read('AGENTS.md')}`)
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([
      ['agents-api-sheji-jiekou', 'created'],
      ['agents-api-endpoint-rest', 'rejected'],
      ['agents-logging-log-json', 'skipped'],
    ])
  })

  it('a branch that imports and rejects, squash-merged, keeps the reject (the squash deletes nothing)', async () => {
    const repo = await initRepo()
    repo.write('AGENTS.md', '## Fixtures\n\nKeep fixtures small.\n')
    repo.git('checkout', '-q', '-b', 'rules')
    await importRules(repo.ctx(), {kind: 'claude-md'})
    await reject(repo.ctx(), {id: 'agents-fixtures-keep', reason: 'not ours'})
    repo.git('checkout', '-q', '-')
    repo.git('merge', '--squash', '-q', 'rules')
    repo.git('commit', '-q', '--allow-empty', '--no-edit')
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([['agents-fixtures-keep', 'rejected']])
  })

  it("reads history whatever the user's diff config: diff.noprefix, an old reject of a card today's schema refuses", async () => {
    const repo = await initRepo()
    repo.git('config', 'diff.noprefix', 'true')
    repo.write('AGENTS.md', '## Fixtures\n\nKeep fixtures small.\n\n## Commits\n\nWrite Conventional Commits.\n')
    await importRules(repo.ctx(), {kind: 'claude-md'})
    const fixtures = '.cairn/pending/guideline/agents-fixtures-keep.md'
    const commits = '.cairn/pending/guideline/agents-commits-write.md'
    // A reviewer edit of one card, and an older cairn's reject (no Cairn-Source) of the other, whose load is no
    // longer a valid value.
    repo.write(fixtures, repo.read(fixtures).replace('```text\nKeep fixtures small.\n```', 'Keep fixtures under 1 MB.'))
    repo.write(commits, repo.read(commits).replace('load: recall', 'load: sometimes'))
    repo.git('commit', '-qam', 'edits')
    repo.git('rm', '-q', commits)
    repo.git('commit', '-q', '-m', 'cairn(reject): x\n\nCairn-Op: reject\nCairn-Actor: t\nCairn-Format: 1')
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([
      ['agents-fixtures-keep', 'skipped'],
      ['agents-commits-write', 'rejected'],
    ])
  })

  it('a card is compared with its own proposal, not an earlier card a reject freed its id from', async () => {
    const repo = await initRepo()
    repo.write('AGENTS.md', '## Fixtures\n\nKeep fixtures small.\n')
    await importRules(repo.ctx(), {kind: 'claude-md'})
    await reject(repo.ctx(), {id: 'agents-fixtures-keep', reason: 'not ours'})
    // Another heading, another piece: the freed id is proposed again, for another rule, and a reviewer edits it.
    repo.write('AGENTS.md', '## Fixtures keep\n\nName fixtures after the case.\n')
    const other = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(other.cards.map(c => [c.id, c.outcome])).toEqual([['agents-fixtures-keep', 'created']])
    const file = '.cairn/pending/guideline/agents-fixtures-keep.md'
    repo.write(file, repo.read(file).replace('```text\nName fixtures after the case.\n```', 'Name fixtures after it.'))
    repo.git('commit', '-qam', 'reviewer edit')
    const again = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(again.cards.map(c => [c.id, c.outcome])).toEqual([['agents-fixtures-keep', 'skipped']])
  })

  it('a heading the file repeats takes its parent heading, so two 命名规范 sections are told apart', async () => {
    const repo = await initRepo()
    repo.write(
      'AGENTS.md',
      '## Java 后端\n\n### 命名规范\n\n类名使用大驼峰。\n\n## Python 分析\n\n### 命名规范\n\n函数名使用蛇形命名。\n',
    )
    const r = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(r.cards.map(c => c.title)).toEqual(['Java 后端 / 命名规范', 'Python 分析 / 命名规范'])
    // Their slugs take the parent's words after their own, not a hash.
    expect(r.cards.map(c => c.id)).toEqual(['agents-mingming-guifan-java-hou', 'agents-mingming-guifan-python-fenxi'])
  })
})
