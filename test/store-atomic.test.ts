import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {archive} from '../src/app/archive.js'
import {init} from '../src/app/init.js'
import {list} from '../src/app/list.js'
import {modify} from '../src/app/modify.js'
import {propose} from '../src/app/propose.js'
import {approve, defer, reject} from '../src/app/review.js'
import {parseCard} from '../src/domain/card/format.js'
import {getRule, getSection} from '../src/domain/card/sections.js'
import {CairnError} from '../src/domain/errors.js'
import {card, git, snapshot, tempRepo} from './helpers.js'

const SLUGS = ['alpha', 'bravo', 'charlie', 'delta'].map(w => `atomic-writer-${w}-case`)

async function pendingRepo(slugs = SLUGS) {
  const repo = tempRepo()
  await init(repo.ctx())
  await propose(repo.ctx(), {file: repo.write('../cards.json', JSON.stringify(slugs.map(slug => card({slug}))))})
  return repo
}

const commitCount = (dir: string) => Number(git(dir, 'rev-list', '--count', 'HEAD').trim())

async function failure(p: Promise<unknown>): Promise<CairnError> {
  try {
    await p
  } catch (error) {
    if (error instanceof CairnError) return error
    throw error
  }
  throw new Error('expected a CairnError')
}

describe('one commit per command, per store', () => {
  it('review approve A B makes exactly one commit', async () => {
    const repo = await pendingRepo()
    const before = commitCount(repo.dir)
    const r = await approve(repo.ctx(), {ids: [SLUGS[0], SLUGS[1]]})
    expect(commitCount(repo.dir)).toBe(before + 1)
    expect(r.commits.project).toBe(repo.git('rev-parse', 'HEAD').trim())
    expect(repo.git('log', '-1', '--format=%B')).toContain(`Cairn-Card: ${SLUGS[0]}\nCairn-Card: ${SLUGS[1]}\n`)
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('archive A B makes exactly one commit, into one archive folder', async () => {
    const repo = await pendingRepo()
    await approve(repo.ctx(), {all: true})
    const before = commitCount(repo.dir)
    const r = await archive(repo.ctx(), {ids: [SLUGS[0], SLUGS[1]]})
    expect(commitCount(repo.dir)).toBe(before + 1)
    expect(r.archives).toEqual([{store: 'project', ts: '20261129T100000Z'}])
    expect(repo.git('show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(
      [0, 1].map(i => `.cairn/archive/20261129T100000Z/cards/pitfall/${SLUGS[i]}.md`).sort(),
    )
  })

  it('approve --all stays in the project store unless --store says otherwise', async () => {
    const repo = await pendingRepo([SLUGS[0]])
    await propose(repo.ctx(), {fields: {...card({slug: 'personal-habit-for-shells'}), layer: 'personal'}})
    const r = await approve(repo.ctx(), {all: true})
    expect(r.cards.map(c => c.id)).toEqual([SLUGS[0]])
    expect((await list(repo.ctx(), {store: 'personal'})).cards.map(c => [c.id, c.status])).toEqual([
      ['personal-habit-for-shells', 'pending'],
    ])
    const both = await approve(repo.ctx(), {all: true, store: 'personal'})
    expect(both.cards.map(c => [c.id, c.store])).toEqual([['personal-habit-for-shells', 'personal']])
  })
})

describe('both stores or neither', () => {
  const mixed = () =>
    JSON.stringify([
      card({slug: 'team-lesson-about-merges'}),
      {...card({slug: 'personal-habit-for-shells'}), layer: 'personal'},
    ])

  /** A mixed propose that must fail, leaving both stores exactly as they were. */
  async function refusedInBothStores(repo: ReturnType<typeof tempRepo>, home: string): Promise<CairnError> {
    const counts = [commitCount(repo.dir), commitCount(home)]
    const before = snapshot(repo)
    const error = await failure(propose(repo.ctx(), {file: repo.write('../mixed.json', mixed())}))
    expect([commitCount(repo.dir), commitCount(home)]).toEqual(counts)
    expect(snapshot(repo)).toEqual(before)
    expect(git(home, 'status', '--porcelain')).toBe('')
    return error
  }

  it('a mixed propose with the personal store mid-merge exits 5, and neither store gains a commit', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    await init(repo.ctx(), {personal: true})
    const home = path.join(repo.home, '.cairn')
    fs.writeFileSync(path.join(home, '.git', 'MERGE_HEAD'), `${git(home, 'rev-parse', 'HEAD').trim()}\n`)
    const error = await refusedInBothStores(repo, home)
    expect([error.code, error.exitCode]).toEqual(['conflict', 5])
    expect(error.message).toContain('in the middle of a merge')
  })

  it("a failing pre-commit hook in the second store undoes the first store's commit", async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    await init(repo.ctx(), {personal: true})
    const home = path.join(repo.home, '.cairn')
    git(home, 'config', 'user.name', 'Home User')
    git(home, 'config', 'user.email', 'home@example.com')
    fs.writeFileSync(
      path.join(home, 'config.yaml'),
      fs.readFileSync(path.join(home, 'config.yaml'), 'utf8').replace('  verify: false', '  verify: true'),
    )
    git(home, 'commit', '-qam', 'verify hooks')
    fs.writeFileSync(
      path.join(home, '.git/hooks/pre-commit'),
      '#!/bin/sh\necho "personal hook says no" >&2\nexit 1\n',
      {mode: 0o755},
    )
    const error = await refusedInBothStores(repo, home)
    expect([error.code, error.exitCode]).toEqual(['git', 7])
    expect(error.message).toContain('personal hook says no')
    expect(fs.existsSync(path.join(repo.dir, '.git/cairn-journal.json'))).toBe(false)
  })
})

describe('no lost updates', () => {
  it('three parallel edits of one card keep all three changes (10 trials)', {timeout: 240_000}, async () => {
    const repo = await pendingRepo([SLUGS[0]])
    const base = repo.git('rev-parse', 'HEAD').trim()
    for (let trial = 0; trial < 10; trial++) {
      repo.git('reset', '-q', '--hard', base)
      const id = SLUGS[0]
      const results = await Promise.allSettled([
        modify(repo.ctx(), {id, sets: ['load=core']}),
        modify(repo.ctx(), {id, sets: ['category=build']}),
        defer(repo.ctx(), {id, until: '2027-01-15'}),
      ])
      expect(results.map(r => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
      const c = parseCard(repo.read(`.cairn/pending/pitfall/${id}.md`), id)
      expect([c.load, c.category, c.deferred_until]).toEqual(['core', 'build', '2027-01-15T00:00:00Z'])
      expect(repo.git('status', '--porcelain')).toBe('')
    }
  })

  it(
    'reject A B racing approve B: all or none, never A removed and B approved (5 trials)',
    {timeout: 240_000},
    async () => {
      const repo = await pendingRepo([SLUGS[0], SLUGS[1]])
      const base = repo.git('rev-parse', 'HEAD').trim()
      const pending = (id: string) => fs.existsSync(path.join(repo.dir, `.cairn/pending/pitfall/${id}.md`))
      for (let trial = 0; trial < 5; trial++) {
        repo.git('reset', '-q', '--hard', base)
        repo.git('clean', '-qfd', '.cairn')
        const [rejected, approved] = await Promise.allSettled([
          reject(repo.ctx(), {ids: [SLUGS[0], SLUGS[1]], reason: 'duplicates'}),
          approve(repo.ctx(), {ids: [SLUGS[1]]}),
        ])
        if (rejected.status === 'fulfilled') {
          expect([pending(SLUGS[0]), pending(SLUGS[1])]).toEqual([false, false])
          expect([4, 5]).toContain(((approved as PromiseRejectedResult).reason as CairnError).exitCode)
        } else {
          expect([4, 5]).toContain((rejected.reason as CairnError).exitCode)
          expect(approved.status).toBe('fulfilled')
          expect([pending(SLUGS[0]), pending(SLUGS[1])]).toEqual([true, false])
        }
        expect(repo.git('status', '--porcelain')).toBe('')
      }
    },
  )

  it(
    'parallel edits of the text fields of one card keep every change, the body ones too (5 trials)',
    {timeout: 240_000},
    async () => {
      const repo = await pendingRepo([SLUGS[0]])
      const base = repo.git('rev-parse', 'HEAD').trim()
      const id = SLUGS[0]
      for (let trial = 0; trial < 5; trial++) {
        repo.git('reset', '-q', '--hard', base)
        const results = await Promise.allSettled([
          modify(repo.ctx(), {id, sets: ['title=Arrays vanish after deepMerge']}),
          modify(repo.ctx(), {id, sets: ['rule=Append hook arrays.\nThen dedupe them.']}),
          modify(repo.ctx(), {id, sets: ['policy=must', 'risk=high']}),
          modify(repo.ctx(), {id, sets: ['use_when=installing hooks,merging config']}),
        ])
        expect(results.map(r => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'])
        const c = parseCard(repo.read(`.cairn/pending/pitfall/${id}.md`), id)
        expect([c.title, c.recall.policy, c.recall.risk, c.criteria.use_when]).toEqual([
          'Arrays vanish after deepMerge',
          'must',
          'high',
          ['installing hooks', 'merging config'],
        ])
        expect(getRule(c.body)).toBe('Append hook arrays.\nThen dedupe them.')
        expect(getSection(c.body, 'criteria')).toBe(
          'Use when:\n- installing hooks\n- merging config\n\nRecall policy: must.\nRisk: high.',
        )
        expect(repo.git('status', '--porcelain')).toBe('')
      }
    },
  )

  it('four parallel archives take four folders', async () => {
    const repo = await pendingRepo()
    await approve(repo.ctx(), {all: true})
    const rs = await Promise.all(SLUGS.map(id => archive(repo.ctx(), {ids: [id]})))
    expect(new Set(rs.map(r => r.ts)).size).toBe(4)
    for (const r of rs)
      expect(fs.readdirSync(path.join(repo.dir, '.cairn/archive', r.ts!, 'cards/pitfall'))).toEqual([
        `${r.archived[0].id}.md`,
      ])
  })

  it(
    'approve racing archive of the same card: one wins, the other exits 4 or 5, never 6',
    {timeout: 240_000},
    async () => {
      const repo = await pendingRepo([SLUGS[0]])
      const base = repo.git('rev-parse', 'HEAD').trim()
      for (let trial = 0; trial < 5; trial++) {
        repo.git('reset', '-q', '--hard', base)
        repo.git('clean', '-qfd', '.cairn')
        const results = await Promise.allSettled([
          approve(repo.ctx(), {ids: [SLUGS[0]]}),
          archive(repo.ctx(), {ids: [SLUGS[0]]}),
        ])
        const failed = results
          .filter(r => r.status === 'rejected')
          .map(r => (r as PromiseRejectedResult).reason as CairnError)
        expect(failed.length).toBeLessThanOrEqual(1)
        for (const e of failed) expect([4, 5]).toContain(e.exitCode)
        expect(repo.git('status', '--porcelain')).toBe('')
      }
    },
  )
})

describe('--no-commit', () => {
  it('writes the files unstaged and says so', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    const ctx = repo.ctx()
    const r = await propose(ctx, {fields: card(), noCommit: true})
    expect(r.commit).toBeNull()
    expect(repo.git('status', '--porcelain')).toBe('?? .cairn/pending/\n')
    expect(repo.git('diff', '--cached', '--name-only')).toBe('')
    expect(ctx.warnings).toEqual([expect.stringContaining('written but not committed')])
    // The user's next plain commit does not sweep the card in.
    repo.write('README.md', '# changed\n')
    repo.git('commit', '-qam', 'user change')
    expect(repo.git('show', '--name-only', '--format=', 'HEAD').trim()).toBe('README.md')
  })
})

describe('a dotfiles home', () => {
  it('~/.cairn in a $HOME that is a git repo is never a project store', async () => {
    const repo = tempRepo()
    const home = repo.home
    git(home, 'init', '-q', '-b', 'main')
    git(home, 'config', 'user.name', 'Home User')
    git(home, 'config', 'user.email', 'home@example.com')
    await init(repo.ctx(), {personal: true})
    await propose(repo.ctx(), {fields: {...card({slug: 'personal-habit-for-shells'}), layer: 'personal'}})
    fs.mkdirSync(path.join(home, 'notes'))
    const inNotes = repo.ctx({cwd: path.join(home, 'notes')})
    const error = await failure(propose(inNotes, {fields: card()}))
    expect([error.code, error.exitCode]).toEqual(['not_initialised', 3])
    expect(error.message).toContain('whose .cairn/ is your personal store')
    expect(error.message).toContain('"git init"')
    expect(error.message).toContain('"cairn init"')
    expect((await list(inNotes)).cards.map(c => [c.id, c.store])).toEqual([['personal-habit-for-shells', 'personal']])
    expect((await failure(init(inNotes))).exitCode).toBe(3)
    expect(git(path.join(home, '.cairn'), 'status', '--porcelain')).toBe('')
    expect(fs.existsSync(path.join(home, 'notes', '.cairn'))).toBe(false)
  })
})

describe('the project key', () => {
  it('a configured key with capitals still recalls an approved card', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('project_key: null', 'project_key: GitHub.com/Acme/Widget'),
    )
    repo.git('commit', '-qam', 'key')
    await propose(repo.ctx(), {fields: card({recall: {triggers: ['deepMerge arrays']}})})
    await approve(repo.ctx(), {all: true})
    const c = parseCard(repo.read('.cairn/cards/pitfall/deepmerge-array-replace-trap.md'), 'x')
    expect(c.scope.project_key).toBe('github.com/acme/widget')
    const {recall} = await import('../src/app/recall.js')
    const r = await recall(repo.ctx(), {prompt: 'deepMerge arrays'})
    expect(r.cards.map(x => x.id)).toEqual(['deepmerge-array-replace-trap'])
  })

  it('in a linked worktree, propose takes the key from the origin remote', async () => {
    const repo = tempRepo()
    repo.git('remote', 'add', 'origin', 'git@github.com:Acme/Widget.git')
    await init(repo.ctx())
    const wt = path.join(path.dirname(repo.dir), 'wt')
    repo.git('worktree', 'add', '-q', wt)
    await propose(repo.ctx({cwd: wt}), {fields: card()})
    const c = parseCard(
      fs.readFileSync(path.join(wt, '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'), 'utf8'),
      'x',
    )
    expect(c.scope.project_key).toBe('github.com/acme/widget')
  })
})

describe('links under .cairn/', () => {
  it('a pending card that is a link to an outside file is refused, never approved as that file', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    const outside = repo.write(
      '../outside.md',
      '---\nschema: cairn/card@1\nid: linked-outside-card-case\ntype: pitfall\nstatus: draft\ntitle: t\nsummary: s\n---\nsecret notes\n',
    )
    fs.mkdirSync(path.join(repo.dir, '.cairn/pending/pitfall'), {recursive: true})
    fs.symlinkSync(outside, path.join(repo.dir, '.cairn/pending/pitfall/linked-outside-card-case.md'))
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'a link')
    const before = snapshot(repo)
    const error = await failure(approve(repo.ctx(), {ids: ['linked-outside-card-case']}))
    expect([error.code, error.exitCode]).toEqual(['validation', 6])
    expect(error.message).toContain('is a symbolic link')
    expect(snapshot(repo)).toEqual(before)
    expect(fs.existsSync(path.join(repo.dir, '.cairn/cards'))).toBe(false)
  })
})
