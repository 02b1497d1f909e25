import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {errorLog, hookRepo, settle} from './hook-helpers.js'
import {type Repo, tempDir} from './helpers.js'
import {answerKind, feedBytes, hookDeadline, neutralOf, within} from './red-team-helpers.js'

/**
 * Issue 27, held checks: 24 payload shapes x 4 clients x 6 events, in process through runHook.
 * Each run returns (exit 0) within its limit and prints the client's neutral answer or a documented
 * one. A shape is refused (neutral, one logged error), finds no store (neutral, nothing logged), or
 * is served: the same answer a clean payload gets, with no error.
 */
const AGENTS = ['claude', 'codex', 'cursor', 'gemini']
const EVENTS = ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop', 'session-end']
const TOOL_EVENTS = ['pre-tool-use', 'post-tool-use']
const MIGRATION = 'db/migrations/001.sql'
const PROMPT = 'the flaky login test failed again'
const MB = 1024 * 1024
/** The hook's own deadline (env and config), and each run's limit past it: a hang fails, a slow machine does not. */
const DEADLINE_MS = 10_000
const LIMIT_MS = 20_000

interface Run {
  repo: Repo
  outside: string
  agent: string
  event: string
  session: string
}

/** A payload every client reads: the fields of all four, with the paths of one migration edit. */
const clean = (r: Run, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  session_id: r.session,
  conversation_id: r.session,
  generation_id: 'g-1',
  transcript_path: null,
  cwd: r.repo.dir,
  workspace_roots: [r.repo.dir],
  hook_event_name: 'Event',
  prompt: PROMPT,
  tool_name: 'Write',
  tool_input: {
    file_path: path.join(r.repo.dir, MIGRATION),
    content: 'x',
    command: `*** Begin Patch\n*** Update File: ${MIGRATION}\n*** End Patch`,
  },
  stop_hook_active: false,
  last_assistant_message: 'Done.',
  status: 'completed',
  ...over,
})
const text = (r: Run, over: Record<string, unknown> = {}): string => JSON.stringify(clean(r, over))

/** Served with noPaths: the tool events find no path to answer for, so they say nothing. */
type Outcome = {kind: 'refused'; error: RegExp} | {kind: 'no store'} | {kind: 'served'; noPaths?: true}
interface PayloadShape {
  name: string
  payload: (r: Run) => string | Buffer
  outcome: Outcome
}

const notJson = {kind: 'refused', error: /stdin is not JSON \(\d+ bytes\)$/} as const
const notObject = {kind: 'refused', error: /stdin is not a JSON object$/} as const
const noDir = {kind: 'refused', error: /the working directory .* does not exist$/} as const
const served = {kind: 'served'} as const
const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
const outside = (r: Run, name: string) => path.join(r.outside, name)

