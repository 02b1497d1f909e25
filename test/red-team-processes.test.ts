import {spawn} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {errorLog, feed, hookRepo, settle} from './hook-helpers.js'
import {BIN, type Repo} from './helpers.js'
import {answerKind, hookDeadline} from './red-team-helpers.js'

/** Issue 27, held checks: 20 hooks as real processes at once. Needs `npm run build`. */
const AGENTS = ['claude', 'codex', 'cursor', 'gemini']
const EVENTS = ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop']
const AT = '2026-11-29T10:00:00.000Z'

const payload = (repo: Repo, session: string) => ({
  session_id: session,
  conversation_id: session,
  cwd: repo.dir,
  workspace_roots: [repo.dir],
  hook_event_name: 'Event',
  prompt: 'the flaky login test failed again',
  tool_name: 'Write',
  tool_input: {file_path: path.join(repo.dir, 'db/migrations/002.sql'), content: 'x'},
  stop_hook_active: false,
  status: 'completed',
})

function hookProcess(env: NodeJS.ProcessEnv, agent: string, event: string, input: object) {
  const child = spawn(process.execPath, [BIN, 'hook', event, '--agent', agent], {env, stdio: ['pipe', 'pipe', 'pipe']})
  let stdout = ''
  child.stdout.on('data', d => (stdout += d))
  child.stdin.end(JSON.stringify(input))
  return new Promise<{code: number | null; stdout: string}>(resolve =>
    child.on('close', code => resolve({code, stdout})),
  )
}

/** The files hooks write and read back under .local/ and .cache/ (the index is binary: the answers check it). */
function stateFiles(store: string): string[] {
  const under = (dir: string) =>
    fs.readdirSync(path.join(store, dir), {recursive: true, encoding: 'utf8'}).map(f => `${dir}/${f}`)
  return [...under('.local'), ...under('.cache')].filter(
    f => fs.statSync(path.join(store, f)).isFile() && !/recall-index(\.proof)?$/.test(f),
  )
}

/** A state file parses: JSON, JSON lines, or a digest's Markdown. */
function parseState(file: string): void {
  const text = fs.readFileSync(file, 'utf8')
  if (file.endsWith('.jsonl')) for (const l of text.split('\n').filter(Boolean)) JSON.parse(l)
  else if (file.endsWith('.md')) expect(text).toMatch(/^# .*\n\nsession: /)
  else JSON.parse(text)
}

describe('red team: hooks as processes', () => {
  it('20 at once (4 clients x 5 events) exit 0 with their answer; their state parses', {timeout: 180_000}, async () => {
    const repo = await hookRepo()
    const deadline = hookDeadline(repo, 60_000)
    // The answers one at a time, in process, each in its own session: what each process must print.
    const expected = new Map<string, string>()
    for (const agent of AGENTS) {
      for (const event of EVENTS) {
        const one = await feed(repo, agent, event, payload(repo, `one-${agent}-${event}`), deadline)
        expected.set(`${agent} ${event}`, one.stdout)
      }
    }
    expect([...expected.values()].filter(Boolean)).toHaveLength(12)
    await settle(repo)
    const runs = await Promise.all(
      AGENTS.flatMap(agent =>
        EVENTS.map(async event => {
          const r = await hookProcess({...repo.env, ...deadline}, agent, event, payload(repo, `par-${agent}-${event}`))
          return {key: `${agent} ${event}`, agent, event, ...r}
        }),
      ),
    )
    expect(runs).toHaveLength(20)
    for (const r of runs) {
      const out = r.stdout.replace(/\n$/, '')
      expect([r.code, out], r.key).toEqual([0, expected.get(r.key)])
      expect(answerKind(r.agent, r.event, out), r.key).toBeTypeOf('string')
    }
    // Every state file the hooks share parses whole, and no temp file or lock is left beside one.
    const files = stateFiles(path.join(repo.dir, '.cairn'))
    expect(files.filter(f => f.includes('.cairn-tmp-') || f.endsWith('.lock'))).toEqual([])
    for (const f of files) expect(() => parseState(path.join(repo.dir, '.cairn', f)), f).not.toThrow()
    expect(files).toContain('.local/events.jsonl')
    // The parallel runs kept the same session state the one-at-a-time runs did.
    const sessions = (prefix: string) =>
      files
        .filter(f => f.startsWith(`.local/sessions/${prefix}-`))
        .map(f => f.replace(`/${prefix}-`, '/x-'))
        .sort()
    expect(sessions('par')).toEqual(sessions('one'))
    expect(sessions('par').length).toBeGreaterThan(4)
    for (const f of sessions('par')) {
      const read = (prefix: string) => JSON.parse(repo.read(`.cairn/${f.replace('/x-', `/${prefix}-`)}`))
      expect(read('par'), f).toEqual(read('one'))
    }
    for (const agent of AGENTS) {
      const digest = repo.read(`.cairn/.local/digests/par-${agent}-stop.md`)
      expect(digest).toBe(`# session\n\nsession: par-${agent}-stop · agent: ${agent} · ${AT}\n`)
    }
    expect(errorLog(repo)).toEqual([])
  })
})
