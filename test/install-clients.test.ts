import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {install} from '../src/app/install.js'
import {uninstall} from '../src/app/uninstall.js'
import {CURSOR_DOUBLE_FIRE, hookCommand, shellQuote} from '../src/domain/agents/index.js'
import {cliEntry} from '../src/store/agents/agent-files.js'
import {checkHookCommand} from '../src/store/agents/hook-check.js'
import {BIN, tempRepo} from './helpers.js'
import {shim, skillTemplates, tree, withPath} from './install-helpers.js'

const SKILL_FILES = ['cairn-archive/SKILL.md', 'cairn-archive/references/types.md', 'cairn-recall/SKILL.md']
const cmd = (event: string, agent: string) => `cairn hook ${event} --agent ${agent}`
const grouped = (event: string, agent: string, matcher?: string, extra: Record<string, unknown> = {}, timeout = 5) => [
  {...(matcher ? {matcher} : {}), hooks: [{...extra, type: 'command', command: cmd(event, agent), timeout}]},
]

describe("each client's settings file, whole", () => {
  it('codex: .codex/hooks.json, apply_patch and its Edit/Write aliases, seconds, SessionEnd', async () => {
    const repo = tempRepo()
    const r = await install(withPath(repo, shim(0)), {agent: 'codex', skillsRoot: skillTemplates()})
    const edits = 'apply_patch|Edit|Write'
    expect(JSON.parse(repo.read('.codex/hooks.json'))).toEqual({
      hooks: {
        SessionStart: grouped('session-start', 'codex'),
        UserPromptSubmit: grouped('user-prompt-submit', 'codex'),
        PreToolUse: grouped('pre-tool-use', 'codex', edits),
        PostToolUse: grouped('post-tool-use', 'codex', edits),
        Stop: grouped('stop', 'codex'),
        SessionEnd: grouped('session-end', 'codex'),
      },
    })
    expect(tree(path.join(repo.dir, '.agents/skills'))).toEqual(SKILL_FILES)
    expect(r.data.trust).toContain('/hooks')
    expect(r.data.trust).toContain('by hash')
  })

  it('cursor: .cursor/hooks.json with version 1, flat entries, no afterFileEdit or beforeSubmitPrompt', async () => {
    const repo = tempRepo()
    await install(withPath(repo, shim(0)), {agent: 'cursor', skillsRoot: skillTemplates()})
    const text = repo.read('.cursor/hooks.json')
    expect(text.startsWith('{\n  "version": 1,\n  "hooks": {\n')).toBe(true)
    expect(JSON.parse(text)).toEqual({
      version: 1,
      hooks: {
        sessionStart: [{command: cmd('session-start', 'cursor'), timeout: 5}],
        preToolUse: [{command: cmd('pre-tool-use', 'cursor'), matcher: 'Write', timeout: 5}],
        postToolUse: [{command: cmd('post-tool-use', 'cursor'), matcher: 'Write', timeout: 5}],
        stop: [{command: cmd('stop', 'cursor'), timeout: 5}],
        sessionEnd: [{command: cmd('session-end', 'cursor'), timeout: 5}],
      },
    })
    expect(tree(path.join(repo.dir, '.cursor/skills'))).toEqual(SKILL_FILES)
  })

  it("gemini: .gemini/settings.json, named hooks, write_file|replace, ms; the user's comments survive", async () => {
    const mine = '{\n  // my theme\n  "ui": {"theme": "GitHub"},\n}\n'
    const repo = tempRepo({'.gemini/settings.json': mine})
    const ctx = withPath(repo, shim(0))
    await install(ctx, {agent: 'gemini', skillsRoot: skillTemplates()})
    const text = repo.read('.gemini/settings.json')
    expect(text.startsWith('{\n  // my theme\n  "ui": {"theme": "GitHub"},\n')).toBe(true)
    const named = (event: string, matcher?: string) => grouped(event, 'gemini', matcher, {name: `cairn-${event}`}, 5000)
    expect(JSON.parse(text.replace('  // my theme\n', '').replace(/,(\s*[}\]])/g, '$1'))).toEqual({
      ui: {theme: 'GitHub'},
      hooks: {
        SessionStart: named('session-start'),
        BeforeAgent: named('user-prompt-submit'),
        BeforeTool: named('pre-tool-use', 'write_file|replace'),
        AfterTool: named('post-tool-use', 'write_file|replace'),
        AfterAgent: named('stop'),
        SessionEnd: named('session-end'),
      },
    })
    await uninstall(ctx, {agent: 'gemini', skillsRoot: skillTemplates()})
    expect(repo.read('.gemini/settings.json')).toBe(mine)
  })

  it('claude: a new .claude/settings.json, two-space indent and a final newline', async () => {
    const repo = tempRepo()
    await install(withPath(repo, shim(0)), {agent: 'claude', skillsRoot: skillTemplates()})
    const edits = 'Edit|Write|MultiEdit|NotebookEdit'
    const want = {
      hooks: {
        SessionStart: grouped('session-start', 'claude'),
        UserPromptSubmit: grouped('user-prompt-submit', 'claude'),
        PreToolUse: grouped('pre-tool-use', 'claude', edits),
        PostToolUse: grouped('post-tool-use', 'claude', edits),
        Stop: grouped('stop', 'claude'),
        SessionEnd: grouped('session-end', 'claude'),
      },
    }
    expect(repo.read('.claude/settings.json')).toBe(`${JSON.stringify(want, null, 2)}\n`)
  })
})

