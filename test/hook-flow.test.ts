import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {install} from '../src/app/install.js'
import {hookRepo, settle} from './hook-helpers.js'
import {BIN, FIXED_NOW, tempDir} from './helpers.js'

/** A `cairn` on PATH that runs this checkout, as `npm i -g cairn-memory` would provide. */
function cairnOnPath(): string {
  const dir = tempDir('cairn-bin-')
  fs.writeFileSync(path.join(dir, 'cairn'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
  fs.chmodSync(path.join(dir, 'cairn'), 0o755)
  return dir
}

describe('the flow end to end (Claude Code)', () => {
  it('install, then a recorded session: SessionStart → UserPromptSubmit → PreToolUse(Edit) → PostToolUse → Stop', async () => {
    const repo = await hookRepo()
    const env = {...repo.env, PATH: `${cairnOnPath()}${path.delimiter}${process.env.PATH}`}
    const installed = await install(repo.ctx({env}), {agent: 'claude'})
    expect(installed.data.check?.ok).toBe(true)
    const settings = JSON.parse(repo.read('.claude/settings.json'))
    // What Claude Code would run for an event: every command hook registered for it (matcher aside).
    const commandsFor = (event: string): string[] =>
      (settings.hooks[event] ?? []).flatMap((g: {hooks: {command: string}[]}) => g.hooks.map(h => h.command))
    const run = (event: string, payload: object): string[] =>
      commandsFor(event).map(command => {
        const r = spawnSync('sh', ['-c', command], {
          cwd: path.dirname(repo.dir),
          input: JSON.stringify(payload),
          encoding: 'utf8',
          env,
        })
        expect(r.status).toBe(0)
        return r.stdout.trim()
      })
    const common = {
      session_id: 'rec-1',
      transcript_path: path.join(repo.dir, '..', 'rec-1.jsonl'),
      cwd: repo.dir,
      permission_mode: 'default',
    }
    fs.writeFileSync(
      common.transcript_path,
      [
        {
          type: 'user',
          message: {role: 'user', content: 'The flaky login test failed again; also add a users.email migration'},
        },
        {type: 'assistant', message: {role: 'assistant', content: [{type: 'text', text: 'On it.'}]}},
      ]
        .map(l => JSON.stringify(l))
        .join('\n'),
    )

    run('SessionStart', {...common, hook_event_name: 'SessionStart', source: 'startup'})
    await settle(repo)
    const [start] = run('SessionStart', {...common, hook_event_name: 'SessionStart', source: 'startup'})
    expect(JSON.parse(start).hookSpecificOutput.additionalContext.split('\n\n')[1]).toBe(
      '### Run the tests before pushing (run-tests-before-push)\nRun npm test before every git push.',
    )

    const [prompt] = run('UserPromptSubmit', {
      ...common,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'The flaky login test failed again; also add a users.email migration',
    })
    const promptContext: string = JSON.parse(prompt).hookSpecificOutput.additionalContext
    expect(promptContext).toContain('flaky-login-test')

    const file = path.join(repo.dir, 'db/migrations/004_users_email.sql')
    const edit = {
      ...common,
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: {file_path: file, old_string: '', new_string: 'x'},
      tool_use_id: 't1',
    }
    const pre = run('PreToolUse', edit).filter(Boolean)
    expect(pre.map(o => JSON.parse(o))).toEqual([
      {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          additionalContext:
            'cairn: cards for db/migrations/004_users_email.sql (read a rule with `cairn show ID --section rule`):\n' +
            '- [must] Back up before a migration (backup-before-migration): Take a database backup before running any migration.',
        },
      },
    ])

    expect(run('PostToolUse', {...edit, hook_event_name: 'PostToolUse', tool_response: {success: true}})).toEqual([''])

    const [stop] = run('Stop', {
      ...common,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'Migration added after a backup.',
    })
    // Two prompts and one edit since no proposal: not enough events, but nothing was ever proposed
    // in this store, and the first event is less than a day old, so no archive signal yet.
    expect(stop).toBe('')
    expect(repo.read('.cairn/.local/digests/rec-1.md')).toBe(
      [
        '# The flaky login test failed again; also add a users.email migration',
        '',
        `session: rec-1 · agent: claude · ${new Date(FIXED_NOW).toISOString()}`,
        '',
        '## First user messages',
        '',
        '1. The flaky login test failed again; also add a users.email migration',
        '',
        '## Edited paths',
        '',
        '- db/migrations/004_users_email.sql',
        '',
        '## Last assistant message',
        '',
        'Migration added after a backup.',
        '',
      ].join('\n'),
    )
    const events = repo
      .read('.cairn/.local/events.jsonl')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l))
    expect(events.map(e => [e.event, e.session, e.cards ?? e.paths ?? null])).toEqual([
      ['session_start', 'rec-1', null],
      ['session_start', 'rec-1', null],
      ['prompt', 'rec-1', null],
      ['card_shown', 'rec-1', ['flaky-login-test']],
      ['card_shown', 'rec-1', ['backup-before-migration']],
      ['edit', 'rec-1', ['db/migrations/004_users_email.sql']],
    ])
  })
})
