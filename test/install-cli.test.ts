import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {cliInProcess} from './cli-in-process.js'
import {cli, tempRepo} from './helpers.js'
import {shim, USER_SETTINGS} from './install-helpers.js'

/** The command contract: flags, the envelope, the text, exit codes. Needs `npm run build`. */
describe('cairn install / uninstall on the command line', () => {
  it('install --json, again, then uninstall: the envelope, the no-op and the original bytes', async () => {
    const repo = tempRepo({'.claude/settings.json': USER_SETTINGS})
    const env = {...repo.env, PATH: `${shim(0)}${path.delimiter}${process.env.PATH}`}
    const r = await cli(['install', '--agent', 'claude', '--json'], {cwd: repo.dir, env})
    expect(r.code).toBe(0)
    const data = r.json().data
    expect(r.json().ok).toBe(true)
    const {agent, client, scope, root, changed, check} = data
    expect({agent, client, scope, root, changed, check}).toEqual({
      agent: 'claude',
      client: 'Claude Code',
      scope: 'project',
      root: repo.dir,
      changed: true,
      check: {command: 'cairn hook session-start --agent claude', ok: true, exitCode: 0},
    })
    const settings = path.join(repo.dir, '.claude/settings.json')
    expect(data.files[0]).toEqual({file: '.claude/settings.json', path: settings, kind: 'settings', action: 'modified'})
    expect(data.hooks).toHaveLength(6)

    const text = await cli(['install', '--agent', 'claude'], {cwd: repo.dir, env})
    expect(text.code).toBe(0)
    expect(text.stdout.split('\n')[0]).toBe(
      `cairn is already installed for Claude Code (project scope, ${repo.dir}); nothing changed.`,
    )
    expect(text.stdout).toContain('Next: Claude Code: start a new session in this project')

    const dry = await cli(['uninstall', '--agent', 'claude', '--dry-run'], {cwd: repo.dir, env})
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain(
      '  restore  .claude/settings.json: 6 hook entries removed ' +
        '(SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SessionEnd)',
    )
    expect(dry.stdout).toContain('--- a/.claude/settings.json\n+++ b/.claude/settings.json\n')
    expect(dry.stdout.trimEnd().endsWith('Dry run: nothing was written.')).toBe(true)

    const u = await cli(['uninstall', '--agent', 'claude'], {cwd: repo.dir, env})
    expect(u.code).toBe(0)
    expect(repo.read('.claude/settings.json')).toBe(USER_SETTINGS)
  })

  it('invalid JSON exits 6 with the file and the fix; an unknown agent is a usage error', async () => {
    const repo = tempRepo({'.codex/hooks.json': '{"hooks": {'})
    const r = await cli(['install', '--agent', 'codex', '--json'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(6)
    expect(r.json().error.code).toBe('validation')
    expect(r.json().error.message).toContain('.codex/hooks.json: line 1, column 12: not valid JSON')
    expect(repo.read('.codex/hooks.json')).toBe('{"hooks": {')
    const bad = await cliInProcess(['install', '--agent', 'copilot'], {cwd: repo.dir, env: repo.env})
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--agent "copilot" is not one of claude, codex, cursor, gemini. Fix: use one of them.')
  })
})
