import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {importRules, type ImportResult} from '../src/app/import.js'
import {lint} from '../src/app/lint.js'
import {findSources} from '../src/store/files/source-files.js'
import {sourceReader} from '../src/store/files/source-read.js'
import {cli, initRepo, refusal, type Repo, tempDir} from './helpers.js'

/** Issue 27, items 4 and 5: importers read only regular files really inside the repository, and every walk ends. */

const OUT_FIX = 'copy what should be imported into the repository, or remove the link'
const outsideLink = (file: string, how: string, real: string) => {
  const message = `${how} ${real}, outside the repository; cairn never follows a link out of it`
  return {file, issues: [{file, field: '(path)', message, fix: OUT_FIX}]}
}
const refused = (file: string, field: string, message: string, fix: string) => ({
  file,
  issues: [{file, field, message, fix}],
})

const link = (repo: Repo, rel: string, target: string) => {
  fs.mkdirSync(path.dirname(path.join(repo.dir, rel)), {recursive: true})
  fs.symlinkSync(target, path.join(repo.dir, rel))
}

/** Every byte the import could have written: what the commit holds, the store's files, the work-tree status. */
function written(repo: Repo): string {
  const walk = (d: string): string[] =>
    fs.readdirSync(d, {withFileTypes: true}).flatMap(e => {
      const p = path.join(d, e.name)
      return e.isDirectory() ? walk(p) : [fs.readFileSync(p, 'utf8')]
    })
  return [repo.git('log', '-p', '--all'), ...walk(path.join(repo.dir, '.cairn'))].join('\n')
}

const ADR = `# 1. Use Postgres for storage

## Status

Accepted

## Decision

We use Postgres for every service's storage.
`

const rows = (r: ImportResult) => r.cards.map(c => [c.id, c.outcome, `${c.source}:${c.line}`])

