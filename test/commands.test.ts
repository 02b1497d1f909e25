import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {doctor} from '../src/app/doctor.js'
import {init} from '../src/app/init.js'
import {lint} from '../src/app/lint.js'
import {list} from '../src/app/list.js'
import {log} from '../src/app/log.js'
import {propose} from '../src/app/propose.js'
import {show} from '../src/app/show.js'
import {renderList} from '../src/cli/render.js'
import {cliInProcess} from './cli-in-process.js'
import {card, cli, initRepo, refusal, templateRepo} from './helpers.js'

const seeded = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx(), {
    file: repo.write(
      'cards.json',
      JSON.stringify([
        card({
          rule: 'Append and dedupe arrays when merging hook settings.',
          criteria: {use_when: ['merging hook config']},
        }),
        card({
          slug: 'stage-only-touched-paths',
          type: 'guideline',
          title: 'Commit only touched paths',
          summary: 'Commit with git commit -- paths.',
          category: 'git',
          load: 'core',
          links: ['deepmerge-array-replace-trap'],
        }),
      ]),
    ),
  })
})

describe('show', () => {
  it('prints the whole card file, or one section; the rule comes out of its fence', async () => {
    const repo = await seeded()
    const whole = await show(repo.ctx(), {id: 'deepmerge-array-replace-trap'})
    expect(whole.text).toBe(repo.read('.cairn/pending/pitfall/deepmerge-array-replace-trap.md'))
    expect((await show(repo.ctx(), {id: 'deepmerge-array-replace-trap', section: 'rule'})).text).toBe(
      'Append and dedupe arrays when merging hook settings.',
    )
    expect((await show(repo.ctx(), {id: 'deepmerge-array-replace-trap', section: 'criteria'})).text).toBe(
      'Use when:\n- merging hook config\n\nRecall policy: may.\nRisk: medium.',
    )
    const e = await refusal(() => show(repo.ctx(), {id: 'no-such-card-anywhere-here'}))
    expect(e.exitCode).toBe(4)
    expect(e.message).toBe('No card with id "no-such-card-anywhere-here". Fix: give an id as "cairn list" shows it.')
    // A typo in an id names the closest ids, on every command that looks a card up.
    const typo = await refusal(() => show(repo.ctx(), {id: 'deepmerge-array-replace-trp'}))
    expect([typo.exitCode, typo.message, typo.data]).toEqual([
      4,
      'No card with id "deepmerge-array-replace-trp". Did you mean "deepmerge-array-replace-trap"? Fix: give an id as "cairn list" shows it.',
      {id: 'deepmerge-array-replace-trp', suggestions: ['deepmerge-array-replace-trap']},
    ])
    const approve = await cliInProcess(['review', 'approve', 'deepmerge-array-replace-trp'], {
      cwd: repo.dir,
      env: repo.env,
    })
    expect([approve.code, approve.stderr]).toEqual([
      4,
      expect.stringContaining('Did you mean "deepmerge-array-replace-trap"?'),
    ])
    // The section flag only takes known section names: oclif refuses anything else as a usage error.
    const bad = await cliInProcess(['show', 'deepmerge-array-replace-trap', '--section', 'bogus'], {
      cwd: repo.dir,
      env: repo.env,
    })
    expect(bad.code).toBe(2)
  })
})

describe('list', () => {
  it('filters by status, type, load, category and store', async () => {
    const repo = await seeded()
    expect((await list(repo.ctx())).cards.map(c => c.id)).toEqual([
      'stage-only-touched-paths',
      'deepmerge-array-replace-trap',
    ])
    expect((await list(repo.ctx(), {type: 'pitfall'})).cards.map(c => c.id)).toEqual(['deepmerge-array-replace-trap'])
    expect((await list(repo.ctx(), {load: 'core'})).cards.map(c => c.id)).toEqual(['stage-only-touched-paths'])
    expect((await list(repo.ctx(), {status: 'active'})).cards).toEqual([])
    expect((await list(repo.ctx(), {category: 'git'})).cards.map(c => c.id)).toEqual(['stage-only-touched-paths'])
    expect((await list(repo.ctx(), {category: 'general'})).cards.map(c => c.id)).toEqual([
      'deepmerge-array-replace-trap',
    ])
    expect((await list(repo.ctx(), {category: 'ci'})).cards).toEqual([])
    expect(renderList(await list(repo.ctx(), {type: 'pitfall', store: 'all'}))).toBe(
      'ID                            TYPE     STATUS   LOAD    STORE    TITLE\ndeepmerge-array-replace-trap  pitfall  pending  recall  project  deepMerge replaces arrays',
    )
  })
})

