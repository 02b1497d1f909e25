import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {install} from '../src/app/install.js'
import {uninstall} from '../src/app/uninstall.js'
import {initRepo, refusal, tempRepo} from './helpers.js'
import {shim, skillTemplates, tree, USER_SETTINGS, withPath} from './install-helpers.js'

const CLAUDE_HOOKS = {
  SessionStart: [{hooks: [{type: 'command', command: 'cairn hook session-start --agent claude', timeout: 5}]}],
  UserPromptSubmit: [{hooks: [{type: 'command', command: 'cairn hook user-prompt-submit --agent claude', timeout: 5}]}],
  SessionEnd: [{hooks: [{type: 'command', command: 'cairn hook session-end --agent claude', timeout: 5}]}],
}
const cairnGroup = (event: string, matcher?: string) => ({
  ...(matcher ? {matcher} : {}),
  hooks: [{type: 'command', command: `cairn hook ${event} --agent claude`, timeout: 5}],
})
const EDITS = 'Edit|Write|MultiEdit|NotebookEdit'

describe('cairn install --agent claude (project scope)', () => {
  it("merges into settings that hold the user's own hooks and permissions, keeping all of it", async () => {
    const repo = tempRepo({'.claude/settings.json': USER_SETTINGS})
    const ctx = withPath(repo, shim(0))
    const r = await install(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    const user = JSON.parse(USER_SETTINGS)
    expect(JSON.parse(repo.read('.claude/settings.json'))).toEqual({
      permissions: user.permissions,
      model: 'opus',
      hooks: {
        PreToolUse: [...user.hooks.PreToolUse, cairnGroup('pre-tool-use', EDITS)],
        Stop: [...user.hooks.Stop, cairnGroup('stop')],
        SessionStart: CLAUDE_HOOKS.SessionStart,
        UserPromptSubmit: CLAUDE_HOOKS.UserPromptSubmit,
        PostToolUse: [cairnGroup('post-tool-use', EDITS)],
        SessionEnd: CLAUDE_HOOKS.SessionEnd,
      },
    })
    // In place: the user's lines are untouched and the file keeps its 4-space indent.
    const text = repo.read('.claude/settings.json')
    expect(text.startsWith(USER_SETTINGS.split('\n').slice(0, 13).join('\n'))).toBe(true)
    expect(text).toContain('\n                        "command": "cairn hook stop --agent claude",\n')
    expect(r.data.changed).toBe(true)
    expect(r.data.hooks.map(h => `${h.action} ${h.clientEvent}`)).toEqual([
      'added SessionStart',
      'added UserPromptSubmit',
      'added PreToolUse',
      'added PostToolUse',
      'added Stop',
      'added SessionEnd',
    ])
    expect(r.data.files.map(f => `${f.action} ${f.file}`)).toEqual([
      'modified .claude/settings.json',
      'created .claude/skills/cairn-archive/SKILL.md',
      'created .claude/skills/cairn-archive/references/types.md',
      'created .claude/skills/cairn-recall/SKILL.md',
    ])
    expect(r.data.check).toEqual({command: 'cairn hook session-start --agent claude', ok: true, exitCode: 0})
    expect(r.warnings).toEqual([])
    // Nothing is committed or staged.
    expect(repo.git('status', '--porcelain')).toBe(' M .claude/settings.json\n?? .claude/skills/\n')
  })

  it('a second install changes nothing: same bytes, and it says so', async () => {
    const repo = tempRepo({'.claude/settings.json': USER_SETTINGS})
    const ctx = withPath(repo, shim(0))
    const skills = skillTemplates()
    await install(ctx, {agent: 'claude', skillsRoot: skills})
    const first = repo.read('.claude/settings.json')
    const again = await install(ctx, {agent: 'claude', skillsRoot: skills})
    expect(repo.read('.claude/settings.json')).toBe(first)
    expect(again.data.changed).toBe(false)
    expect(again.data.hooks.every(h => h.action === 'present')).toBe(true)
    expect(again.data.files.map(f => f.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged'])
  })

  it('uninstall gives back the original bytes, and removes the skills and the folders install made', async () => {
    const repo = tempRepo({'.claude/settings.json': USER_SETTINGS})
    const ctx = withPath(repo, shim(0))
    const skills = skillTemplates()
    await install(ctx, {agent: 'claude', skillsRoot: skills})
    await install(ctx, {agent: 'claude', skillsRoot: skills})
    const r = await uninstall(ctx, {agent: 'claude', skillsRoot: skills})
    expect(repo.read('.claude/settings.json')).toBe(USER_SETTINGS)
    expect(tree(path.join(repo.dir, '.claude'))).toEqual(['settings.json'])
    expect(r.data.files.map(f => `${f.action} ${f.file}`)).toEqual([
      'restored .claude/settings.json',
      'deleted .claude/skills/cairn-archive/SKILL.md',
      'deleted .claude/skills/cairn-archive/references/types.md',
      'deleted .claude/skills/cairn-recall/SKILL.md',
    ])
    expect(r.data.hooks).toHaveLength(6)
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('a file install created is deleted on uninstall, with the .claude folder it made', async () => {
    const repo = tempRepo()
    const ctx = withPath(repo, shim(0))
    await install(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    expect(fs.existsSync(path.join(repo.dir, '.claude/settings.json'))).toBe(true)
    await uninstall(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    expect(fs.existsSync(path.join(repo.dir, '.claude'))).toBe(false)
  })

  it("after the user changed the file, uninstall takes out only cairn's entries and keeps their edit", async () => {
    const repo = tempRepo({'.claude/settings.json': USER_SETTINGS})
    const ctx = withPath(repo, shim(0))
    await install(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    const edited = repo.read('.claude/settings.json').replace('"model": "opus"', '"model": "sonnet"')
    repo.write('.claude/settings.json', edited)
    const r = await uninstall(ctx, {agent: 'claude', skillsRoot: skillTemplates()})
    expect(r.data.files[0].action).toBe('modified')
    expect(repo.read('.claude/settings.json')).toBe(USER_SETTINGS.replace('"model": "opus"', '"model": "sonnet"'))
  })

  it('--dry-run writes nothing and shows the diff', async () => {
    const repo = tempRepo({'.claude/settings.json': USER_SETTINGS})
    const ctx = withPath(repo, shim(0))
    const skills = skillTemplates()
    const r = await install(ctx, {agent: 'claude', dryRun: true, skillsRoot: skills})
    expect(repo.read('.claude/settings.json')).toBe(USER_SETTINGS)
    expect(fs.existsSync(path.join(repo.dir, '.claude/skills'))).toBe(false)
    expect(fs.existsSync(path.join(repo.home, '.cairn'))).toBe(false)
    expect(r.data.check).toBeNull()
    const diff = r.data.files[0].diff as string
    expect(diff.split('\n').slice(0, 2)).toEqual(['--- a/.claude/settings.json', '+++ b/.claude/settings.json'])
    expect(diff).toContain('+                        "command": "cairn hook pre-tool-use --agent claude",')
    // Only additions: two hunks, not a line of the user's taken out.
    const heads = diff.split('\n').filter(l => l.startsWith('@@') || /^-(?!--)/.test(l))
    expect(heads).toEqual(['@@ -20,6 +20,16 @@', '@@ -30,7 +40,61 @@'])
    expect(r.data.files[1].diff).toBe(
      [
        '--- /dev/null',
        '+++ b/.claude/skills/cairn-archive/SKILL.md',
        '@@ -0,0 +1,5 @@',
        '+---',
        '+name: cairn-archive',
        '+description: Archive a lesson as a card.',
        '+---',
        '+Run cairn propose.',
      ].join('\n'),
    )
    // The diffs are exactly install's change: applied with git, a real install then finds nothing to do.
    repo.write('change.diff', `${r.data.files.map(f => f.diff).join('\n')}\n`)
    repo.git('apply', 'change.diff')
    fs.rmSync(path.join(repo.dir, 'change.diff'))
    const real = await install(ctx, {agent: 'claude', skillsRoot: skills})
    expect(real.data.changed).toBe(false)
  })

  it('refuses invalid JSON with exit 6, naming the file, the place and the fix, and writes nothing', async () => {
    const broken = '{\n  "permissions": {"allow": ["Bash(ls)",]}\n}\n'
    const repo = tempRepo({'.claude/settings.json': broken})
    const ctx = withPath(repo, shim(0))
    const e = await refusal(() => install(ctx, {agent: 'claude', skillsRoot: skillTemplates()}))
    expect(e.exitCode).toBe(6)
    expect(e.message).toContain('.claude/settings.json: line 2, column 40: not valid JSON (value expected)')
    expect(e.message).toContain(
      'Fix: correct .claude/settings.json by hand (the client cannot read it either), then run the command again; nothing was written.',
    )
    expect(repo.read('.claude/settings.json')).toBe(broken)
    expect(tree(path.join(repo.dir, '.claude'))).toEqual(['settings.json'])
    const u = await refusal(() => uninstall(ctx, {agent: 'claude', skillsRoot: skillTemplates()}))
    expect(u.exitCode).toBe(6)
  })

  it('outside a git repository, project scope exits 3 and points to --scope user', async () => {
    const repo = tempRepo()
    const outside = path.dirname(repo.dir)
    const e = await refusal(() => install(repo.ctx({cwd: outside}), {agent: 'claude'}))
    expect(e.exitCode).toBe(3)
    expect(e.message).toContain('--scope user')
  })
})

describe('skills', () => {
  it("copies the store's knowledge_language unless --lang says otherwise", async () => {
    const repo = await initRepo()
    const config = repo.read('.cairn/config.yaml').replace('knowledge_language: en', 'knowledge_language: zh-CN')
    repo.write('.cairn/config.yaml', config)
    const ctx = withPath(repo, shim(0))
    const skills = skillTemplates()
    const r = await install(ctx, {agent: 'codex', skillsRoot: skills})
    expect(r.data.lang).toBe('zh-CN')
    expect(repo.read('.agents/skills/cairn-recall/SKILL.md')).toContain('为任务召回卡片')
    await uninstall(ctx, {agent: 'codex', skillsRoot: skills})
    const en = await install(ctx, {agent: 'codex', lang: 'en', skillsRoot: skills})
    expect(en.data.lang).toBe('en')
    expect(repo.read('.agents/skills/cairn-recall/SKILL.md')).toContain('Recall cards for a task.')
  })

  it('keeps the language an earlier --lang chose: a later install --mcp does not switch the skills back', async () => {
    const repo = await initRepo()
    const ctx = withPath(repo, shim(0))
    const skills = skillTemplates()
    const skillActions = (r: Awaited<ReturnType<typeof install>>) =>
      r.data.files.filter(f => f.kind === 'skill').map(f => f.action)
    expect((await install(ctx, {agent: 'gemini', lang: 'zh-CN', skillsRoot: skills})).data.lang).toBe('zh-CN')
    // Issue 34: this switched the skills back to the store's English.
    const mcp = await install(ctx, {agent: 'gemini', mcp: true, skillsRoot: skills})
    expect([mcp.data.lang, skillActions(mcp), mcp.data.mcp?.action]).toEqual([
      'zh-CN',
      ['unchanged', 'unchanged'],
      'added',
    ])
    expect(repo.read('.gemini/skills/cairn-recall/SKILL.md')).toContain('为任务召回卡片')
    // An explicit --lang en still switches, and is kept in turn, whatever the store's language becomes.
    const en = await install(ctx, {agent: 'gemini', lang: 'en', skillsRoot: skills})
    expect([en.data.lang, skillActions(en)]).toEqual(['en', ['modified', 'created', 'modified']])
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('knowledge_language: en', 'knowledge_language: zh-CN'),
    )
    const later = await install(ctx, {agent: 'gemini', skillsRoot: skills})
    expect([later.data.lang, later.data.changed]).toEqual(['en', false])
    expect(repo.read('.gemini/skills/cairn-recall/SKILL.md')).toContain('Recall cards for a task.')
    // A client never given --lang follows the store's language.
    const codex = await install(ctx, {agent: 'codex', skillsRoot: skills})
    expect(codex.data.lang).toBe('zh-CN')
  })

  it('keeps a skill file the user edited, on install and on uninstall, with a note', async () => {
    const repo = tempRepo()
    const ctx = withPath(repo, shim(0))
    const skills = skillTemplates()
    await install(ctx, {agent: 'claude', skillsRoot: skills})
    repo.write('.claude/skills/cairn-recall/SKILL.md', 'my own recall steps\n')
    const again = await install(ctx, {agent: 'claude', skillsRoot: skills})
    expect(again.data.files.find(f => f.file.endsWith('cairn-recall/SKILL.md'))?.action).toBe('kept')
    expect(again.warnings).toEqual([
      ".claude/skills/cairn-recall/SKILL.md: kept as it is: it differs from cairn's cairn-recall skill (en); " +
        "delete it and run install again for cairn's",
    ])
    const u = await uninstall(ctx, {agent: 'claude', skillsRoot: skills})
    expect(repo.read('.claude/skills/cairn-recall/SKILL.md')).toBe('my own recall steps\n')
    expect(u.warnings).toEqual([
      '.claude/skills/cairn-recall/SKILL.md: kept: it was changed after install; delete it yourself if you no longer want it',
    ])
    expect(tree(path.join(repo.dir, '.claude'))).toEqual(['skills/cairn-recall/SKILL.md'])
  })

  it('where install never ran, uninstall removes the committed cairn hooks and template skills', async () => {
    const repo = tempRepo()
    const skills = skillTemplates()
    await install(withPath(repo, shim(0)), {agent: 'gemini', skillsRoot: skills})
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'connect gemini')
    fs.rmSync(path.join(repo.home, '.cairn'), {recursive: true, force: true})
    const r = await uninstall(repo.ctx(), {agent: 'gemini', skillsRoot: skills})
    expect(r.data.files.map(f => `${f.action} ${f.file}`)).toEqual([
      'deleted .gemini/settings.json',
      'deleted .gemini/skills/cairn-archive/SKILL.md',
      'deleted .gemini/skills/cairn-archive/references/types.md',
      'deleted .gemini/skills/cairn-recall/SKILL.md',
    ])
    expect(tree(path.join(repo.dir, '.gemini'))).toEqual([])
  })
})