/** Exactly 24 shapes. */
const SHAPES: PayloadShape[] = [
  {name: 'empty stdin', payload: () => '', outcome: notJson},
  {name: 'whitespace only', payload: () => ' \n\t\r\n ', outcome: notJson},
  {name: 'null', payload: () => 'null', outcome: notObject},
  {name: 'a number', payload: () => '42', outcome: notObject},
  {name: 'a string', payload: r => JSON.stringify(r.repo.dir), outcome: notObject},
  {name: 'an array', payload: r => `[${text(r)}]`, outcome: notObject},
  {name: '{}', payload: () => '{}', outcome: {kind: 'no store'}},
  {name: 'invalid JSON', payload: r => `{cwd: ${JSON.stringify(r.repo.dir)}}`, outcome: notJson},
  {name: 'truncated JSON', payload: r => text(r).slice(0, text(r).length >> 1), outcome: notJson},
  {name: 'a UTF-8 BOM', payload: r => Buffer.from(`\uFEFF${text(r)}`), outcome: notJson},
  {
    name: 'invalid UTF-8 bytes in strings',
    // Latin-1 writes U+00FF as the byte 0xff, which is no UTF-8; every other character here is ASCII.
    payload: r => Buffer.from(text(r, {prompt: `${PROMPT} \u00ff`, last_assistant_message: '\u00ff\u00fe'}), 'latin1'),
    outcome: served,
  },
  {
    name: 'NUL bytes in every string but cwd and the edited path',
    payload: r =>
      text(r, {
        session_id: `${r.session}\u0000x`,
        conversation_id: `${r.session}\u0000x`,
        prompt: `${PROMPT}\u0000`,
        transcript_path: outside(r, 't\u0000.jsonl'),
        tool_name: 'Wr\u0000ite',
        last_assistant_message: '\u0000',
      }),
    outcome: served,
  },
  {
    name: '1 MB + 1 byte',
    payload: r => {
      const head = text(r, {prompt: ''})
      return text(r, {prompt: 'x'.repeat(MB + 1 - Buffer.byteLength(head))})
    },
    outcome: {kind: 'refused', error: /stdin is over 1048576 bytes$/},
  },
  {
    name: 'deep nesting (100,000 [) in the fields a tool event reads',
    payload: r => text(r, {tool_input: '@@', workspace_roots: '@@'}).replaceAll('"@@"', DEEP),
    outcome: {kind: 'served', noPaths: true},
  },
  {
    name: 'wrong types for every field the adapters read (cwd: 5, tool_input: "x", prompt: {} ...)',
    payload: r =>
      JSON.stringify({
        session_id: 5,
        conversation_id: {},
        generation_id: [],
        transcript_path: 7,
        cwd: 5,
        workspace_roots: {0: r.repo.dir},
        hook_event_name: 3,
        prompt: {},
        tool_name: [],
        tool_input: 'x',
        file_path: {},
        stop_hook_active: 'yes',
        last_assistant_message: [],
        prompt_response: 3,
        status: 1,
      }),
    outcome: {kind: 'no store'},
  },
  {name: 'a cwd that does not exist', payload: r => text(r, {cwd: outside(r, 'missing')}), outcome: noDir},
  {name: 'a cwd that is a file', payload: r => text(r, {cwd: path.join(r.repo.dir, 'README.md')}), outcome: noDir},
  {name: 'a cwd of /', payload: r => text(r, {cwd: '/'}), outcome: {kind: 'no store'}},
  // Resolved against the hook process's own directory (here the test's), which a client never leaves elsewhere.
  {
    name: 'a relative cwd, climbing with ..',
    payload: r => text(r, {cwd: path.relative(process.cwd(), r.repo.dir)}),
    outcome: served,
  },
  {name: 'an absolute cwd with ..', payload: r => text(r, {cwd: `${r.repo.dir}/.cairn/cards/../..`}), outcome: served},
  {
    name: 'a huge prompt (just under 1 MB)',
    payload: r => text(r, {prompt: `${PROMPT} ${'and then some more words '.repeat(40_000)}`}),
    outcome: served,
  },
  {
    name: 'paths with .. and absolute paths outside the repo',
    payload: r =>
      text(r, {
        session_id: `../../../${r.session}`,
        conversation_id: `../../../${r.session}`,
        transcript_path: `${r.repo.dir}/../../..${outside(r, 'secret.md')}`,
        file_path: outside(r, 'secret.md'),
        tool_input: {
          file_path: path.join(r.repo.dir, MIGRATION),
          notebook_path: outside(r, 'secret.md'),
          path: `../../${path.basename(r.outside)}/x.md`,
          command: [
            '*** Begin Patch',
            `*** Update File: ${MIGRATION}`,
            '*** Add File: ../../outside.txt',
            `*** Delete File: ${outside(r, 'secret.md')}`,
            '*** Update File: db/../../escape.md',
            '*** Move to: /etc/hosts',
            '*** End Patch',
          ].join('\n'),
        },
      }),
    outcome: served,
  },
  {
    name: '__proto__ and constructor keys, and unknown extra fields',
    payload: r => {
      const extra = Object.fromEntries(Array.from({length: 200}, (_, i) => [`unknown_${i}`, [i, null, {cwd: '/'}]]))
      const poison = '"__proto__": {"cwd": "/", "polluted": true}, "constructor": {"prototype": {"polluted": true}}'
      return `{${poison}, ${JSON.stringify(extra).slice(1, -1)}, ${text(r).slice(1)}`
    },
    outcome: served,
  },
  {
    name: 'duplicate keys (the last one wins)',
    payload: r => `{"cwd": 5, "prompt": {}, "tool_input": "x", "session_id": [], ${text(r).slice(1)}`,
    outcome: served,
  },
]

