import type {AgentClient, InstallScope, SkillLang} from '../domain/agents/index.js'
import {sha256} from '../domain/agents/index.js'
import {unifiedDiff} from '../domain/agents/diff.js'
import {hasCairnServer, MCP_SERVER_NAME, type McpAction, mcpServer, type McpServer, planMcpInstall} from '../domain/agents/mcp.js'
import {type HookEntry, planInstall} from '../domain/agents/settings.js'
import {
  crashPoint,
  type FileRecord,
  linkOnPath,
  lockTarget,
  missingDirs,
  packageSkillsRoot,
  readBytes,
  readSkillTemplates,
  writeBytes,
  writeRecord,
} from '../store/agents/agent-files.js'
import type {Context} from '../context.js'
import {checkHookCommand, type HookCheck} from '../store/agents/hook-check.js'
import {openStores} from './stores.js'
import {type AgentTarget, bothScopesWarning, doubleFireWarning, readText, resolveTarget} from './agent-target.js'
import type {UseCaseOutput} from './use-case.js'

export interface InstallInput {
  agent: AgentClient
  scope?: InstallScope
  /** Skill language; default the store's knowledge_language (en without a store). */
  lang?: SkillLang
  dryRun?: boolean
  /** Also add `cairn mcp` to the client's MCP servers. */
  mcp?: boolean
  /** Where skill templates are (`<lang>/<name>/SKILL.md` under it); default this package's templates/skills. */
  skillsRoot?: string
}

export type FileAction = 'created' | 'modified' | 'unchanged' | 'kept' | 'deleted' | 'restored'

export interface FileChange {
  /** The path as messages show it: relative to the project, or under ~ for the user scope. */
  file: string
  path: string
  kind: 'settings' | 'skill' | 'mcp'
  action: FileAction
  /** With --dry-run: the unified diff of this change ('' when none). */
  diff?: string
  note?: string
}

/** cairn's entry in the client's MCP servers, and what install or uninstall did to it. */
export interface McpChange {
  /** The config file, as messages show it. */
  file: string
  server: string
  /** What starts it (install only). */
  command?: string
  args?: string[]
  action: McpAction
  note?: string
}

export interface InstallResult {
  agent: AgentClient
  client: string
  scope: InstallScope
  root: string
  lang: SkillLang
  dryRun: boolean
  /** Whether any file changed (or, with --dry-run, would). */
  changed: boolean
  hooks: HookEntry[]
  /** The MCP server, with --mcp; null without. */
  mcp: McpChange | null
  files: FileChange[]
  /** Whether the hook command runs here; null with --dry-run, which runs nothing. */
  check: HookCheck | null
  /** The step the user takes before the client runs the hooks. */
  trust: string
}

interface Planned extends FileChange {
  rel: string
  before: Buffer | null
  after: Buffer
  record?: FileRecord
}

/**
 * Connects an agent client: merges cairn's hooks into its settings and copies the skills into its
 * skill folder. Never overwrites, never commits; a second run changes nothing. Remembers in
 * machine-local state what it changed, so uninstall can give the files back byte for byte.
 */
export async function install(ctx: Context, input: InstallInput): Promise<UseCaseOutput<InstallResult>> {
  const lock = input.dryRun ? null : await lockTarget(ctx, input.scope ?? 'project')
  let out: UseCaseOutput<InstallResult> & {t: AgentTarget}
  try {
    out = await installLocked(ctx, input)
  } finally {
    lock?.release()
  }
  const {t, ...done} = out
  if (input.dryRun) return done
  // Outside the lock: the check runs the hook command, which must not wait for this process.
  const check = checkHookCommand(t.command('session-start'), t.spec.checkPayload, ctx.env)
  done.data.check = check
  if (!check.ok) done.warnings?.push(checkWarning(t, check))
  return done
}

