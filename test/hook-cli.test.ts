import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {feed, hookRepo, settle} from './hook-helpers.js'
import {cliInProcess} from './cli-in-process.js'
import {BIN, cli, ROOT} from './helpers.js'
import {spawnSync} from 'node:child_process'

/** `cairn hook` as the client runs it: a process, stdin in, stdout out, exit 0. */
describe('cairn hook (process)', () => {
  it('answers a prompt on the fast path without loading oclif, YAML, zod or a git library', async () => {
    const repo = await hookRepo()
    await feed(repo, 'claude', 'session-start', {session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart'})
    await settle(repo)
    const trace = path.join(repo.dir, '..', 'imports.txt')
    const payload = JSON.stringify({
      session_id: 's',
      cwd: repo.dir,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'the flaky login test failed again',
    })
    // Run from another directory: the store comes from the payload's cwd.
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        path.join(ROOT, 'test/fixtures/trace-imports.mjs'),
        BIN,
        'hook',
        'user-prompt-submit',
        '--agent',
        'claude',
      ],
      {
        cwd: path.dirname(repo.dir),
        input: payload,
        encoding: 'utf8',
        env: {...repo.env, CAIRN_TRACE_IMPORTS: trace},
      },
    )
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('flaky-login-test')
    const loaded = fs.readFileSync(trace, 'utf8').split('\n').filter(Boolean)
    expect(loaded.some(u => u.includes('/dist/hook/run.js'))).toBe(true)
    expect(
      loaded.filter(u => /node_modules\/(@oclif|yaml|zod|simple-git|isomorphic-git|@secretlint)\//.test(u)),
    ).toEqual([])
  })

  it('exits 0 with nothing on stdout for garbage, and --help documents it through oclif', async () => {
    const repo = await hookRepo()
    const bad = await cli(['hook', 'stop', '--agent', 'claude'], {cwd: repo.dir, env: repo.env, input: 'not json'})
    expect([bad.code, bad.stdout]).toEqual([0, ''])
    const help = await cliInProcess(['hook', '--help'], {cwd: repo.dir, env: repo.env})
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('--agent=<option>')
    expect(help.stdout).toContain('(session-start|user-prompt-submit|pre-tool-use')
  })
})
