import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {log} from '../src/app/log.js'
import {promptRecall} from '../src/app/prompt-recall.js'
import {propose} from '../src/app/propose.js'
import {CairnError} from '../src/domain/errors.js'
import {createContext} from '../src/context.js'
import {gitUserName} from '../src/store/git.js'
import {card, snapshot, tempDir, tempRepo, type Repo} from './helpers.js'

const FORGED = 'eve\nCairn-Card: x\nCairn-Op: approve'

/** The repo's environment without CAIRN_ACTOR, and with no git config outside the sandbox. */
function envOf(repo: Repo, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {...repo.env, CAIRN_ACTOR: undefined, XDG_CONFIG_HOME: path.join(repo.home, '.config'), ...extra}
}

async function refusal(pending: Promise<unknown>): Promise<CairnError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(CairnError)
  expect((error as CairnError).code).toBe('validation')
  return error as CairnError
}

describe('a forged actor', () => {
  it('from CAIRN_ACTOR is refused with exit 6 before anything is written', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    const before = snapshot(repo)
    const ctx = repo.ctx({actor: undefined, env: envOf(repo, {CAIRN_ACTOR: FORGED})})
    const e = await refusal(propose(ctx, {fields: card()}))
    expect(e.exitCode).toBe(6)
    expect(e.message).toContain(
      'Cairn-Actor: "eve\\nCairn-Card: x\\nCairn-Op: approve" contains a newline or control character',
    )
    expect(snapshot(repo)).toEqual(before)
    expect(before.status).toBe('')
    expect(fs.existsSync(path.join(repo.dir, '.git', 'cairn.lock'))).toBe(false)
    expect((await log(repo.ctx())).entries.map(e => e.op)).toEqual(['init'])
  })

  it('from git user.name is refused too', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    repo.git('config', 'user.name', 'eve\nCairn-Op: approve')
    const before = snapshot(repo)
    await refusal(propose(repo.ctx({actor: undefined, env: envOf(repo)}), {fields: card()}))
    expect(snapshot(repo)).toEqual(before)
  })
})

describe('actor resolution', () => {
  it('takes the actor option, then CAIRN_ACTOR, then git user.name, then $USER, then "cairn"', () => {
    const repo = tempRepo()
    const sub = path.join(repo.dir, 'src')
    fs.mkdirSync(sub)
    const outside = tempDir()
    const actor = (cwd: string, extra: Record<string, string | undefined>, option?: string) =>
      createContext({cwd, env: envOf(repo, extra), actor: option, lookupActor: gitUserName}).actor()
    expect(actor(repo.dir, {CAIRN_ACTOR: 'ci-bot'}, 'tester')).toBe('tester')
    expect(actor(repo.dir, {CAIRN_ACTOR: 'ci-bot for eve', USER: 'alice'})).toBe('ci-bot for eve')
    expect(actor(sub, {USER: 'alice'})).toBe('Test User')
    expect(actor(repo.dir, {CAIRN_ACTOR: '  ', USER: 'alice'})).toBe('Test User')
    expect(actor(outside, {USER: 'alice'})).toBe('alice')
    expect(actor(outside, {USER: undefined})).toBe('cairn')
  })

  it('never spawns git until the actor is read, and then only once', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    const bin = tempDir()
    const calls = path.join(bin, 'calls')
    const realGit = execFileSync('sh', ['-c', 'command -v git'], {encoding: 'utf8'}).trim()
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`, {
      mode: 0o755,
    })
    const ctx = createContext({
      cwd: repo.dir,
      env: envOf(repo, {PATH: `${bin}:${process.env.PATH}`}),
      stdin: '',
      lookupActor: gitUserName,
    })
    await promptRecall(ctx, {prompt: 'how does deepMerge treat arrays in hook config?'})
    expect(fs.existsSync(calls)).toBe(false)
    expect([ctx.actor(), ctx.actor()]).toEqual(['Test User', 'Test User'])
    expect(fs.readFileSync(calls, 'utf8')).toBe('config --get user.name\n')
  })
})