async function installLocked(ctx: Context, input: InstallInput): Promise<UseCaseOutput<InstallResult> & {t: AgentTarget}> {
  const t = resolveTarget(ctx, input.agent, input.scope ?? 'project')
  const lang = input.lang ?? (await storeLang(ctx, t.scope))
  const warnings: string[] = []
  const server = input.mcp ? mcpServer(t.launcher, t.spec.mcp, t.scope) : null
  // Gemini keeps its MCP servers in the settings file that holds the hooks: one file, planned once.
  const settings = planSettings(t, t.sharedMcp ? server : null)
  const own = server && !t.sharedMcp ? planMcpFile(t, server) : null
  const mcp = settings.mcp ?? own?.mcp ?? null
  if (mcp?.note) warnings.push(`${mcp.file}: ${mcp.note}`)
  const skills = planSkills(t, input.skillsRoot ?? packageSkillsRoot(), lang, warnings)
  const planned = [settings.file, ...(own ? [own.file] : []), ...skills]
  const changed = planned.some(writes)
  for (const twice of [doubleFireWarning(ctx, t.spec.client), bothScopesWarning(ctx, t)]) if (twice) warnings.push(twice)
  const result: InstallResult = {
    agent: t.spec.client,
    client: t.spec.label,
    scope: t.scope,
    root: t.root,
    lang,
    dryRun: !!input.dryRun,
    changed,
    hooks: settings.hooks,
    mcp,
    files: [],
    check: null,
    // The server's approval step only when cairn's server is there: never for a "cairn" server of the user's own.
    trust: mcp && mcp.action !== 'kept' ? `${t.spec.trust(t.scope)} ${t.spec.mcp.trust(t.scope)}` : t.spec.trust(t.scope),
  }
  if (input.dryRun) {
    result.files = planned.map(({rel, before, after, record, ...f}) => {
      return {...f, diff: writes(f) ? diffOf(t, f, before, after) : ''}
    })
    return {data: result, warnings, t}
  }
  const records = {...t.record?.files}
  for (const f of planned) if (writes(f) && f.record) records[f.rel] = f.record
  let step = 0
  // The record first: killed after a settings write but before the record, the next install would find cairn's
  // hooks in place, take the file as not fresh, and forget the bytes uninstall must give back.
  if (changed) {
    crashPoint(ctx, `install:${step++}`)
    writeRecord(t.recordPaths, {version: 1, client: t.spec.client, scope: t.scope, root: t.root, files: records})
  }
  for (const f of planned) {
    if (!writes(f)) continue
    crashPoint(ctx, `install:${step++}`)
    writeBytes(f.path, f.after)
  }
  result.files = planned.map(({rel, before, after, record, ...f}) => f)
  return {data: result, warnings, t}
}

const writes = (f: FileChange) => f.action === 'created' || f.action === 'modified'

function planSettings(t: AgentTarget, server: McpServer | null): {file: Planned; hooks: HookEntry[]; mcp: McpChange | null} {
  const rel = t.spec.settingsFile
  const text = readText(t.abs(rel))
  const plan = planInstall(text, t.spec, t.command, t.show(rel))
  let after = plan.text
  let createdKeys = plan.createdKeys
  // A file with none of cairn's entries yet starts afresh: its bytes now are what uninstall restores.
  let fresh = plan.entries.every(e => e.action === 'added') && !(t.sharedMcp && hasCairnServer(text, t.spec.mcp, t.show(rel)))
  let mcp: McpChange | null = null
  if (server) {
    const m = planMcpInstall(after, t.spec.mcp, server, t.show(rel))
    after = m.text
    createdKeys = [...createdKeys, ...m.createdKeys]
    fresh = fresh && !m.hadCairn
    mcp = mcpChange(t, rel, server, m.action)
  }
  return {file: planConfig(t, rel, 'settings', text, after, fresh, createdKeys), hooks: plan.entries, mcp}
}

/** The client's own MCP config file (all but Gemini's, which is its settings file). */
function planMcpFile(t: AgentTarget, server: McpServer): {file: Planned; mcp: McpChange} {
  const rel = t.mcpFile
  const text = readText(t.abs(rel))
  const m = planMcpInstall(text, t.spec.mcp, server, t.show(rel))
  return {file: planConfig(t, rel, 'mcp', text, m.text, !m.hadCairn, m.createdKeys), mcp: mcpChange(t, rel, server, m.action)}
}

function mcpChange(t: AgentTarget, rel: string, server: McpServer, action: McpAction): McpChange {
  const note =
    action === 'kept'
      ? `kept the "${MCP_SERVER_NAME}" server there: it does not run cairn. Rename or remove it, then run install --mcp again`
      : undefined
  return {file: t.show(rel), server: MCP_SERVER_NAME, ...server, action, ...(note ? {note} : {})}
}

