import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {install} from '../src/app/install.js'
import {uninstall, type UninstallResult} from '../src/app/uninstall.js'
import {renderUninstall} from '../src/cli/render-install.js'
import {hookCommand, sha256} from '../src/domain/agents/index.js'
import {cliEntry} from '../src/store/agents/agent-files.js'
import {type Repo, tempRepo} from './helpers.js'
import {shim, skillTemplates, USER_SETTINGS, withPath} from './install-helpers.js'

/**
 * What the user adds to a settings file between two installs is theirs: uninstall gives back the bytes from
 * before install only while the file is still byte for byte what cairn last wrote, and --dry-run says which.
 */
const GEMINI = '{\n  // mine\n  "vimMode": true\n}\n'

/** The dry run's settings diff, applied with git: what it says uninstall will leave. */
function applied(repo: Repo, dry: UninstallResult, rel: string): string {
  const installed = repo.read(rel)
  repo.write('change.diff', `${dry.files.find(f => f.file === rel)?.diff}\n`)
  repo.git('apply', 'change.diff')
  const after = repo.read(rel)
  fs.rmSync(path.join(repo.dir, 'change.diff'))
  repo.write(rel, installed)
  return after
}

describe('settings the user added after install', () => {
  it('gemini: a line added between install and install --mcp survives uninstall, and the dry run says modify', async () => {
    const repo = tempRepo({'.gemini/settings.json': GEMINI})
    const ctx = withPath(repo, shim(0))
    const skillsRoot = skillTemplates()
    await install(ctx, {agent: 'gemini', skillsRoot})
    const rel = '.gemini/settings.json'
    repo.write(rel, repo.read(rel).replace('"vimMode": true,', '"vimMode": true,\n  "theme": "dark",'))
    const mcp = await install(ctx, {agent: 'gemini', mcp: true, skillsRoot})
    expect(mcp.data.mcp?.action).toBe('added')
    const kept = '{\n  // mine\n  "vimMode": true,\n  "theme": "dark"\n}\n'

    const dry = await uninstall(ctx, {agent: 'gemini', dryRun: true, skillsRoot})
    expect(dry.data.files[0]).toMatchObject({file: rel, action: 'modified'})
    expect(applied(repo, dry.data, rel)).toBe(kept)
    const text = renderUninstall(dry.data)
    expect(text).toContain(
      '  modify   .gemini/settings.json: 6 hook entries removed (SessionStart, BeforeAgent, BeforeTool, ' +
        'AfterTool, AfterAgent, SessionEnd); MCP server "cairn" removed',
    )
    expect(text).not.toContain('restore')

    const u = await uninstall(ctx, {agent: 'gemini', skillsRoot})
    expect(u.data.files.map(f => f.action)).toEqual(dry.data.files.map(f => f.action))
    expect(repo.read(rel)).toBe(kept)
  })

  it('claude, user scope: a line added before install runs again from another node survives uninstall', async () => {
    const repo = tempRepo()
    const ctx = repo.ctx()
    const skillsRoot = skillTemplates()
    const file = path.join(repo.home, '.claude/settings.json')
    fs.mkdirSync(path.dirname(file))
    fs.writeFileSync(file, USER_SETTINGS)
    await install(ctx, {agent: 'claude', scope: 'user', skillsRoot})
    // As if that install had run from node at /old/node: its commands name it, and its record the bytes it wrote.
    const {node, script} = cliEntry()
    const here = (e: string) => hookCommand({kind: 'absolute', node, script}, e as 'stop', 'claude')
    const there = (e: string) => hookCommand({kind: 'absolute', node: '/old/node', script}, e as 'stop', 'claude')
    const events = ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop', 'session-end']
    const old = events.reduce((text, e) => text.replace(here(e), there(e)), fs.readFileSync(file, 'utf8'))
    fs.writeFileSync(file, old)
    const recordFile = path.join(repo.home, '.cairn/.local/install/claude-user.json')
    const record = JSON.parse(fs.readFileSync(recordFile, 'utf8'))
    record.files['.claude/settings.json'].written = sha256(old)
    fs.writeFileSync(recordFile, JSON.stringify(record))
    // The user adds a setting; then install runs from this node, and updates the six commands.
    fs.writeFileSync(file, old.replace('"model": "opus",', '"model": "opus",\n    "theme": "dark",'))
    const again = await install(ctx, {agent: 'claude', scope: 'user', skillsRoot})
    expect(again.data.hooks.map(h => h.action)).toEqual(Array(6).fill('updated'))

    const dry = await uninstall(ctx, {agent: 'claude', scope: 'user', dryRun: true, skillsRoot})
    expect(dry.data.files[0]).toMatchObject({file: '~/.claude/settings.json', action: 'modified'})
    expect(renderUninstall(dry.data)).toContain('  modify   ~/.claude/settings.json: 6 hook entries removed')
    const u = await uninstall(ctx, {agent: 'claude', scope: 'user', skillsRoot})
    expect(u.data.files[0].action).toBe('modified')
    expect(fs.readFileSync(file, 'utf8')).toBe(
      USER_SETTINGS.replace('"model": "opus",', '"model": "opus",\n    "theme": "dark",'),
    )
  })

  it('a file only cairn changed since the first install still gets its bytes back, and the dry run says restore', async () => {
    const repo = tempRepo({'.gemini/settings.json': GEMINI})
    const ctx = withPath(repo, shim(0))
    const skillsRoot = skillTemplates()
    await install(ctx, {agent: 'gemini', skillsRoot})
    await install(ctx, {agent: 'gemini', mcp: true, skillsRoot})
    const dry = await uninstall(ctx, {agent: 'gemini', dryRun: true, skillsRoot})
    expect(dry.data.files[0]).toMatchObject({file: '.gemini/settings.json', action: 'restored'})
    expect(renderUninstall(dry.data)).toContain('  restore  .gemini/settings.json: 6 hook entries removed')
    expect(applied(repo, dry.data, '.gemini/settings.json')).toBe(GEMINI)
    await uninstall(ctx, {agent: 'gemini', skillsRoot})
    expect(repo.read('.gemini/settings.json')).toBe(GEMINI)
  })

  it("a file install created, then edited by the user, keeps their line; emptied of all but cairn's, it goes", async () => {
    const repo = tempRepo()
    const ctx = withPath(repo, shim(0))
    const skillsRoot = skillTemplates()
    const rel = '.gemini/settings.json'
    await install(ctx, {agent: 'gemini', skillsRoot})
    repo.write(rel, repo.read(rel).replace('{\n', '{\n  "theme": "dark",\n'))
    await install(ctx, {agent: 'gemini', mcp: true, skillsRoot})
    await uninstall(ctx, {agent: 'gemini', skillsRoot})
    expect(repo.read(rel)).toBe('{\n  "theme": "dark"\n}\n')

    // Reformatted by the user between installs (nothing of theirs added): uninstall still deletes what install made.
    fs.rmSync(path.join(repo.dir, '.gemini'), {recursive: true})
    await install(ctx, {agent: 'gemini', skillsRoot})
    repo.write(rel, `${JSON.stringify(JSON.parse(repo.read(rel)), null, 4)}\n`)
    await install(ctx, {agent: 'gemini', mcp: true, skillsRoot})
    const u = await uninstall(ctx, {agent: 'gemini', skillsRoot})
    expect(u.data.files[0]).toMatchObject({file: rel, action: 'deleted'})
    expect(fs.existsSync(path.join(repo.dir, '.gemini'))).toBe(false)
  })
})
