import {Readable} from 'node:stream'
import {setTimeout as sleep} from 'node:timers/promises'
import {describe, expect, it} from 'vitest'
import {runHook} from '../src/agents/run.js'
import {errorLog, hookRepo, settle} from './hook-helpers.js'
import {FIXED_NOW, type Repo} from './helpers.js'

/**
 * A hook slowed before it starts its work: the client writes its payload 1.7 s late, as a machine at a load of 8
 * on 2 cores made session start take 2.4 s. No timing is asserted: what arrives is.
 */
async function slowFeed(repo: Repo, event: string, payload: object, env: Record<string, string> = {}) {
  const late = async function* () {
    await sleep(1700)
    yield Buffer.from(JSON.stringify(payload))
  }
  // The sandbox's own 30 s override is taken away: the defaults and the config decide.
  const io = {stdin: Readable.from(late()), env: {...repo.env, CAIRN_HOOK_DEADLINE_MS: '', ...env}, cwd: repo.dir}
  return runHook([event, '--agent', 'claude'], {...io, now: FIXED_NOW})
}

const start = (repo: Repo) => ({session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup'})
const prompt = (repo: Repo) => ({
  session_id: 's',
  cwd: repo.dir,
  hook_event_name: 'UserPromptSubmit',
  prompt: 'the flaky login test failed again',
})

describe('hook deadlines per event', () => {
  it('a late session start still delivers the core cards; a prompt hook as late fails open', async () => {
    const repo = await hookRepo()
    const r = await slowFeed(repo, 'session-start', start(repo))
    expect(r.error).toBeUndefined()
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain(
      '### Run the tests before pushing (run-tests-before-push)',
    )
    const late = await slowFeed(repo, 'user-prompt-submit', prompt(repo))
    expect(late.stdout).toBe('')
    expect(errorLog(repo)).toEqual([expect.stringMatching(/claude user-prompt-submit: passed the 1500 ms deadline$/)])
    await settle(repo)
  })

  it("hooks.session_deadline_ms sets session start's; CAIRN_HOOK_DEADLINE_MS sets every event's", async () => {
    const repo = await hookRepo()
    const config = repo.read('.cairn/config.yaml')
    repo.write('.cairn/config.yaml', config.replace(/session_deadline_ms: 4000/, 'session_deadline_ms: 1000'))
    expect((await slowFeed(repo, 'session-start', start(repo))).error).toMatch(/passed the 1000 ms deadline$/)
    repo.write('.cairn/config.yaml', config)
    const both = {CAIRN_HOOK_DEADLINE_MS: '1200'}
    expect((await slowFeed(repo, 'session-start', start(repo), both)).error).toMatch(/passed the 1200 ms deadline$/)
    // Not a whole number of milliseconds: the defaults decide. Past 10 minutes: 10 minutes (a timer past 2^31 ms
    // would fire at once).
    expect((await slowFeed(repo, 'user-prompt-submit', prompt(repo), {CAIRN_HOOK_DEADLINE_MS: '0x10'})).error).toMatch(
      /passed the 1500 ms deadline$/,
    )
    for (const huge of ['900000000', '1e10'])
      expect((await slowFeed(repo, 'session-start', start(repo), {CAIRN_HOOK_DEADLINE_MS: huge})).error).toBeUndefined()
    const p = await slowFeed(repo, 'user-prompt-submit', prompt(repo), {CAIRN_HOOK_DEADLINE_MS: '4000'})
    expect(p.error).toBeUndefined()
    expect(JSON.parse(p.stdout).hookSpecificOutput.additionalContext).toContain('flaky-login-test')
    await settle(repo)
  })
})