/** A config file install merges into, with what the record must remember to give its bytes back. */
function planConfig(
  t: AgentTarget,
  rel: string,
  kind: 'settings' | 'mcp',
  text: string | null,
  next: string,
  fresh: boolean,
  createdKeys: string[][],
): Planned {
  const path = t.abs(rel)
  const before = text === null ? null : Buffer.from(text)
  const after = Buffer.from(next)
  const action = text === null ? 'created' : text === next ? 'unchanged' : 'modified'
  const prev = t.record?.files[rel]
  // The bytes from before install come back only while every change since was cairn's: a file changed since
  // cairn last wrote it (the user's line) loses that right, and uninstall then takes out cairn's entries alone.
  const onlyCairns = prev !== undefined && 'original' in prev && text !== null && sha256(text) === prev.written
  const created = prev?.original === null || prev?.created === true
  const record: FileRecord = {
    ...(fresh
      ? {original: before?.toString('base64') ?? null}
      : onlyCairns
        ? {original: prev.original}
        : created
          ? {created: true}
          : {}),
    written: sha256(after),
    createdDirs: [...new Set([...(fresh ? [] : (prev?.createdDirs ?? [])), ...missingDirs(t.root, path)])],
    createdKeys: fresh ? createdKeys : [...(prev?.createdKeys ?? []), ...createdKeys],
  }
  return {file: t.show(rel), rel, path, kind, action, before, after, record}
}

/**
 * Each template file, unless the client's copy is already it. A copy install wrote and nobody
 * changed is updated; a copy the user changed (or made) is kept, with a note.
 */
function planSkills(t: AgentTarget, root: string, lang: SkillLang, warnings: string[]): Planned[] {
  const templates = readSkillTemplates(root, lang)
  if (templates.length === 0) {
    warnings.push(`no skills found for "${lang}" under ${root}; only the hooks were installed`)
  }
  return templates.map(tpl => {
    const rel = `${t.spec.skillsDir}/${tpl.skill}/${tpl.rel}`
    const path = t.abs(rel)
    const before = readBytes(path)
    const mine = t.record?.files[rel]
    const ours = before !== null && mine !== undefined && sha256(before) === mine.written
    const action: FileAction =
      before === null ? 'created' : before.equals(tpl.content) ? 'unchanged' : ours ? 'modified' : 'kept'
    const base = {file: t.show(rel), rel, path, kind: 'skill' as const, action, before, after: tpl.content}
    if (action === 'kept') {
      const note =
        `kept as it is: it differs from cairn's ${tpl.skill} skill (${lang}); ` +
        "delete it and run install again for cairn's"
      warnings.push(`${t.show(rel)}: ${note}`)
      return {...base, note}
    }
    // Through a link (a skills folder shared between clients), the file is not recorded: uninstall checks the
    // record's paths and refuses one through a link, so it finds this file as cairn's template instead.
    if (linkOnPath(t.root, rel)) return base
    const createdDirs = ours ? (mine?.createdDirs ?? []) : missingDirs(t.root, path)
    return {...base, record: {original: null, written: sha256(tpl.content), createdDirs}}
  })
}

async function storeLang(ctx: Context, scope: InstallScope): Promise<SkillLang> {
  const stores = openStores(ctx)
  const store = scope === 'project' ? stores.project : stores.personal
  return store ? (await stores.config(store)).knowledge_language : 'en'
}

/** A project file's diff is git's (relative, a/ b/), so `git apply` takes it; a user file's names its absolute path. */
export const diffOf = (t: AgentTarget, f: FileChange, before: Buffer | null, after: Buffer | null): string =>
  unifiedDiff(
    t.scope === 'user' ? f.path : f.file,
    before?.toString('utf8') ?? null,
    after?.toString('utf8') ?? null,
    t.scope !== 'user',
  )

function checkWarning(t: AgentTarget, check: HookCheck): string {
  const head =
    `the hook command "${check.command}" did not run here (${check.reason}). ` +
    `The hooks are written, but ${t.spec.label} `
  if (t.scope === 'project') {
    return `${head}cannot run them until "cairn" is on PATH: install it with "npm i -g cairn-memory" (or "npm i -g ./cairn-memory-<version>.tgz" from "npm pack"), ` +
      'or connect with --scope user, which runs this copy of cairn by its absolute path'
  }
  return `${head}cannot run them: reinstall cairn ("npm i -g cairn-memory") and run "cairn install --scope user" again`
}
