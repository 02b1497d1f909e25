import {createHash} from 'node:crypto'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import type {AgentTarget} from '../../src/app/agent-target.js'
import {type FileNow, type InstallReads, planInstallFiles} from '../../src/app/install-plan.js'
import {planUninstallFiles, skillFiles, type UninstallReads} from '../../src/app/uninstall-plan.js'
import {type AgentClient, CLIENTS, hookCommand, type HookLauncher} from '../../src/domain/agents/index.js'
import type {InstallRecord, SkillFile} from '../../src/store/agents/agent-files.js'

/**
 * Install's and uninstall's plans from what was read, with no repository and no disk: each file is
 * given as the read phase would find it, and the plan's writes, record and report are exact.
 */

const ROOT = '/home/ada/widgets'
const sha = (text: string) => createHash('sha256').update(text).digest('hex')
const b64 = (text: string) => Buffer.from(text).toString('base64')

function target(agent: AgentClient, record: InstallRecord | null = null): AgentTarget {
  const spec = CLIENTS[agent]
  const launcher: HookLauncher = {kind: 'path'}
  const mcpFile = spec.mcp.file.project
  return {
    spec,
    scope: 'project',
    root: ROOT,
    recordPaths: [],
    record,
    mcpFile,
    sharedMcp: mcpFile === spec.settingsFile,
    launcher,
    command: event => hookCommand(launcher, event, agent),
    abs: rel => path.posix.join(ROOT, rel),
    show: rel => rel,
  }
}

/**
 * A work tree as the read phase sees it: the files there (root-relative) and the symbolic links on the
 * way to any. A folder exists when a file is under it.
 */
function disk(files: Record<string, string>, links: string[] = []): (rel: string) => FileNow {
  const ancestors = (rel: string) =>
    rel
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/'))
  return rel => ({
    bytes: rel in files ? Buffer.from(files[rel]) : null,
    link: links.find(l => rel === l || rel.startsWith(`${l}/`)) ?? null,
    missingDirs: ancestors(rel).filter(dir => !Object.keys(files).some(f => f.startsWith(`${dir}/`))),
  })
}

const tpl = (skill: string, content: string, rel = 'SKILL.md'): SkillFile => ({
  skill,
  rel,
  content: Buffer.from(content),
})
const EN = [tpl('cairn-archive', 'archive\n'), tpl('cairn-recall', 'recall\n')]
const ZH = [tpl('cairn-archive', '归档\n'), tpl('cairn-recall', '召回\n')]

function installReads(t: AgentTarget, on: (rel: string) => FileNow, more: Partial<InstallReads> = {}): InstallReads {
  const templates = more.templates ?? EN
  const rels = [t.spec.settingsFile, t.mcpFile, ...templates.map(s => `${t.spec.skillsDir}/${s.skill}/${s.rel}`)]
  return {
    lang: 'en',
    chosen: null,
    skillsRoot: '/pkg/templates/skills',
    templates,
    files: new Map(rels.map(r => [r, on(r)])),
    elsewhere: [],
    ...more,
  }
}

function uninstallReads(t: AgentTarget, on: (rel: string) => FileNow, templates = [...EN, ...ZH]): UninstallReads {
  const rels = [t.spec.settingsFile, t.mcpFile, ...skillFiles(t, templates)]
  return {templates, files: new Map(rels.map(r => [r, on(r)]))}
}

const EDITS = 'Edit|Write|MultiEdit|NotebookEdit'
const group = (event: string, matcher?: string) => [
  {
    ...(matcher ? {matcher} : {}),
    hooks: [{type: 'command', command: `cairn hook ${event} --agent claude`, timeout: 5}],
  },
]
const CLAUDE_HOOKS = {
  SessionStart: group('session-start'),
  UserPromptSubmit: group('user-prompt-submit'),
  PreToolUse: group('pre-tool-use', EDITS),
  PostToolUse: group('post-tool-use', EDITS),
  Stop: group('stop'),
  SessionEnd: group('session-end'),
}
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
/** Claude Code's settings as install writes them into a project that had none. */
const CLAUDE_SETTINGS = json({hooks: CLAUDE_HOOKS})
const HOOK_KEYS = [['hooks'], ...Object.keys(CLAUDE_HOOKS).map(k => ['hooks', k])]
const EVENTS = ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop', 'session-end']
const entries = (action: 'added' | 'present' | 'removed') =>
  Object.keys(CLAUDE_HOOKS).map((clientEvent, i) => ({
    clientEvent,
    event: EVENTS[i],
    command: `cairn hook ${EVENTS[i]} --agent claude`,
    action,
  }))

