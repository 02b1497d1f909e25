import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {projectStoreAt} from '../src/store/layout.js'
import {alive} from '../src/store/locks/lock-record.js'
import {LOCK_FILE, rebuildState} from '../src/recall/background.js'
import {errorLog, feed, hookRepo, plant, settle} from './hook-helpers.js'
import type {Repo} from './helpers.js'
import {hookDeadline} from './red-team-helpers.js'

/**
 * Issue 27, held checks: the hook's background rebuild of the recall index (a detached process)
 * killed with SIGKILL. The next prompt answers as it should (nothing while cold, the old index while
 * stale) and starts a rebuild again, which then answers. Needs `npm run build` (the worker is dist/'s).
 */
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
const cacheDir = (repo: Repo) => path.join(repo.dir, '.cairn/.cache')
const OLD = 'The login e2e test times out under parallel load; run it alone.'
const NEW = 'The login e2e test times out under parallel load; run it on its own.'

/**
 * Waits ms, then SIGKILLs the rebuild the lock names, and waits until the process is gone. True when
 * the kill landed mid-rebuild: the lock still names the killed worker (a finished one removes it).
 */
async function killRebuild(repo: Repo, ms: number): Promise<boolean> {
  const lockFile = path.join(cacheDir(repo), LOCK_FILE)
  const {pid, token} = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as {pid: number; token: string}
  expect(pid).not.toBe(process.pid)
  await sleep(ms)
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    // Finished and reaped already.
  }
  for (const until = Date.now() + 30_000; alive(pid); await sleep(10)) {
    if (Date.now() > until) throw new Error(`rebuild ${pid} outlived SIGKILL`)
  }
  try {
    return (JSON.parse(fs.readFileSync(lockFile, 'utf8')) as {token: string}).token === token
  } catch {
    return false
  }
}

describe('red team: the background index rebuild killed', () => {
  it('at its start and midway: the next prompt answers and rebuilds', {timeout: 300_000}, async () => {
    const repo = await hookRepo()
    // Without ripgrep, so a cold prompt says nothing (recall-cold.test.ts tests the answer ripgrep gives
    // while the index is cold): the prompt then returns at once, while the rebuild it started is young.
    const env = {...hookDeadline(repo, 60_000), CAIRN_RG: 'off'}
    // Over 500 cards, so a hook never builds inline: a cold or stale index is rebuilt in the background.
    const zero = {title: 'Widget zero', summary: 'Polish zero before release.'}
    const filler = repo.read(plant(repo, 'filler-card-number-zero', zero))
    for (let i = 1; i < 600; i++) {
      repo.write(`.cairn/cards/guideline/filler-card-number-${i}.md`, filler.replaceAll('zero', String(i)))
    }
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'fillers')
    const store = projectStoreAt(repo.dir)
    const words = 'the flaky login test failed again'
    const payload = {session_id: 'k', cwd: repo.dir, hook_event_name: 'UserPromptSubmit', prompt: words}
    /** The summary of flaky-login-test as the prompt hook shows it; '' when it says nothing. */
    const prompt = async () => {
      const r = await feed(repo, 'claude', 'user-prompt-submit', payload, env)
      expect(r.error).toBeUndefined()
      if (!r.stdout) return ''
      return /flaky-login-test\) \[may\]\n {2}(.*)\n/.exec(
        JSON.parse(r.stdout).hookSpecificOutput.additionalContext,
      )?.[1]
    }

    // Cold: no index, so nothing is said while the rebuild runs; the first is killed before it does any work.
    expect(await prompt()).toBe('')
    expect(rebuildState(store)).toEqual({spawned: 1})
    expect(await killRebuild(repo, 0)).toBe(true)
    expect(fs.existsSync(path.join(cacheDir(repo), 'recall-index'))).toBe(false)
    expect(await prompt()).toBe('')
    expect(rebuildState(store)).toEqual({spawned: 2})
    const started = Date.now()
    await settle(repo)
    const took = Date.now() - started
    expect(await prompt()).toBe(OLD)

    // Stale: every card changed (uncommitted), so the prompt answers from the old index while a rebuild
    // runs, killed about halfway through (by the last rebuild's time).
    const guidelines = path.join(repo.dir, '.cairn/cards/guideline')
    for (const file of fs.readdirSync(guidelines).filter(n => n.startsWith('filler-'))) {
      const rel = `.cairn/cards/guideline/${file}`
      repo.write(rel, repo.read(rel).replace('before release', 'before the release'))
    }
    const flaky = '.cairn/cards/guideline/flaky-login-test.md'
    repo.write(flaky, repo.read(flaky).replace(OLD, NEW))
    expect(await prompt()).toBe(OLD)
    expect(rebuildState(store)).toEqual({spawned: 3})
    const landed = await killRebuild(repo, Math.round(took / 2))
    // Killed before its index was written: the old index answers again, and a new rebuild starts.
    // Killed after (or done already): the new index answers, and none is needed.
    const answer = await prompt()
    const spawned = answer === OLD ? 4 : 3
    expect([answer, rebuildState(store)]).toEqual([spawned === 4 ? OLD : NEW, {spawned}])
    if (spawned === 4) expect(landed).toBe(true)
    await settle(repo)
    expect(await prompt()).toBe(NEW)
    expect(rebuildState(store)).toEqual({spawned})
    expect(errorLog(repo)).toEqual([])
    // No lock is left behind (a temp file of a write the kill cut short is not this test's business).
    const cache = fs
      .readdirSync(cacheDir(repo))
      .filter(n => !n.includes('.cairn-tmp-'))
      .sort()
    // org-pins.json is the project's org pins as the hooks read them (store/org/pins.ts): none here.
    expect(cache).toEqual(['org-pins.json', 'recall-index', 'recall-index.proof', 'recall-index.state'])
    expect(JSON.parse(fs.readFileSync(path.join(cacheDir(repo), 'org-pins.json'), 'utf8')).pins).toEqual([])
  })
})