describe('import: links that lead out of the repository (issue 27 item 4)', () => {
  it('CLAUDE.md linked to a file outside (ln -s ../secret/notes.md CLAUDE.md) is refused; the text is never read, the rest imported', async () => {
    const repo = await initRepo()
    const secret = path.join(path.dirname(repo.dir), 'secret', 'notes.md')
    fs.mkdirSync(path.dirname(secret))
    fs.writeFileSync(secret, '## Bank\n\n- my bank PIN is 4321, always use it\n')
    link(repo, 'CLAUDE.md', '../secret/notes.md')
    repo.write('AGENTS.md', '## Code style\n\nAlways use two-space indentation.\n')

    const r = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(r.failed).toEqual([outsideLink('CLAUDE.md', 'leads through a link to', secret)])
    expect(rows(r)).toEqual([['agents-code-style-two', 'created', 'AGENTS.md:1']])
    expect(written(repo)).not.toContain('4321')
  })

  it('a linked folder, a file link and a link to /dev/zero under .cursor/rules/ are refused, each by name; the real rule is imported', async () => {
    const repo = await initRepo()
    const outside = tempDir()
    fs.writeFileSync(
      path.join(outside, 'pin.mdc'),
      '---\nalwaysApply: true\n---\nMy bank PIN is 4321; always use it.\n',
    )
    repo.write('.cursor/rules/team-testing.mdc', '---\nalwaysApply: true\n---\nAlways run the tests before a push.\n')
    link(repo, '.cursor/rules/shared', outside)
    link(repo, '.cursor/rules/pin.mdc', path.join(outside, 'pin.mdc'))
    link(repo, '.cursor/rules/zero.mdc', '/dev/zero')

    const r = await importRules(repo.ctx(), {kind: 'cursor-rules'})
    expect(r.failed).toEqual([
      outsideLink('.cursor/rules/pin.mdc', 'is a link to', path.join(outside, 'pin.mdc')),
      outsideLink('.cursor/rules/shared', 'is a link to', outside),
      outsideLink('.cursor/rules/zero.mdc', 'is a link to', '/dev/zero'),
    ])
    expect(rows(r)).toEqual([['team-testing-run-tests', 'created', '.cursor/rules/team-testing.mdc:4']])
    expect(written(repo)).not.toContain('4321')
  })

  it('a linked parent folder, named or a default, is refused at any depth', async () => {
    const repo = await initRepo()
    const outside = tempDir()
    fs.mkdirSync(path.join(outside, 'adr'))
    fs.writeFileSync(path.join(outside, 'AGENTS.md'), '## Bank\n\n- my bank PIN is 4321, always use it\n')
    fs.writeFileSync(path.join(outside, 'adr', '0001-use-postgres.md'), ADR)
    fs.mkdirSync(path.join(outside, 'steering'))
    fs.writeFileSync(path.join(outside, 'steering', 'pin.md'), 'My bank PIN is 4321.\n')
    link(repo, 'docs', outside)
    link(repo, '.kiro', outside)

    const named = await importRules(repo.ctx(), {kind: 'claude-md', path: 'docs/AGENTS.md'})
    expect(named.failed).toEqual([
      outsideLink('docs/AGENTS.md', 'leads through a link to', path.join(outside, 'AGENTS.md')),
    ])
    const adr = await importRules(repo.ctx(), {kind: 'adr'})
    expect(adr.failed).toEqual([outsideLink('docs/adr', 'leads through a link to', path.join(outside, 'adr'))])
    // The link is .kiro itself, a folder above what the kind reads (.kiro/steering).
    const kiro = await importRules(repo.ctx(), {kind: 'kiro'})
    expect(kiro.failed).toEqual([
      outsideLink('.kiro/steering', 'leads through a link to', path.join(outside, 'steering')),
    ])
    for (const r of [named, adr, kiro]) expect(r.cards).toEqual([])
    expect(written(repo)).not.toContain('4321')
  })

  it('a link whose name is no source of the kind is passed over, wherever it leads, as that file would be', async () => {
    const repo = await initRepo()
    repo.write(
      '.github/instructions/python-style.instructions.md',
      '---\napplyTo: "**/*.py"\n---\nAlways format with black.\n',
    )
    link(repo, '.github/instructions/notes.md', '/etc/hostname')
    link(repo, '.github/instructions/logo.png', '/etc/hostname')
    const r = await importRules(repo.ctx(), {kind: 'copilot', path: '.github/instructions', dryRun: true})
    expect(r.failed).toEqual([])
    expect(r.cards.map(c => c.source)).toEqual(['.github/instructions/python-style.instructions.md'])
  })

  it('a link into .git/ or to a dot file (.env) stays unread, though inside the repository', async () => {
    const repo = await initRepo()
    repo.write('.env', 'BANK_PIN=4321\n')
    link(repo, 'CLAUDE.md', '.git/config')
    link(repo, 'AGENTS.md', '.env')
    link(repo, '.cursor/rules/env.mdc', '../../.env')
    const fix = 'remove the link, or name the file itself as PATH if it holds rules'
    const why = "cairn never reads git's folder, its own store or a dot file through a link"
    const claude = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(claude.failed).toEqual([
      refused('CLAUDE.md', '(path)', `leads through a link to .git/config; ${why}`, fix),
      refused('AGENTS.md', '(path)', `leads through a link to .env; ${why}`, fix),
    ])
    const cursor = await importRules(repo.ctx(), {kind: 'cursor-rules'})
    expect(cursor.failed).toEqual([refused('.cursor/rules/env.mdc', '(path)', `is a link to .env; ${why}`, fix)])
    expect(written(repo)).not.toContain('4321')
  })
})

describe('import ome: a folder named outside the repository', () => {
  it('is read, but a link in it that leads out of both the folder and the repository is refused', async () => {
    const repo = await initRepo()
    const library = tempDir()
    const secret = path.join(tempDir(), 'secret.json')
    const card = (id: string, title: string) =>
      JSON.stringify({id, title, summary: `${title}: one complete sentence saying when it applies.`})
    fs.writeFileSync(
      path.join(library, 'good.json'),
      card('git-force-push-shared-branch', 'Never force-push a shared branch'),
    )
    fs.writeFileSync(secret, card('bank-pin-always-use-it', 'My bank PIN is 4321'))
    fs.symlinkSync(secret, path.join(library, 'evil.json'))

    const r = await importRules(repo.ctx(), {kind: 'ome', path: library, dryRun: true})
    const evil = path.relative(repo.dir, path.join(library, 'evil.json'))
    expect(r.failed).toEqual([outsideLink(evil, 'is a link to', secret)])
    expect(r.cards.map(c => c.id)).toEqual(['git-force-push-shared-branch'])
  })
})