const SETTINGS = '.claude/settings.json'
const RECALL = '.claude/skills/cairn-recall/SKILL.md'
const ARCHIVE = '.claude/skills/cairn-archive/SKILL.md'
const at = (rel: string) => ({file: rel, path: `${ROOT}/${rel}`})

/** The record install writes into a project with no .claude folder: each file, the folders missing when it was read. */
const FRESH_RECORD: InstallRecord = {
  version: 1,
  client: 'claude',
  scope: 'project',
  root: ROOT,
  files: {
    [SETTINGS]: {original: null, written: sha(CLAUDE_SETTINGS), createdDirs: ['.claude'], createdKeys: HOOK_KEYS},
    [ARCHIVE]: {
      original: null,
      written: sha('archive\n'),
      createdDirs: ['.claude', '.claude/skills', '.claude/skills/cairn-archive'],
    },
    [RECALL]: {
      original: null,
      written: sha('recall\n'),
      createdDirs: ['.claude', '.claude/skills', '.claude/skills/cairn-recall'],
    },
  },
}
const INSTALLED = {[SETTINGS]: CLAUDE_SETTINGS, [ARCHIVE]: 'archive\n', [RECALL]: 'recall\n'}

describe('planInstallFiles', () => {
  it('a project with none of the files: each is created, and the record says there was nothing before', () => {
    const t = target('claude')
    const plan = planInstallFiles(t, installReads(t, disk({})), {dryRun: false, mcp: false})
    expect(plan).toEqual({
      result: {
        agent: 'claude',
        client: 'Claude Code',
        scope: 'project',
        root: ROOT,
        lang: 'en',
        dryRun: false,
        changed: true,
        hooks: entries('added'),
        mcp: null,
        check: null,
        trust: CLIENTS.claude.trust('project'),
        files: [
          {...at(SETTINGS), kind: 'settings', action: 'created'},
          {...at(ARCHIVE), kind: 'skill', action: 'created'},
          {...at(RECALL), kind: 'skill', action: 'created'},
        ],
      },
      warnings: [],
      record: FRESH_RECORD,
      writes: [
        {path: `${ROOT}/${SETTINGS}`, bytes: Buffer.from(CLAUDE_SETTINGS)},
        {path: `${ROOT}/${ARCHIVE}`, bytes: Buffer.from('archive\n')},
        {path: `${ROOT}/${RECALL}`, bytes: Buffer.from('recall\n')},
      ],
    })
  })

  it('a second run finds everything in place: nothing to write, no record', () => {
    const t = target('claude', FRESH_RECORD)
    const plan = planInstallFiles(t, installReads(t, disk(INSTALLED)), {dryRun: false, mcp: false})
    expect(plan.result.files.map(f => f.action)).toEqual(['unchanged', 'unchanged', 'unchanged'])
    expect(plan.result.hooks).toEqual(entries('present'))
    expect([plan.result.changed, plan.record, plan.writes, plan.warnings]).toEqual([false, null, [], []])
  })

  it("the user's settings: cairn's hooks merged in, and the record keeps the bytes before them", () => {
    const mine = json({model: 'opus'})
    const t = target('claude')
    const plan = planInstallFiles(t, installReads(t, disk({[SETTINGS]: mine}), {templates: []}), {
      dryRun: false,
      mcp: false,
    })
    const merged = json({model: 'opus', hooks: CLAUDE_HOOKS})
    expect(plan.result.files).toEqual([{...at(SETTINGS), kind: 'settings', action: 'modified'}])
    expect(plan.record?.files).toEqual({
      [SETTINGS]: {original: b64(mine), written: sha(merged), createdDirs: [], createdKeys: HOOK_KEYS},
    })
    expect(plan.writes).toEqual([{path: `${ROOT}/${SETTINGS}`, bytes: Buffer.from(merged)}])
    expect(plan.warnings).toEqual([
      'no skills found for "en" under /pkg/templates/skills; only the hooks were installed',
    ])
  })

  it("skills: cairn's own copy is updated, the user's is kept with a note, one through a link is not recorded", () => {
    const t = target('claude', FRESH_RECORD)
    const on = disk({...INSTALLED, [ARCHIVE]: 'my archive\n', [RECALL]: 'recall\n'}, ['.claude/skills/cairn-guide'])
    const templates = [
      tpl('cairn-archive', 'archive v2\n'),
      tpl('cairn-guide', 'guide\n'),
      tpl('cairn-recall', 'recall v2\n'),
    ]
    const plan = planInstallFiles(t, installReads(t, on, {templates}), {dryRun: false, mcp: false})
    const note =
      "kept as it is: it differs from cairn's cairn-archive skill (en); delete it and run install again for cairn's"
    expect(plan.result.files).toEqual([
      {...at(SETTINGS), kind: 'settings', action: 'unchanged'},
      {...at(ARCHIVE), kind: 'skill', action: 'kept', note},
      {...at('.claude/skills/cairn-guide/SKILL.md'), kind: 'skill', action: 'created'},
      {...at(RECALL), kind: 'skill', action: 'modified'},
    ])
    expect(plan.warnings).toEqual([`${ARCHIVE}: ${note}`])
    expect(plan.record?.files).toEqual({
      ...FRESH_RECORD.files,
      [RECALL]: {
        original: null,
        written: sha('recall v2\n'),
        createdDirs: ['.claude', '.claude/skills', '.claude/skills/cairn-recall'],
      },
    })
    expect(plan.writes.map(w => [w.path, w.bytes.toString()])).toEqual([
      [`${ROOT}/.claude/skills/cairn-guide/SKILL.md`, 'guide\n'],
      [`${ROOT}/${RECALL}`, 'recall v2\n'],
    ])
  })

  it('a dry run reports each change with its diff and plans the same writes', () => {
    const t = target('claude', FRESH_RECORD)
    const templates = [tpl('cairn-archive', 'archive\n'), tpl('cairn-recall', 'recall v2\n')]
    const plan = planInstallFiles(t, installReads(t, disk(INSTALLED), {templates}), {dryRun: true, mcp: false})
    expect(plan.result.dryRun).toBe(true)
    expect(plan.result.files).toEqual([
      {...at(SETTINGS), kind: 'settings', action: 'unchanged', diff: ''},
      {...at(ARCHIVE), kind: 'skill', action: 'unchanged', diff: ''},
      {
        ...at(RECALL),
        kind: 'skill',
        action: 'modified',
        diff: `--- a/${RECALL}\n+++ b/${RECALL}\n@@ -1,1 +1,1 @@\n-recall\n+recall v2`,
      },
    ])
    expect(plan.writes).toEqual([{path: `${ROOT}/${RECALL}`, bytes: Buffer.from('recall v2\n')}])
  })

  it("with --mcp, cairn's server goes into the client's own MCP config, after the user's lines", () => {
    const t = target('codex')
    const config = 'model = "o3"\n'
    const plan = planInstallFiles(t, installReads(t, disk({[t.mcpFile]: config}), {templates: []}), {
      dryRun: false,
      mcp: true,
    })
    const server = '[mcp_servers.cairn]\ncommand = "cairn"\nargs = ["mcp"]\n'
    expect(plan.result.mcp).toEqual({
      file: '.codex/config.toml',
      server: 'cairn',
      command: 'cairn',
      args: ['mcp'],
      action: 'added',
    })
    expect(plan.result.trust).toBe(`${CLIENTS.codex.trust('project')} ${CLIENTS.codex.mcp.trust('project')}`)
    expect(plan.result.files.map(f => [f.file, f.kind, f.action])).toEqual([
      ['.codex/hooks.json', 'settings', 'created'],
      ['.codex/config.toml', 'mcp', 'modified'],
    ])
    expect(plan.record?.files['.codex/config.toml']).toEqual({
      original: b64(config),
      written: sha(`${config}\n${server}`),
      createdDirs: [],
      createdKeys: [['mcp_servers'], ['mcp_servers', 'cairn']],
    })
    expect(plan.writes[1]).toEqual({path: `${ROOT}/.codex/config.toml`, bytes: Buffer.from(`${config}\n${server}`)})
  })

  it('a "cairn" MCP server of the user\'s own is kept, with a note, and no approval step for it', () => {
    const t = target('codex')
    const config = '[mcp_servers.cairn]\ncommand = "my-cairn"\n'
    const plan = planInstallFiles(t, installReads(t, disk({[t.mcpFile]: config}), {templates: []}), {
      dryRun: false,
      mcp: true,
    })
    const note =
      'kept the "cairn" server there: it does not run cairn. Rename or remove it, then run install --mcp again'
    expect(plan.result.mcp).toEqual({
      file: '.codex/config.toml',
      server: 'cairn',
      command: 'cairn',
      args: ['mcp'],
      action: 'kept',
      note,
    })
    expect(plan.result.trust).toBe(CLIENTS.codex.trust('project'))
    expect(plan.result.files[1]).toEqual({...at('.codex/config.toml'), kind: 'mcp', action: 'unchanged'})
    expect(plan.warnings).toEqual([
      `.codex/config.toml: ${note}`,
      'no skills found for "en" under /pkg/templates/skills; only the hooks were installed',
    ])
  })

  it('warnings about the other files come last', () => {
    const t = target('claude', FRESH_RECORD)
    const plan = planInstallFiles(t, installReads(t, disk(INSTALLED), {templates: [], elsewhere: ['twice']}), {
      dryRun: false,
      mcp: false,
    })
    expect(plan.warnings).toEqual([
      'no skills found for "en" under /pkg/templates/skills; only the hooks were installed',
      'twice',
    ])
  })

  it('a file the read phase did not read is a mistake, never taken as missing', () => {
    const t = target('claude')
    expect(() =>
      planInstallFiles(t, {...installReads(t, disk({})), files: new Map()}, {dryRun: false, mcp: false}),
    ).toThrow(`install planned ${SETTINGS} without reading it`)
  })
})

