import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {install} from '../src/app/install.js'
import {uninstall} from '../src/app/uninstall.js'
import {tempRepo} from './helpers.js'
import {shim, skillTemplates, withPath} from './install-helpers.js'

/**
 * Hook commands the user built around `cairn hook` (a compound command, an env prefix, a wrapper) are the
 * user's: install adds cairn's own entry beside each, and uninstall takes out only the entries cairn wrote.
 */
const NOTIFY = '/usr/local/bin/notify-me.sh && cairn hook stop --agent claude'
const DEADLINE = 'CAIRN_HOOK_DEADLINE_MS=3000 cairn hook user-prompt-submit --agent claude'
const WRAPPED = '/usr/local/bin/with-secrets cairn hook session-start --agent claude'
const mine = (command: string) => ({hooks: [{type: 'command', command}]})
const MINE = `${JSON.stringify(
  {
    hooks: {Stop: [mine(NOTIFY)], UserPromptSubmit: [mine(DEADLINE)], SessionStart: [mine(WRAPPED)]},
  },
  null,
  2,
)}\n`
const cairn = (event: string, matcher?: string) => ({
  ...(matcher ? {matcher} : {}),
  hooks: [{type: 'command', command: `cairn hook ${event} --agent claude`, timeout: 5}],
})
const EDITS = 'Edit|Write|MultiEdit|NotebookEdit'

describe('hook commands the user wrote around cairn', () => {
  it("install keeps them byte for byte and adds cairn's own entry beside each", async () => {
    const repo = tempRepo({'.claude/settings.json': MINE})
    const r = await install(withPath(repo, shim(0)), {agent: 'claude', skillsRoot: skillTemplates()})
    expect(r.data.hooks.map(h => `${h.action} ${h.clientEvent}`)).toEqual([
      'added SessionStart',
      'added UserPromptSubmit',
      'added PreToolUse',
      'added PostToolUse',
      'added Stop',
      'added SessionEnd',
    ])
    const text = repo.read('.claude/settings.json')
    for (const command of [NOTIFY, DEADLINE, WRAPPED]) expect(text).toContain(`"command": ${JSON.stringify(command)}\n`)
    expect(JSON.parse(text)).toEqual({
      hooks: {
        Stop: [mine(NOTIFY), cairn('stop')],
        UserPromptSubmit: [mine(DEADLINE), cairn('user-prompt-submit')],
        SessionStart: [mine(WRAPPED), cairn('session-start')],
        PreToolUse: [cairn('pre-tool-use', EDITS)],
        PostToolUse: [cairn('post-tool-use', EDITS)],
        SessionEnd: [cairn('session-end')],
      },
    })
    // A second install finds cairn's six and nothing of the user's to update.
    const again = await install(withPath(repo, shim(0)), {agent: 'claude', skillsRoot: skillTemplates()})
    expect([again.data.changed, again.data.hooks.map(h => h.action)]).toEqual([false, Array(6).fill('present')])
  })

  it("uninstall from the file alone (no install record) takes out cairn's six entries and leaves theirs", async () => {
    const repo = tempRepo({'.claude/settings.json': MINE})
    const ctx = withPath(repo, shim(0))
    await install(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    // A teammate's machine: the installed settings are committed, and install never ran here.
    fs.rmSync(path.join(repo.home, '.cairn'), {recursive: true, force: true})
    const r = await uninstall(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    expect(r.data.hooks.map(h => h.command)).toEqual(
      ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop', 'session-end'].map(
        e => `cairn hook ${e} --agent claude`,
      ),
    )
    expect(r.data.files[0]).toMatchObject({file: '.claude/settings.json', action: 'modified'})
    expect(repo.read('.claude/settings.json')).toBe(MINE)
  })

  it("uninstall leaves a settings file holding only the user's commands as it is", async () => {
    const repo = tempRepo({'.claude/settings.json': MINE})
    const r = await uninstall(withPath(repo, shim(0)), {agent: 'claude', skillsRoot: skillTemplates()})
    expect(r.data.changed).toBe(false)
    expect(r.data.hooks).toEqual([])
    expect(r.data.files).toEqual([
      {
        file: '.claude/settings.json',
        path: path.join(repo.dir, '.claude/settings.json'),
        kind: 'settings',
        action: 'unchanged',
        note: 'holds no cairn hooks for Claude Code',
      },
    ])
    expect(repo.read('.claude/settings.json')).toBe(MINE)
  })
})
