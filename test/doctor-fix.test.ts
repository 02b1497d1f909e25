import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {doctor} from '../src/app/doctor.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {CairnError} from '../src/domain/errors.js'
import {card, cli, git, tempRepo} from './helpers.js'

const GITATTRIBUTES = '.cairn/.gitattributes'

async function crashed(point = 'before-commit') {
  const repo = tempRepo()
  await init(repo.ctx())
  const killed = await cli(['propose', '-'], {
    cwd: repo.dir,
    env: {...repo.env, CAIRN_TEST_CRASH: point},
    input: JSON.stringify(card()),
  })
  expect(killed.code).toBe(-1)
  expect(fs.existsSync(path.join(repo.dir, '.git/cairn-journal.json'))).toBe(true)
  return repo
}

describe('.gitattributes', () => {
  it('init writes * text eol=lf; run again on an older store, it adds only that file', async () => {
    const repo = tempRepo()
    const first = await init(repo.ctx())
    expect(first.files).toEqual(['.cairn/config.yaml', '.cairn/.gitignore', GITATTRIBUTES])
    expect(repo.read(GITATTRIBUTES)).toBe('# cairn files are LF on every checkout.\n* text eol=lf\n')
    repo.git('rm', '-q', GITATTRIBUTES)
    repo.git('commit', '-qm', 'an older store')
    const again = await init(repo.ctx())
    expect([again.created, again.files]).toEqual([false, [GITATTRIBUTES]])
    expect(repo.git('show', '--name-only', '--format=%s', 'HEAD').trim()).toBe(
      `cairn(init): add ${GITATTRIBUTES}\n\n${GITATTRIBUTES}`,
    )
    const third = await init(repo.ctx())
    expect([third.files, third.commit]).toEqual([[], null])
  })

  it('doctor warns when it is missing and doctor --fix adds it', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    repo.git('rm', '-q', GITATTRIBUTES)
    repo.git('commit', '-qm', 'an older store')
    const report = await doctor(repo.ctx())
    expect(report.checks.find(c => c.check === 'gitattributes')).toMatchObject({status: 'warning'})
    const fixed = await doctor(repo.ctx(), {fix: true})
    expect(fixed.fixed).toEqual([expect.stringMatching(/^added \.cairn\/\.gitattributes \(commit [0-9a-f]{12}\)$/)])
    expect(fixed.checks.find(c => c.check === 'gitattributes')).toMatchObject({status: 'ok'})
    expect(repo.git('status', '--porcelain')).toBe('')
  })
})

