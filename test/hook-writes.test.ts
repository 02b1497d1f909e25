import {spawn} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {feed, hookRepo, settle} from './hook-helpers.js'
import {BIN} from './helpers.js'

/**
 * The hooks' own writes (session state, the event ledger, digests): the happy path is in
 * hooks.test.ts and hook-stop.test.ts; here, many hooks at once, and hooks killed midway.
 */
function hookProcess(env: NodeJS.ProcessEnv, event: string, payload: object) {
  const child = spawn(process.execPath, [BIN, 'hook', event, '--agent', 'claude'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  child.stdout.on('data', d => (stdout += d))
  child.stdin.end(JSON.stringify(payload))
  const done = new Promise<{code: number | null; signal: string | null; stdout: string}>(resolve =>
    child.on('close', (code, signal) => resolve({code, signal, stdout})),
  )
  return {child, done}
}

const enforced = async () => {
  const repo = await hookRepo()
  repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('enforce_must: false', 'enforce_must: true'))
  await feed(repo, 'claude', 'session-start', {session_id: 'warm', cwd: repo.dir, hook_event_name: 'SessionStart'})
  await settle(repo)
  return repo
}

const edit = (dir: string, session: string) => ({
  session_id: session,
  cwd: dir,
  hook_event_name: 'PreToolUse',
  tool_name: 'Write',
  tool_input: {file_path: path.join(dir, 'db/migrations/9.sql'), content: ''},
})

describe('hook writes', () => {
  it('six parallel pre-tool hooks of one session deny an enforced card exactly once', async () => {
    const repo = await enforced()
    const runs = await Promise.all(
      Array.from({length: 6}, () => hookProcess(repo.env, 'pre-tool-use', edit(repo.dir, 'par-1')).done),
    )
    expect(runs.map(r => r.code)).toEqual([0, 0, 0, 0, 0, 0])
    const denies = runs.filter(r => r.stdout.includes('"permissionDecision":"deny"'))
    expect(denies).toHaveLength(1)
    const state = JSON.parse(repo.read('.cairn/.local/sessions/par-1.json'))
    expect(state).toEqual({
      shown: ['backup-before-migration'],
      denied: ['backup-before-migration'],
      blocked: false,
      digest: false,
    })
    const lines = repo.read('.cairn/.local/events.jsonl').trim().split('\n')
    expect(lines.every(l => JSON.parse(l).ts)).toBe(true)
  })

  it('hooks killed with SIGKILL at any point leave state that parses, and the next hook works', async () => {
    const repo = await enforced()
    // A session that has state already, so a kill can land in the middle of rewriting it.
    await feed(repo, 'claude', 'pre-tool-use', edit(repo.dir, 'kill-1'))
    expect(JSON.parse(repo.read('.cairn/.local/sessions/kill-1.json')).denied).toEqual(['backup-before-migration'])
    for (const delay of [5, 15, 30, 45, 60, 90, 120, 160, 200, 240]) {
      const {child, done} = hookProcess(repo.env, delay % 2 ? 'stop' : 'pre-tool-use', {
        ...edit(repo.dir, 'kill-1'),
        hook_event_name: 'x',
      })
      setTimeout(() => child.kill('SIGKILL'), delay)
      await done
    }
    const sessions = path.join(repo.dir, '.cairn/.local/sessions')
    expect(fs.readdirSync(sessions)).toContain('kill-1.json')
    for (const name of fs.readdirSync(sessions)) {
      if (name.endsWith('.json'))
        expect(() => JSON.parse(fs.readFileSync(path.join(sessions, name), 'utf8'))).not.toThrow()
    }
    // A kill mid-write may leave a temp file beside the state (never in its place); session start prunes old ones.
    const temps = () => fs.readdirSync(sessions).filter(n => n.includes('.cairn-tmp-'))
    for (const t of temps())
      fs.utimesSync(path.join(sessions, t), new Date('2026-11-29T09:00:00Z'), new Date('2026-11-29T09:00:00Z'))
    await feed(repo, 'claude', 'session-start', {session_id: 'prune', cwd: repo.dir, hook_event_name: 'SessionStart'})
    expect(temps()).toEqual([])
    // A lock a killed hook left behind is waited for at most 300 ms, then stale after 2 s.
    fs.mkdirSync(sessions, {recursive: true})
    fs.writeFileSync(path.join(sessions, 'kill-2.json.lock'), '')
    const r = await feed(repo, 'claude', 'pre-tool-use', edit(repo.dir, 'kill-2'))
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
  })
})

describe('the event ledger', () => {
  it('keeps each line under 4 KB (dropping paths, and saying how many) and rotates past 1 MB, counting usage across both files', async () => {
    const {appendEvent, eventLine, MAX_EVENT_BYTES, readUsage, ROTATE_EVENTS_AT} =
      await import('../src/store/agents/local.js')
    const {projectStoreAt} = await import('../src/store/layout.js')
    const paths = Array.from({length: 500}, (_, i) => `src/module-${i}/file-${i}.ts`)
    const line = eventLine({ts: '2026-11-29T10:00:00.000Z', event: 'edit', session: 's', paths})
    expect(Buffer.byteLength(line)).toBeLessThan(MAX_EVENT_BYTES)
    const parsed = JSON.parse(line)
    expect(parsed.paths).toEqual(paths.slice(0, parsed.paths.length))
    expect(parsed.truncated).toBe(500 - parsed.paths.length)

    const repo = await hookRepo()
    const store = projectStoreAt(repo.dir)
    appendEvent(store, {ts: 't', event: 'card_shown', cards: ['flaky-login-test']})
    repo.write(
      '.cairn/.local/events.jsonl',
      `${repo.read('.cairn/.local/events.jsonl')}${'x'.repeat(ROTATE_EVENTS_AT)}\n`,
    )
    appendEvent(store, {ts: 't', event: 'card_read', card: 'flaky-login-test'})
    expect(
      fs
        .readdirSync(path.join(repo.dir, '.cairn/.local'))
        .filter(n => n.startsWith('events'))
        .sort(),
    ).toEqual(['events.1.jsonl', 'events.jsonl'])
    expect(repo.read('.cairn/.local/events.jsonl').trim().split('\n')).toHaveLength(1)
    expect(readUsage(store).get('flaky-login-test')).toBe(2)
  })
})