describe('lint', () => {
  it('passes a clean store', async () => {
    const repo = await seeded()
    expect(await lint(repo.ctx())).toEqual({language: 'en', checked: 2, errors: 0, warnings: 0, problems: []})
  })

  it('catches the same id added on two branches, broken links and misplaced files', async () => {
    const repo = await seeded()
    repo.git('checkout', '-q', '-b', 'a')
    await propose(repo.ctx(), {fields: {...card({slug: 'parallel-branch-same-slug', type: 'decision'})}})
    repo.git('checkout', '-q', 'main')
    repo.git('checkout', '-q', '-b', 'b')
    await propose(repo.ctx(), {
      fields: {...card({slug: 'parallel-branch-same-slug', type: 'model', source_sessions: ['other']})},
    })
    repo.git('merge', '-q', '--no-edit', 'a')
    const file = '.cairn/pending/guideline/stage-only-touched-paths.md'
    repo.write(
      file,
      repo.read(file).replace('links: [deepmerge-array-replace-trap]', 'links: [missing-target-card-id]'),
    )
    const r = await lint(repo.ctx())
    expect(r.errors).toBe(3)
    expect(r.problems.map(p => [p.file, p.field, p.rule, p.severity])).toEqual([
      ['.cairn/pending/decision/parallel-branch-same-slug.md', 'id', 'unique-id', 'error'],
      ['.cairn/pending/guideline/stage-only-touched-paths.md', 'links', 'broken-link', 'error'],
      ['.cairn/pending/model/parallel-branch-same-slug.md', 'id', 'unique-id', 'error'],
    ])
    // The fix names a free slug: the id with a word of the title it does not say (issue 34).
    expect(r.problems[0].fix).toBe(
      'rename this one to "parallel-branch-same-slug-deep", or the other to a slug of its own',
    )
    const c = await cli(['lint', '--json'], {cwd: repo.dir, env: repo.env})
    expect(c.code).toBe(6)
    expect(c.json().error.data.errors).toBe(3)
    const only = await lint(repo.ctx(), {paths: [path.join(repo.dir, file)]})
    expect(only.problems.map(p => p.rule)).toEqual(['broken-link'])
  })

  it('reports an unparseable card with file and field', async () => {
    const repo = await seeded()
    const file = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
    repo.write(file, repo.read(file).replace('load: recall', 'load: sometimes'))
    const r = await lint(repo.ctx())
    expect(r.problems).toEqual([
      {
        file,
        field: 'load',
        rule: 'schema',
        severity: 'error',
        message: '"sometimes" is not one of core, recall',
        fix: 'set load to core or recall',
      },
    ])
  })
})

describe('log', () => {
  it("reads a card's history back from the commit trailers", async () => {
    const repo = await seeded()
    await propose(repo.ctx(), {fields: card({source_sessions: ['session-1', 'session-2']})})
    const entries = (await log(repo.ctx(), {id: 'deepmerge-array-replace-trap'})).entries
    expect(entries.map(e => [e.op, e.actor, e.cards, e.subject])).toEqual([
      ['propose', 'tester', ['deepmerge-array-replace-trap'], 'cairn(propose): deepmerge-array-replace-trap'],
      ['propose', 'tester', ['deepmerge-array-replace-trap', 'stage-only-touched-paths'], 'cairn(propose): 2 cards'],
    ])
    expect(entries[0].at).toBe('2026-11-29T10:00:00Z')
    expect((await log(repo.ctx())).entries.map(e => e.op)).toEqual(['propose', 'propose', 'init'])
  })

  it('an id with no history and no card is a typo: exit 4 with the closest ids, not an empty log', async () => {
    const repo = await seeded()
    const typo = await refusal(() => log(repo.ctx(), {id: 'deepmerge-array-replace-trp'}))
    expect([typo.exitCode, typo.message]).toEqual([
      4,
      'No card with id "deepmerge-array-replace-trp". Did you mean "deepmerge-array-replace-trap"? Fix: give an id as "cairn list" shows it.',
    ])
  })
})

