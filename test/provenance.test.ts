import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {modify} from '../src/app/modify.js'
import {propose} from '../src/app/propose.js'
import {approve, review} from '../src/app/review.js'
import {show} from '../src/app/show.js'
import {originFromEnv} from '../src/context.js'
import {card, cli, sandboxEnv, templateRepo} from './helpers.js'

const PENDING = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
const ACTIVE = '.cairn/cards/pitfall/deepmerge-array-replace-trap.md'
const SESSION = '7f3a9c1e-0b7d-4a65-9d2e-1c8b5a4f3e21'

const initialised = templateRepo(async repo => {
  await init(repo.ctx())
})

/** The provenance lines of a card file that say where it came from. */
const origin = (text: string) => text.split('\n').filter(l => /^ {2}(proposed_by|client|via|session):/.test(l))

/** What Claude Code does with CLAUDE_ENV_FILE before each Bash command: the exports, as the command's environment. */
function sourced(file: string): Record<string, string> {
  return Object.fromEntries(
    [...fs.readFileSync(file, 'utf8').matchAll(/^export ([A-Z_]+)=(\S+)$/gm)].map(m => [m[1], m[2]]),
  )
}

describe('provenance: who proposed a card, from which client and session, who approved it', () => {
  it("through the Claude Code hook path: session start exports the session, the agent's propose records it", async () => {
    const repo = await initialised()
    const envFile = path.join(repo.home, 'claude-env.sh')
    fs.writeFileSync(envFile, 'export PATH_EXTRA=1')
    const payload = JSON.stringify({
      session_id: SESSION,
      cwd: repo.dir,
      hook_event_name: 'SessionStart',
      source: 'startup',
    })
    const hookEnv = {...repo.env, CLAUDE_ENV_FILE: envFile}
    for (let i = 0; i < 2; i++) {
      const r = await cli(['hook', 'session-start', '--agent', 'claude'], {cwd: repo.dir, env: hookEnv, input: payload})
      expect(r.code).toBe(0)
    }
    // Once, after what was there; a second session start adds nothing.
    expect(fs.readFileSync(envFile, 'utf8')).toBe(
      `export PATH_EXTRA=1\nexport CAIRN_CLIENT=claude\nexport CAIRN_SESSION_ID=${SESSION}\n`,
    )
    const {source_sessions: _, ...fields} = card()
    const env = {...repo.env, CLAUDECODE: '1', ...sourced(envFile)}
    const r = await cli(['propose', '-', '--json'], {cwd: repo.dir, env, input: JSON.stringify(fields)})
    expect(r.code).toBe(0)
    expect(origin(repo.read(PENDING))).toEqual([
      '  proposed_by: tester',
      '  client: claude',
      '  via: cli',
      `  session: ${SESSION}`,
    ])
    expect(repo.read(PENDING)).toMatch(/^---\nschema: cairn\/card@5\n/)
    expect((await review(repo.ctx())).text).toContain(
      `\nProposed by: tester · claude session ${SESSION} · via cli · 2026-11-29T10:00:00Z\n`,
    )

    await approve(repo.ctx({actor: 'bob'}), {ids: ['deepmerge-array-replace-trap']})
    const text = await cli(['show', 'deepmerge-array-replace-trap', '--section', 'provenance'], {
      cwd: repo.dir,
      env: repo.env,
    })
    expect(text.stdout).toBe(
      [
        'proposed_by: tester',
        'client: claude',
        `session: ${SESSION}`,
        'via: cli',
        'created: 2026-11-29T10:00:00Z',
        'approved: bob at 2026-11-29T10:00:00Z',
        '',
      ].join('\n'),
    )
    // Every rewrite keeps it: a modify of the card, as an approve did.
    await modify(repo.ctx({actor: 'carol'}), {id: 'deepmerge-array-replace-trap', sets: ['load=core']})
    expect(origin(repo.read(ACTIVE))).toEqual([
      '  proposed_by: tester',
      '  client: claude',
      '  via: cli',
      `  session: ${SESSION}`,
    ])
    expect((await show(repo.ctx(), {id: 'deepmerge-array-replace-trap'})).card.approved).toEqual({
      by: 'bob',
      at: '2026-11-29T10:00:00Z',
    })
  })

  it('session start never writes through a link, nor into an env file past 1 MB', async () => {
    const repo = await initialised()
    const target = path.join(repo.home, 'elsewhere.sh')
    fs.writeFileSync(target, 'export KEEP=1\n')
    const link = path.join(repo.home, 'claude-env-link.sh')
    fs.symlinkSync(target, link)
    const big = path.join(repo.home, 'claude-env-big.sh')
    fs.writeFileSync(big, `# ${'x'.repeat(1024 * 1024)}\n`)
    const payload = JSON.stringify({session_id: SESSION, cwd: repo.dir, hook_event_name: 'SessionStart'})
    for (const file of [link, big]) {
      const env = {...repo.env, CLAUDE_ENV_FILE: file}
      const r = await cli(['hook', 'session-start', '--agent', 'claude'], {cwd: repo.dir, env, input: payload})
      expect(r.code).toBe(0)
    }
    expect(fs.readFileSync(target, 'utf8')).toBe('export KEEP=1\n')
    expect(fs.readFileSync(big, 'utf8')).not.toContain('CAIRN_SESSION_ID')
  })

  it("the environment each client gives its agent's commands names the client, and Codex's the session too", () => {
    expect(originFromEnv({})).toEqual({client: null, session: null, via: 'cli'})
    expect(originFromEnv({CLAUDECODE: '1'})).toEqual({client: 'claude', session: null, via: 'cli'})
    expect(originFromEnv({CODEX_THREAD_ID: '019d1afb-b2c7'})).toEqual({
      client: 'codex',
      session: '019d1afb-b2c7',
      via: 'cli',
    })
    expect(originFromEnv({GEMINI_CLI: '1'})).toEqual({client: 'gemini', session: null, via: 'cli'})
    expect(originFromEnv({CAIRN_CLIENT: 'aider', CAIRN_SESSION_ID: ' s-1 ', CLAUDECODE: '1'})).toEqual({
      client: 'aider',
      session: 's-1',
      via: 'cli',
    })
  })

  it('a merge into a pending card keeps who proposed it first; an import says so', async () => {
    const repo = await initialised()
    await propose(repo.ctx({origin: {client: 'codex', session: 'thread-1', via: 'cli'}}), {fields: card()})
    await propose(repo.ctx({actor: 'dave', origin: {client: 'gemini', session: 'g-2', via: 'cli'}}), {
      fields: card({source_sessions: ['session-1', 'session-2']}),
    })
    expect(origin(repo.read(PENDING))).toEqual([
      '  proposed_by: tester',
      '  client: codex',
      '  via: cli',
      '  session: thread-1',
    ])
    expect(repo.read(PENDING)).toContain('source_sessions: [session-1, session-2]')
    repo.write('CLAUDE.md', '## Testing\n\n- Run `npm test` before every push.\n')
    const r = await cli(['import', 'claude-md', '--json'], {cwd: repo.dir, env: sandboxEnv(repo.dir)})
    expect(r.code).toBe(0)
    const imported = repo.read(`.cairn/pending/guideline/${r.json().data.cards[0].id}.md`)
    // An import's source key is not a session: none is recorded.
    expect(origin(imported)).toEqual(['  proposed_by: tester', '  via: import'])
  })

  it('a card from before provenance keeps its format through an approve: older readers still read it', async () => {
    const repo = await initialised()
    await propose(repo.ctx({origin: {client: null, session: null, via: 'cli'}}), {fields: card()})
    // As a previous cairn wrote it: no origin fields, status draft, @2 for its derived triggers.
    const old = repo
      .read(PENDING)
      .replace(/\n {2}(proposed_by|via|session):.*/g, '')
      .replace('card@5', 'card@2')
      .replace('status: pending', 'status: draft')
    repo.write(PENDING, old)
    repo.git('commit', '-qam', 'as a previous cairn wrote it')
    await approve(repo.ctx({actor: 'bob'}), {ids: ['deepmerge-array-replace-trap']})
    expect(repo.read(ACTIVE)).toMatch(/^---\nschema: cairn\/card@2\n/)
    expect(origin(repo.read(ACTIVE))).toEqual([])
    expect((await show(repo.ctx(), {id: 'deepmerge-array-replace-trap', section: 'provenance'})).text).toContain(
      'proposed_by: (not recorded)\n',
    )
  })
})