describe('planUninstallFiles', () => {
  it('what install created, untouched since: deleted, with the folders install made', () => {
    const t = target('claude', FRESH_RECORD)
    const plan = planUninstallFiles(t, uninstallReads(t, disk(INSTALLED)), {dryRun: false})
    expect(plan).toEqual({
      result: {
        agent: 'claude',
        client: 'Claude Code',
        scope: 'project',
        root: ROOT,
        dryRun: false,
        changed: true,
        hooks: entries('removed'),
        mcp: null,
        files: [
          {...at(SETTINGS), kind: 'settings', action: 'deleted'},
          {...at(ARCHIVE), kind: 'skill', action: 'deleted'},
          {...at(RECALL), kind: 'skill', action: 'deleted'},
        ],
      },
      warnings: [],
      writes: [SETTINGS, ARCHIVE, RECALL].map(rel => ({path: `${ROOT}/${rel}`, bytes: null})),
      // Each file's, as the record has them: removing them only when empty, uninstall takes a folder once.
      dirs: [
        '.claude',
        '.claude',
        '.claude/skills',
        '.claude/skills/cairn-archive',
        '.claude',
        '.claude/skills',
        '.claude/skills/cairn-recall',
      ],
    })
  })

  it("the user's settings, untouched since install: their bytes from before come back", () => {
    const mine = json({model: 'opus'})
    const merged = json({model: 'opus', hooks: CLAUDE_HOOKS})
    const record = {
      ...FRESH_RECORD,
      files: {[SETTINGS]: {original: b64(mine), written: sha(merged), createdDirs: [], createdKeys: HOOK_KEYS}},
    }
    const t = target('claude', record)
    const plan = planUninstallFiles(t, uninstallReads(t, disk({[SETTINGS]: merged}), []), {dryRun: false})
    expect(plan.result.files).toEqual([{...at(SETTINGS), kind: 'settings', action: 'restored'}])
    expect(plan.writes).toEqual([{path: `${ROOT}/${SETTINGS}`, bytes: Buffer.from(mine)}])
    expect(plan.dirs).toEqual([])
  })

  it("settings changed since install: only cairn's entries come out", () => {
    const t = target('claude', FRESH_RECORD)
    const changed = json({model: 'opus', hooks: CLAUDE_HOOKS, theme: 'dark'})
    const plan = planUninstallFiles(t, uninstallReads(t, disk({[SETTINGS]: changed}), []), {dryRun: false})
    expect(plan.result.files).toEqual([{...at(SETTINGS), kind: 'settings', action: 'modified'}])
    expect(plan.writes).toEqual([
      {path: `${ROOT}/${SETTINGS}`, bytes: Buffer.from(json({model: 'opus', theme: 'dark'}))},
    ])
    expect(plan.dirs).toEqual([])
  })

  it("settings reached through a link are never restored from the record: cairn's entries come out instead", () => {
    const merged = json({model: 'opus', hooks: CLAUDE_HOOKS})
    const record = {
      ...FRESH_RECORD,
      files: {[SETTINGS]: {original: b64('{}\n'), written: sha(merged), createdDirs: [], createdKeys: HOOK_KEYS}},
    }
    const t = target('claude', record)
    const plan = planUninstallFiles(t, uninstallReads(t, disk({[SETTINGS]: merged}, ['.claude']), []), {dryRun: false})
    expect(plan.result.files).toEqual([{...at(SETTINGS), kind: 'settings', action: 'modified'}])
    expect(plan.writes).toEqual([{path: `${ROOT}/${SETTINGS}`, bytes: Buffer.from(json({model: 'opus'}))}])
  })

  it("settings that are not there, or hold none of cairn's hooks, are unchanged, with a note", () => {
    const t = target('claude')
    const none = planUninstallFiles(t, uninstallReads(t, disk({}), []), {dryRun: false})
    expect(none.result.files).toEqual([{...at(SETTINGS), kind: 'settings', action: 'unchanged', note: 'not there'}])
    const theirs = planUninstallFiles(t, uninstallReads(t, disk({[SETTINGS]: json({model: 'opus'})}), []), {
      dryRun: false,
    })
    expect(theirs.result.files).toEqual([
      {...at(SETTINGS), kind: 'settings', action: 'unchanged', note: 'holds no cairn hooks for Claude Code'},
    ])
    expect([theirs.result.changed, theirs.writes, theirs.dirs]).toEqual([false, [], []])
  })

  it("skills: cairn's template in any language goes, with its own folders; a changed one stays, with a note", () => {
    const t = target('claude')
    const plan = planUninstallFiles(t, uninstallReads(t, disk({[ARCHIVE]: '归档\n', [RECALL]: 'my recall\n'})), {
      dryRun: false,
    })
    const note = 'kept: it was changed after install; delete it yourself if you no longer want it'
    expect(plan.result.files.slice(1)).toEqual([
      {...at(ARCHIVE), kind: 'skill', action: 'deleted'},
      {...at(RECALL), kind: 'skill', action: 'kept', note},
    ])
    expect(plan.warnings).toEqual([`${RECALL}: ${note}`])
    expect(plan.writes).toEqual([{path: `${ROOT}/${ARCHIVE}`, bytes: null}])
    expect(plan.dirs).toEqual(['.claude/skills/cairn-archive'])
  })

  it('a dry run reports each change with its diff', () => {
    const t = target('claude', FRESH_RECORD)
    const plan = planUninstallFiles(t, uninstallReads(t, disk({[RECALL]: 'recall\n'}), EN), {dryRun: true})
    expect(plan.result.files).toEqual([
      {...at(SETTINGS), kind: 'settings', action: 'unchanged', note: 'not there', diff: ''},
      {
        ...at(RECALL),
        kind: 'skill',
        action: 'deleted',
        diff: `--- a/${RECALL}\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-recall`,
      },
    ])
  })

  it("with an MCP config: cairn's server comes out, the user's lines stay", () => {
    const t = target('codex')
    const config = 'model = "o3"\n\n[mcp_servers.cairn]\ncommand = "cairn"\nargs = ["mcp"]\n'
    const plan = planUninstallFiles(t, uninstallReads(t, disk({'.codex/config.toml': config}), []), {dryRun: false})
    expect(plan.result.mcp).toEqual({file: '.codex/config.toml', server: 'cairn', action: 'removed'})
    expect(plan.result.files[1]).toEqual({...at('.codex/config.toml'), kind: 'mcp', action: 'modified'})
    expect(plan.writes).toEqual([{path: `${ROOT}/.codex/config.toml`, bytes: Buffer.from('model = "o3"\n')}])
  })
})