describe('import: links that stay inside the repository', () => {
  it('CLAUDE.md linked to AGENTS.md is read once, as AGENTS.md; a file link inside is followed, a folder link is not', async () => {
    const repo = await initRepo()
    repo.write('AGENTS.md', '## Code style\n\nAlways use two-space indentation.\n')
    link(repo, 'CLAUDE.md', 'AGENTS.md')
    repo.write('docs/rules/shared-testing.mdc', '---\nalwaysApply: true\n---\nAlways run the tests before a push.\n')
    repo.write('docs/rules/other-logging.mdc', '---\nalwaysApply: true\n---\nNever log a token.\n')
    link(repo, '.cursor/rules/shared-testing.mdc', '../../docs/rules/shared-testing.mdc')
    link(repo, '.cursor/rules/more', '../../docs/rules')

    const claude = await importRules(repo.ctx(), {kind: 'claude-md'})
    expect(claude.failed).toEqual([])
    expect(claude.warnings).toEqual(['CLAUDE.md: the same file as AGENTS.md, read once as AGENTS.md'])
    expect(rows(claude)).toEqual([['agents-code-style-two', 'created', 'AGENTS.md:1']])

    const cursor = await importRules(repo.ctx(), {kind: 'cursor-rules'})
    expect(cursor.failed).toEqual([])
    expect(cursor.warnings).toEqual([
      '.cursor/rules/more: a link to the folder docs/rules, not followed (a folder link can loop). Fix: name that folder as PATH to import it.',
    ])
    expect(rows(cursor)).toEqual([['shared-testing-run-tests', 'created', '.cursor/rules/shared-testing.mdc:4']])
  })
})