describe('red team: hook payload shapes', () => {
  it('lists exactly 24 shapes, each once', () => {
    expect(new Set(SHAPES.map(s => s.name)).size).toBe(24)
  })

  for (const agent of AGENTS) {
    it(
      `${agent}: each shape and event exits 0 in time, neutral or a documented answer`,
      {timeout: 300_000},
      async () => {
        const repo = await hookRepo()
        const dir = tempDir()
        fs.writeFileSync(path.join(dir, 'secret.md'), 'outside the repo\n')
        const env = hookDeadline(repo, DEADLINE_MS)
        const run = (event: string, session: string, payload: string | Buffer) =>
          within(feedBytes(repo, agent, event, Buffer.from(payload), env), LIMIT_MS, `${agent} ${event} (${session})`)

        // What a clean payload gets, each event in its own session, checked against what the store holds.
        const baseline = new Map<string, string>()
        for (const event of EVENTS) {
          const r = await run(
            event,
            `clean-${event}`,
            text({repo, outside: dir, agent, event, session: `clean-${event}`}),
          )
          expect(r.error).toBeUndefined()
          baseline.set(event, r.stdout)
        }
        const ids = (event: string) =>
          [...baseline.get(event)!.matchAll(/\(([a-z0-9]+(?:-[a-z0-9]+)+)\)/g)].map(m => m[1])
        expect(ids('session-start')).toContain('run-tests-before-push')
        expect(ids('user-prompt-submit')).toEqual(agent === 'cursor' ? [] : ['flaky-login-test'])
        // Claude Code and Codex get path cards before the tool; Cursor and Gemini CLI (no pre-tool context) after it.
        const cards = ['backup-before-migration']
        const before = ['claude', 'codex'].includes(agent)
        expect([ids('pre-tool-use'), ids('post-tool-use')]).toEqual(before ? [cards, []] : [[], cards])
        expect([baseline.get('stop'), baseline.get('session-end')]).toEqual([neutralOf(agent, 'stop'), ''])

        const parent = fs.readdirSync(path.dirname(repo.dir)).sort()
        for (const shape of SHAPES) {
          for (const event of EVENTS) {
            const session = `${SHAPES.indexOf(shape)}-${event}`
            const logged = errorLog(repo).length
            const r = await run(event, session, shape.payload({repo, outside: dir, agent, event, session}))
            const where = `${agent} ${event}: ${shape.name}`
            expect(answerKind(agent, event, r.stdout), where).toBeTypeOf('string')
            const {outcome} = shape
            if (outcome.kind === 'served') {
              const expected =
                outcome.noPaths && TOOL_EVENTS.includes(event) ? neutralOf(agent, event) : baseline.get(event)
              expect([r.error, r.stdout], where).toEqual([undefined, expected])
            } else if (outcome.kind === 'refused') {
              expect([r.stdout, r.error], where).toEqual([
                neutralOf(agent, event),
                expect.stringMatching(outcome.error),
              ])
              expect(errorLog(repo).slice(logged), where).toEqual([r.error])
            } else {
              expect([r.stdout, r.error, errorLog(repo).length], where).toEqual([
                neutralOf(agent, event),
                undefined,
                logged,
              ])
            }
          }
        }
        // Nothing was written outside the repository, nor through a polluted prototype.
        expect(fs.readdirSync(path.dirname(repo.dir)).sort()).toEqual(parent)
        expect(fs.readdirSync(dir)).toEqual(['secret.md'])
        expect(fs.readFileSync(path.join(dir, 'secret.md'), 'utf8')).toBe('outside the repo\n')
        expect(fs.existsSync('/.cairn')).toBe(false)
        expect([({} as Record<string, unknown>).polluted, Object.keys(Object.prototype)]).toEqual([undefined, []])
        await settle(repo)
      },
    )
  }
})