describe('an interrupted write', () => {
  it('doctor reports the journal; doctor --fix rolls it back and leaves nothing for the user to commit', async () => {
    const repo = await crashed()
    const report = await doctor(repo.ctx())
    expect(report.healthy).toBe(false)
    expect(report.checks.find(c => c.check === 'journal')).toMatchObject({
      status: 'error',
      detail: expect.stringContaining('a cairn propose started at'),
    })
    const fixed = await doctor(repo.ctx(), {fix: true})
    expect(fixed.fixed).toEqual([
      expect.stringContaining('rolled back an interrupted cairn propose in the project store'),
    ])
    expect(fixed.checks.find(c => c.check === 'journal')).toMatchObject({status: 'ok'})
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
    expect(fs.existsSync(path.join(repo.dir, '.cairn/pending'))).toBe(false)
  })

  it('doctor --fix racing a write: the interrupted write is rolled back exactly once', async () => {
    const repo = await crashed()
    const fixing = repo.ctx()
    const writing = repo.ctx()
    const [fixed] = await Promise.all([
      doctor(fixing, {fix: true}),
      propose(writing, {fields: card({slug: 'another-card-after-crash'})}),
    ])
    const said = [...fixed.fixed, ...writing.warnings].filter(m =>
      m.includes('rolled back an interrupted cairn propose'),
    )
    expect(said).toHaveLength(1)
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
    expect(fs.readdirSync(path.join(repo.dir, '.cairn/pending/pitfall'))).toEqual(['another-card-after-crash.md'])
  })

  it('a git index.lock is reported with the command to remove it, and never deleted', async () => {
    const repo = await crashed()
    const lock = path.join(repo.dir, '.git/index.lock')
    fs.writeFileSync(lock, '')
    const report = await doctor(repo.ctx())
    expect(report.checks.find(c => c.check === 'index-lock')).toMatchObject({
      status: 'warning',
      fix: `if no git process is running, remove it: rm ${JSON.stringify(lock)}`,
    })
    let error: unknown
    try {
      await propose(repo.ctx(), {fields: card({slug: 'another-card-after-crash'})})
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(CairnError)
    expect((error as CairnError).exitCode).toBe(5)
    expect((error as CairnError).message).toContain(`rm ${JSON.stringify(lock)}`)
    expect(fs.existsSync(lock)).toBe(true)
    expect(fs.existsSync(path.join(repo.dir, '.git/cairn-journal.json'))).toBe(true)
    fs.rmSync(lock)
    const ctx = repo.ctx()
    await propose(ctx, {fields: card({slug: 'another-card-after-crash'})})
    expect(ctx.warnings).toEqual([expect.stringContaining('rolled back an interrupted cairn propose')])
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
  })
})

describe('recovery decisions', () => {
  it('a commit that landed is recognised even when a hook changed its message', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    repo.write('.git/hooks/prepare-commit-msg', '#!/bin/sh\necho "Change-Id: I123" >> "$1"\n')
    fs.chmodSync(path.join(repo.dir, '.git/hooks/prepare-commit-msg'), 0o755)
    const killed = await cli(['propose', '-'], {
      cwd: repo.dir,
      env: {...repo.env, CAIRN_TEST_CRASH: 'during-commit'},
      input: JSON.stringify(card()),
    })
    expect(killed.code).toBe(-1)
    const ctx = repo.ctx()
    const r = await doctor(ctx, {fix: true})
    const head = repo.git('log', '-1', '--format=%s').trim()
    if (head === 'cairn(propose): deepmerge-array-replace-trap') {
      // The orphaned commit landed: kept, never rolled back under it.
      expect(r.fixed).toEqual([expect.stringContaining('finished an interrupted cairn propose')])
      expect(repo.git('log', '-1', '--format=%B')).toContain('Change-Id: I123')
    } else expect(r.fixed).toEqual([expect.stringContaining('rolled back an interrupted cairn propose')])
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
    expect(fs.readdirSync(path.join(repo.dir, '.git')).filter(f => f.startsWith('CAIRN_COMMIT'))).toEqual([])
  })

  for (const [point, outcome] of [
    ['before-marker', 'before'],
    ['after-marker', 'after'],
  ] as const) {
    it(`a two-store propose killed ${point.replace('-', ' the ')} ends ${outcome} in both stores`, async () => {
      const repo = tempRepo()
      await init(repo.ctx())
      await init(repo.ctx(), {personal: true})
      const home = path.join(repo.home, '.cairn')
      const heads = () => [repo.git('rev-parse', 'HEAD').trim(), git(home, 'rev-parse', 'HEAD').trim()]
      const before = heads()
      const input = JSON.stringify([
        card({slug: 'team-lesson-about-merges'}),
        {...card({slug: 'personal-habit-for-shells'}), layer: 'personal'},
      ])
      const killed = await cli(['propose', '-'], {cwd: repo.dir, env: {...repo.env, CAIRN_TEST_CRASH: point}, input})
      expect(killed.code).toBe(-1)
      const after = heads()
      expect(after[0]).not.toBe(before[0])
      expect(after[1]).not.toBe(before[1])
      // Each store decides alone, from the one marker file, so the order of recovery does not matter.
      const ctx = repo.ctx()
      await doctor(ctx, {fix: true})
      expect(heads()).toEqual(outcome === 'after' ? after : before)
      expect(fs.existsSync(path.join(repo.dir, '.cairn/pending/pitfall/team-lesson-about-merges.md'))).toBe(
        outcome === 'after',
      )
      expect(fs.existsSync(path.join(home, 'pending/pitfall/personal-habit-for-shells.md'))).toBe(outcome === 'after')
      expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
      expect(git(home, 'status', '--porcelain', '--untracked-files=all')).toBe('')
    })
  }

  it("inside the personal store's own repo, init refuses to make it a project store", async () => {
    const repo = tempRepo()
    await init(repo.ctx(), {personal: true})
    const home = path.join(repo.home, '.cairn')
    let error: unknown
    try {
      await init(repo.ctx({cwd: home}))
    } catch (e) {
      error = e
    }
    expect((error as CairnError).exitCode).toBe(3)
    expect((error as CairnError).message).toContain('is inside your personal store')
    expect(fs.existsSync(path.join(home, '.cairn'))).toBe(false)
  })
})