describe('user scope', () => {
  it('writes under $HOME with this copy of cairn by absolute path, and uninstall leaves $HOME as it was', async () => {
    const repo = tempRepo()
    const ctx = repo.ctx()
    const before = tree(repo.home)
    const r = await install(ctx, {agent: 'claude', scope: 'user', skillsRoot: skillTemplates()})
    const {node, script} = cliEntry()
    expect(script).toBe(BIN)
    const stop = `${shellQuote(node, false)} ${shellQuote(script, false)} hook stop --agent claude`
    expect(JSON.parse(fs.readFileSync(path.join(repo.home, '.claude/settings.json'), 'utf8')).hooks.Stop).toEqual([
      {hooks: [{type: 'command', command: stop, timeout: 5}]},
    ])
    expect(r.data.root).toBe(repo.home)
    expect(r.data.files[0].file).toBe('~/.claude/settings.json')
    expect(r.data.check?.command).toBe(stop.replace('hook stop', 'hook session-start'))
    expect(repo.git('status', '--porcelain')).toBe('')
    await uninstall(ctx, {agent: 'claude', scope: 'user', skillsRoot: skillTemplates()})
    expect(tree(repo.home)).toEqual(before)
  })

  it('warns when the same client already has cairn hooks at the other scope (every event would run twice)', async () => {
    const repo = tempRepo()
    const first = await install(repo.ctx(), {agent: 'claude', skillsRoot: skillTemplates()})
    expect(first.warnings ?? []).not.toContainEqual(expect.stringContaining('also installed'))
    const second = await install(repo.ctx(), {agent: 'claude', scope: 'user', skillsRoot: skillTemplates()})
    expect(second.warnings).toContainEqual(
      'cairn hooks for Claude Code are also installed at project scope, so every event would run twice. ' +
        'Keep one: cairn uninstall --agent claude --scope project',
    )
    await uninstall(repo.ctx(), {agent: 'claude', scope: 'user', skillsRoot: skillTemplates()})
  })

  it('writes through a symlinked settings file (a dotfiles repository) and keeps its permissions', async () => {
    const repo = tempRepo()
    const dotfiles = path.join(repo.home, 'dotfiles')
    fs.mkdirSync(dotfiles)
    fs.mkdirSync(path.join(repo.home, '.claude'))
    fs.writeFileSync(path.join(dotfiles, 'claude.json'), '{"model": "opus"}\n', {mode: 0o600})
    fs.symlinkSync(path.join(dotfiles, 'claude.json'), path.join(repo.home, '.claude/settings.json'))
    await install(repo.ctx(), {agent: 'claude', scope: 'user', skillsRoot: skillTemplates()})
    expect(fs.lstatSync(path.join(repo.home, '.claude/settings.json')).isSymbolicLink()).toBe(true)
    expect(JSON.parse(fs.readFileSync(path.join(dotfiles, 'claude.json'), 'utf8')).hooks.Stop).toHaveLength(1)
    expect(fs.statSync(path.join(dotfiles, 'claude.json')).mode & 0o777).toBe(0o600)
    await uninstall(repo.ctx(), {agent: 'claude', scope: 'user', skillsRoot: skillTemplates()})
    expect(fs.readFileSync(path.join(dotfiles, 'claude.json'), 'utf8')).toBe('{"model": "opus"}\n')
    expect(fs.lstatSync(path.join(repo.home, '.claude/settings.json')).isSymbolicLink()).toBe(true)
  })

  it('a stale absolute command (node moved) is updated in place, not added twice', async () => {
    const repo = tempRepo()
    const old = hookCommand(
      {kind: 'absolute', node: '/old/node', script: '/old/lib/node_modules/cairn-memory/bin/run.js'},
      'stop',
      'claude',
    )
    const settings = {hooks: {Stop: [{hooks: [{type: 'command', command: old, timeout: 5}]}]}}
    fs.mkdirSync(path.join(repo.home, '.claude'), {recursive: true})
    fs.writeFileSync(path.join(repo.home, '.claude/settings.json'), JSON.stringify(settings, null, 2))
    const r = await install(repo.ctx(), {agent: 'claude', scope: 'user', skillsRoot: skillTemplates()})
    const stop = JSON.parse(fs.readFileSync(path.join(repo.home, '.claude/settings.json'), 'utf8')).hooks.Stop
    const command = hookCommand({kind: 'absolute', ...cliEntry()}, 'stop', 'claude')
    expect(stop).toEqual([{hooks: [{type: 'command', command, timeout: 5}]}])
    expect(r.data.hooks.find(h => h.clientEvent === 'Stop')?.action).toBe('updated')
  })
})