describe('doctor', () => {
  it('reports a healthy store, then the problems it finds', async () => {
    const repo = await seeded()
    const ok = await doctor(repo.ctx())
    expect(ok.healthy).toBe(true)
    expect(ok.checks.filter(c => c.status !== 'ok')).toEqual([])
    repo.write('.cairn/.gitignore', '.cache/\n')
    repo.write('.cairn/pending/pitfall/.deepmerge-array-replace-trap.md.cairn-tmp-1-abcd', 'x')
    fs.writeFileSync(
      path.join(repo.dir, '.git/cairn.lock'),
      JSON.stringify({pid: 2 ** 22 + 99, host: (await import('node:os')).hostname()}),
    )
    const bad = await doctor(repo.ctx())
    expect(bad.healthy).toBe(false)
    expect(bad.checks.filter(c => c.status !== 'ok').map(c => [c.store, c.check, c.status])).toEqual([
      ['project', 'gitignore', 'error'],
      ['project', 'lock', 'warning'],
      ['project', 'temp-files', 'warning'],
      ['project', 'uncommitted', 'warning'],
    ])
    const r = await cli(['doctor'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(6)
    expect(r.stdout).toContain('FAIL  project  gitignore     .cairn/.gitignore does not ignore .local')
  })
})

describe('no-commit and the personal store', () => {
  it('--no-commit and commit: false write files without committing', async () => {
    const repo = await initRepo()
    const head = repo.git('rev-parse', 'HEAD')
    const ctx = repo.ctx({stdin: JSON.stringify(card())})
    const r = await propose(ctx, {file: '-', noCommit: true})
    expect(r.commit).toBeNull()
    expect(repo.git('rev-parse', 'HEAD')).toBe(head)
    expect(fs.existsSync(path.join(repo.dir, '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'))).toBe(true)
    // Left unstaged, and said so: the user's next commit only takes them when asked to.
    expect(repo.git('status', '--porcelain')).toBe('?? .cairn/pending/\n')
    expect(ctx.warnings).toEqual([expect.stringContaining('written but not committed')])
    repo.git('add', '.cairn')
    repo.git('commit', '-qm', 'user commits it')
    repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('  enabled: true', '  enabled: false'))
    repo.git('commit', '-qam', 'no cairn commits')
    const head2 = repo.git('rev-parse', 'HEAD')
    const second = await propose(repo.ctx(), {fields: card({slug: 'second-card-without-commit'})})
    expect(second.commit).toBeNull()
    expect(repo.git('rev-parse', 'HEAD')).toBe(head2)
  })

  it('personal cards go to $CAIRN_HOME, created on first use, with broad global scope', async () => {
    const repo = await initRepo()
    const r = await propose(repo.ctx(), {fields: card({slug: 'indent-style-by-language', layer: 'personal'})})
    expect(r.cards[0]).toMatchObject({store: 'personal', path: 'pending/pitfall/indent-style-by-language.md'})
    const personal = path.join(repo.home, '.cairn')
    const text = fs.readFileSync(path.join(personal, r.cards[0].path), 'utf8')
    expect(text).toContain('scope:\n  level: global\n  project_key: null\n  module_path: null\n  paths: []\n')
    expect(repo.git('status', '--porcelain')).toBe('')
    expect((await list(repo.ctx(), {store: 'personal'})).cards.map(c => c.id)).toEqual(['indent-style-by-language'])
  })
})
