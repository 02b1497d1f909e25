import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {doctor} from '../src/app/doctor.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {CairnError} from '../src/domain/errors.js'
import {card, cli, tempRepo} from './helpers.js'

const GITATTRIBUTES = '.cairn/.gitattributes'

async function crashed(point = 'before-commit') {
  const repo = tempRepo()
  await init(repo.ctx())
  const killed = await cli(['propose', '-'], {cwd: repo.dir, env: {...repo.env, CAIRN_TEST_CRASH: point}, input: JSON.stringify(card())})
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
    expect(repo.git('show', '--name-only', '--format=%s', 'HEAD').trim()).toBe(`cairn(init): add ${GITATTRIBUTES}\n\n${GITATTRIBUTES}`)
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
    expect(report.checks.find(c => c.check === 'journal')).toMatchObject({status: 'error', detail: expect.stringContaining('a cairn propose started at')})
    const fixed = await doctor(repo.ctx(), {fix: true})
    expect(fixed.fixed).toEqual([expect.stringContaining('rolled back an interrupted cairn propose in the project store')])
    expect(fixed.checks.find(c => c.check === 'journal')).toMatchObject({status: 'ok'})
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
    expect(fs.existsSync(path.join(repo.dir, '.cairn/pending'))).toBe(false)
  })

  it('a git index.lock is reported with the command to remove it, and never deleted', async () => {
    const repo = await crashed()
    const lock = path.join(repo.dir, '.git/index.lock')
    fs.writeFileSync(lock, '')
    const report = await doctor(repo.ctx())
    expect(report.checks.find(c => c.check === 'index-lock')).toMatchObject({status: 'warning', fix: `if no git process is running, remove it: rm ${JSON.stringify(lock)}`})
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