describe('the hook command check', () => {
  it('passes for a command that exits 0, fed a session-start payload in an empty directory', () => {
    const dir = shim(0)
    const env = {...process.env, PATH: `${dir}:${process.env.PATH}`}
    const r = checkHookCommand(cmd('session-start', 'cursor'), cwd => ({workspace_roots: [cwd]}), env)
    expect(r).toEqual({command: cmd('session-start', 'cursor'), ok: true, exitCode: 0})
    expect(fs.readFileSync(path.join(dir, 'args'), 'utf8')).toBe('hook session-start --agent cursor\n')
    const payload = JSON.parse(fs.readFileSync(path.join(dir, 'stdin.json'), 'utf8'))
    expect(fs.existsSync(payload.workspace_roots[0])).toBe(false)
  })

  it('fails for a command that exits 1, with its stderr as the reason', () => {
    const dir = shim(1)
    const env = {...process.env, PATH: `${dir}:${process.env.PATH}`}
    const r = checkHookCommand(cmd('session-start', 'claude'), () => ({}), env)
    expect(r).toEqual({command: cmd('session-start', 'claude'), ok: false, exitCode: 1, reason: 'hook failed'})
  })

  it('reports the exit code of a command that quits without reading its stdin (EPIPE)', () => {
    const r = checkHookCommand('exit 3', () => ({pad: 'x'.repeat(1_000_000)}), process.env)
    expect(r).toEqual({command: 'exit 3', ok: false, exitCode: 3, reason: 'exit code 3'})
  })

  it('without cairn on PATH install still writes, and warns with the fix', async () => {
    const repo = tempRepo()
    const ctx = repo.ctx({env: {...repo.env, PATH: '/usr/bin:/bin'}})
    const r = await install(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    expect(r.data.check?.ok).toBe(false)
    expect(r.data.check?.exitCode).toBe(127)
    expect(fs.existsSync(path.join(repo.dir, '.claude/settings.json'))).toBe(true)
    expect(r.warnings ?? []).toHaveLength(1)
    expect(r.warnings?.[0]).toMatch(
      /^the hook command "cairn hook session-start --agent claude" did not run here \(.*not found\)/,
    )
    expect(r.warnings?.[0]).toContain('npm i -g cairn-memory')
    expect(r.warnings?.[0]).toContain('--scope user')
  })
})

describe('Claude Code and Cursor together', () => {
  it('warns that Cursor would run the Claude Code hooks too', async () => {
    const repo = tempRepo()
    const ctx = withPath(repo, shim(0))
    const claude = await install(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    expect(claude.warnings).toEqual([])
    const cursor = await install(ctx, {agent: 'cursor', skillsRoot: skillTemplates()})
    expect(cursor.warnings).toEqual([CURSOR_DOUBLE_FIRE])
    const again = await install(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    expect(again.warnings).toEqual([CURSOR_DOUBLE_FIRE])
    // Each client's uninstall takes out only its own entries.
    await uninstall(ctx, {agent: 'cursor', skillsRoot: skillTemplates()})
    expect(fs.existsSync(path.join(repo.dir, '.cursor'))).toBe(false)
    expect(JSON.parse(repo.read('.claude/settings.json')).hooks.Stop).toEqual(grouped('stop', 'claude'))
  })
})