describe('import: walks that loop, leave, or never end (issue 27 item 5)', () => {
  /** docs/adr with one ADR, a loop (ln -s .. docs/adr/a), a link to / and a link to itself. */
  async function loopRepo(): Promise<Repo> {
    const repo = await initRepo()
    repo.write('docs/adr/0001-use-postgres.md', ADR)
    link(repo, 'docs/adr/a', '..')
    link(repo, 'docs/adr/root', '/')
    link(repo, 'docs/adr/0002-self.md', '0002-self.md')
    return repo
  }

  it('a link loop and a link to / are never walked: the ADR is imported, each link named', async () => {
    const repo = await loopRepo()
    const r = await importRules(repo.ctx(), {kind: 'adr'})
    expect(r.failed).toEqual([
      refused(
        'docs/adr/0002-self.md',
        '(path)',
        'is a link that cannot be followed (ELOOP)',
        'remove the link, or point it at a file in the repository',
      ),
      outsideLink('docs/adr/root', 'is a link to', '/'),
    ])
    expect(r.warnings).toEqual([
      'docs/adr/a: a link to the folder docs, not followed (a folder link can loop). Fix: name that folder as PATH to import it.',
    ])
    expect(rows(r)).toEqual([['0001-use-postgres-storage', 'created', 'docs/adr/0001-use-postgres.md:1']])
  })

  it('the CLI reports them with exit 6 and no stack trace', async () => {
    const repo = await loopRepo()
    const r = await cli(['import', 'adr', '--dry-run'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(6)
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      'warning: docs/adr/a: a link to the folder docs, not followed (a folder link can loop). Fix: name that folder as PATH to import it.',
      'warning: docs/adr/0002-self.md: (path): is a link that cannot be followed (ELOOP). Fix: remove the link, or point it at a file in the repository.',
      `warning: docs/adr/root: (path): is a link to /, outside the repository; cairn never follows a link out of it. Fix: ${OUT_FIX}.`,
      'cairn: Not imported, in part or whole: docs/adr/0002-self.md, docs/adr/root. Fix: mend each file as its warning says, then import again.',
    ])
    expect(r.stdout).toContain('0001-use-postgres-storage  decision  would-create  docs/adr/0001-use-postgres.md:1')
  })

  it('reads 32 folders down and no further, refuses a FIFO and a file over 16 MB, and imports the rest', async () => {
    const repo = await initRepo()
    const deep = Array.from({length: 32}, () => 'd').join('/')
    repo.write(`.kiro/steering/${deep}/deep-steering.md`, 'Always keep the deep rule.\n')
    repo.write(`.kiro/steering/${deep}/d/deeper-steering.md`, 'Never read this far.\n')
    repo.write('.kiro/steering/tech-stack.md', 'Always use TypeScript.\n')
    execFileSync('mkfifo', [path.join(repo.dir, '.kiro/steering/fifo.md')])
    fs.truncateSync(repo.write('.kiro/steering/huge.md', ''), (16 << 20) + 1)

    const r = await importRules(repo.ctx(), {kind: 'kiro'})
    const notRegular = 'replace it with a text file, or move it out of the folder imported'
    expect(r.failed).toEqual([
      refused(
        `.kiro/steering/${deep}/d`,
        '(path)',
        'is more than 32 folders deep; not read',
        'name it, or a folder nearer to it, as PATH',
      ),
      refused('.kiro/steering/fifo.md', '(file)', 'is not a regular file', notRegular),
      refused(
        '.kiro/steering/huge.md',
        '(file)',
        'is 16777217 bytes, over the 16777216-byte limit for one source file',
        'split it into smaller files',
      ),
    ])
    expect(r.cards.map(c => c.source)).toEqual([
      `.kiro/steering/${deep}/deep-steering.md`,
      '.kiro/steering/tech-stack.md',
    ])
  })

  it('a folder whose path is too long to read (ENAMETOOLONG) is reported, and the rest imported', async () => {
    const repo = await initRepo()
    repo.write('docs/adr/0001-use-postgres.md', ADR)
    const name = 'd'.repeat(250)
    // Created one folder at a time from inside the last: no single path could name the deepest.
    const script = `cd docs/adr && for i in $(seq 1 17); do mkdir ${name} && cd -P ${name} || exit 1; done`
    execFileSync('bash', ['-c', script], {cwd: repo.dir})
    try {
      const r = await importRules(repo.ctx(), {kind: 'adr', dryRun: true})
      // The first folder whose absolute path, with its closing NUL, is over PATH_MAX (4096 bytes on Linux).
      let at = 'docs/adr'
      while (path.join(repo.dir, at).length + 1 <= 4096) at += `/${name}`
      const fix = 'make the folder readable, or name the files to import as PATH'
      expect(r.failed).toEqual([refused(at, '(path)', 'cannot be read (ENAMETOOLONG)', fix)])
      expect(rows(r)).toEqual([['0001-use-postgres-storage', 'would-create', 'docs/adr/0001-use-postgres.md:1']])
    } finally {
      // Node's own removal names each path whole, which fails here.
      execFileSync('rm', ['-rf', path.join(repo.dir, 'docs/adr', name)])
    }
  })

  it('a walk stops at its entries cap, and an import stops reading once it has read its byte limit', async () => {
    const dir = tempDir()
    for (const f of ['a.md', 'b.md', 'sub/c.md']) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), {recursive: true})
      fs.writeFileSync(path.join(dir, f), `${f[0]}23456\n`)
    }
    const limits = {entries: 3, depth: 32, fileBytes: 8, batchBytes: 10}
    const found = findSources({cwd: dir, root: dir, targets: ['.'], extensions: ['.md'], accepts: () => true, limits})
    const fix = 'name a smaller folder as PATH'
    expect(found.refused).toEqual([
      {file: '.', field: '(path)', message: 'holds more than 3 entries; the walk stopped at sub', fix},
    ])
    expect(found.files.map(f => path.relative(dir, f.path))).toEqual(['a.md', 'b.md'])

    const reader = sourceReader(limits)
    expect(found.files.map(f => reader.read(f, path.basename(f.path)))).toEqual(['a23456\n', 'b23456\n'])
    const spent = await refusal(() => reader.read(found.files[0], 'a.md'))
    expect(spent.data).toEqual({
      issues: [
        {
          file: 'a.md',
          field: '(file)',
          message: 'not read: the import already read 14 bytes (the limit is 10)',
          fix: 'import the rest in another run, naming a smaller folder as PATH',
        },
      ],
    })
  })

  it('lint over a folder with a link loop checks the cards in it and never enters the loop', async () => {
    const repo = await initRepo()
    repo.write('drafts/not-a-card.md', '# not a card\n')
    link(repo, 'drafts/loop', '..')
    const r = await lint(repo.ctx(), {paths: ['drafts']})
    expect(r.checked).toBe(1)
    expect(r.problems.map(p => p.file)).toEqual(['drafts/not-a-card.md'])
  })
})
