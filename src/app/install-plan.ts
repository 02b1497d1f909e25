import {sha256, type SkillLang} from '../domain/agents/index.js'
import {unifiedDiff} from '../domain/agents/diff.js'
import {
  hasCairnServer,
  MCP_SERVER_NAME,
  type McpAction,
  mcpServer,
  type McpServer,
  planMcpInstall,
} from '../domain/agents/mcp.js'
import {type HookEntry, planInstall} from '../domain/agents/settings.js'
import type {FileRecord, InstallRecord, SkillFile} from '../store/agents/agent-files.js'
import type {AgentTarget} from './agent-target.js'
import type {FileAction, FileChange, InstallResult, McpChange} from './install.js'

/**
 * Install's plan, a function of what was read: no file is read or written here. install.ts reads
 * (InstallReads), plans with planInstallFiles, then writes what the plan says.
 */

/** A file under the target's root as it is now. */
export interface FileNow {
  /** Its bytes; null when there is no file. */
  bytes: Buffer | null
  /** The first symbolic link on its root-relative path, or null. */
  link: string | null
  /** The folders writing it would create, outermost first (root-relative). */
  missingDirs: string[]
}

/** Everything install's plan needs, read before it. */
export interface InstallReads {
  lang: SkillLang
  /** The language --lang chose, now or at an earlier install (the record keeps it); null: the store's, whatever it is. */
  chosen: SkillLang | null
  /** Where the skill templates were read from (for the warning when there are none). */
  skillsRoot: string
  /** The templates of `lang`. */
  templates: SkillFile[]
  /** Each file install may write, by root-relative path: the settings, the MCP config and the skill files. */
  files: ReadonlyMap<string, FileNow>
  /** Warnings found in other files: Cursor running Claude Code's hooks, the same hooks at the other scope. */
  elsewhere: string[]
}

export interface InstallPlan {
  /** The report, its hook check still to run (null). */
  result: InstallResult
  warnings: string[]
  /** The record to write before any file; null when no file changes. */
  record: InstallRecord | null
  /** The files to write, in order. */
  writes: {path: string; bytes: Buffer}[]
}

interface Planned extends FileChange {
  rel: string
  before: Buffer | null
  after: Buffer
  record?: FileRecord
}

/** Where a template goes in the client's skills folder, relative to the root. */
export const skillRel = (t: AgentTarget, tpl: SkillFile): string => `${t.spec.skillsDir}/${tpl.skill}/${tpl.rel}`

function fileNow(read: InstallReads, rel: string): FileNow {
  const now = read.files.get(rel)
  if (!now) throw new Error(`install planned ${rel} without reading it`)
  return now
}
const textOf = (f: FileNow): string | null => f.bytes?.toString('utf8') ?? null

const writes = (f: FileChange) => f.action === 'created' || f.action === 'modified'

/**
 * Merges cairn's hooks into the client's settings (and its MCP server, with `mcp`) and copies the
 * skills, as far as the files read allow: never over a user's change. The record remembers what
 * uninstall needs to give each file back.
 */
export function planInstallFiles(
  t: AgentTarget,
  read: InstallReads,
  options: {dryRun: boolean; mcp: boolean},
): InstallPlan {
  const warnings: string[] = []
  const server = options.mcp ? mcpServer(t.launcher, t.spec.mcp, t.scope) : null
  // Gemini keeps its MCP servers in the settings file that holds the hooks: one file, planned once.
  const settings = planSettings(t, read, t.sharedMcp ? server : null)
  const own = server && !t.sharedMcp ? planMcpFile(t, read, server) : null
  const mcp = settings.mcp ?? own?.mcp ?? null
  if (mcp?.note) warnings.push(`${mcp.file}: ${mcp.note}`)
  const skills = planSkills(t, read, warnings)
  const planned = [settings.file, ...(own ? [own.file] : []), ...skills]
  const changed = planned.some(writes)
  warnings.push(...read.elsewhere)
  const result: InstallResult = {
    agent: t.spec.client,
    client: t.spec.label,
    scope: t.scope,
    root: t.root,
    lang: read.lang,
    dryRun: options.dryRun,
    changed,
    hooks: settings.hooks,
    mcp,
    files: planned.map(({rel, before, after, record, ...f}) =>
      options.dryRun ? {...f, diff: writes(f) ? diffOf(t, f, before, after) : ''} : f,
    ),
    check: null,
    // The server's approval step only when cairn's server is there: never for a "cairn" server of the user's own.
    trust:
      mcp && mcp.action !== 'kept' ? `${t.spec.trust(t.scope)} ${t.spec.mcp.trust(t.scope)}` : t.spec.trust(t.scope),
  }
  const records = {...t.record?.files}
  for (const f of planned) if (writes(f) && f.record) records[f.rel] = f.record
  // A --lang that changes no file is still remembered, where a record is kept at all.
  const lang = read.chosen ?? undefined
  const record =
    changed || (t.record && t.record.lang !== lang)
      ? {
          version: 1 as const,
          client: t.spec.client,
          scope: t.scope,
          root: t.root,
          ...(lang ? {lang} : {}),
          files: records,
        }
      : null
  return {result, warnings, record, writes: planned.filter(writes).map(f => ({path: f.path, bytes: f.after}))}
}

function planSettings(
  t: AgentTarget,
  read: InstallReads,
  server: McpServer | null,
): {file: Planned; hooks: HookEntry[]; mcp: McpChange | null} {
  const rel = t.spec.settingsFile
  const now = fileNow(read, rel)
  const text = textOf(now)
  const plan = planInstall(text, t.spec, t.command, t.show(rel))
  let after = plan.text
  let createdKeys = plan.createdKeys
  // A file with none of cairn's entries yet starts afresh: its bytes now are what uninstall restores.
  let fresh =
    plan.entries.every(e => e.action === 'added') && !(t.sharedMcp && hasCairnServer(text, t.spec.mcp, t.show(rel)))
  let mcp: McpChange | null = null
  if (server) {
    const m = planMcpInstall(after, t.spec.mcp, server, t.show(rel))
    after = m.text
    createdKeys = [...createdKeys, ...m.createdKeys]
    fresh = fresh && !m.hadCairn
    mcp = mcpChange(t, rel, server, m.action)
  }
  const file = planConfig(
    t,
    {rel, kind: 'settings', text, missingDirs: now.missingDirs},
    {text: after, fresh, createdKeys},
  )
  return {file, hooks: plan.entries, mcp}
}

/** The client's own MCP config file (all but Gemini's, which is its settings file). */
function planMcpFile(t: AgentTarget, read: InstallReads, server: McpServer): {file: Planned; mcp: McpChange} {
  const rel = t.mcpFile
  const now = fileNow(read, rel)
  const text = textOf(now)
  const m = planMcpInstall(text, t.spec.mcp, server, t.show(rel))
  const next = {text: m.text, fresh: !m.hadCairn, createdKeys: m.createdKeys}
  const file = planConfig(t, {rel, kind: 'mcp', text, missingDirs: now.missingDirs}, next)
  return {file, mcp: mcpChange(t, rel, server, m.action)}
}

function mcpChange(t: AgentTarget, rel: string, server: McpServer, action: McpAction): McpChange {
  const note =
    action === 'kept'
      ? `kept the "${MCP_SERVER_NAME}" server there: it does not run cairn. Rename or remove it, then run install --mcp again`
      : undefined
  return {file: t.show(rel), server: MCP_SERVER_NAME, ...server, action, ...(note ? {note} : {})}
}

/**
 * A config file install merges into, with what the record must remember to give its bytes back.
 * `next.fresh`: the file had none of cairn's entries, so its bytes now are the ones to give back.
 */
function planConfig(
  t: AgentTarget,
  file: {rel: string; kind: 'settings' | 'mcp'; text: string | null; missingDirs: string[]},
  next: {text: string; fresh: boolean; createdKeys: string[][]},
): Planned {
  const {rel, kind, text} = file
  const {fresh, createdKeys} = next
  const before = text === null ? null : Buffer.from(text)
  const after = Buffer.from(next.text)
  const action = text === null ? 'created' : text === next.text ? 'unchanged' : 'modified'
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
    createdDirs: [...new Set([...(fresh ? [] : (prev?.createdDirs ?? [])), ...file.missingDirs])],
    createdKeys: fresh ? createdKeys : [...(prev?.createdKeys ?? []), ...createdKeys],
  }
  return {file: t.show(rel), rel, path: t.abs(rel), kind, action, before, after, record}
}

/**
 * Each template file, unless the client's copy is already it. A copy install wrote and nobody
 * changed is updated; a copy the user changed (or made) is kept, with a note.
 */
function planSkills(t: AgentTarget, read: InstallReads, warnings: string[]): Planned[] {
  if (read.templates.length === 0) {
    warnings.push(`no skills found for "${read.lang}" under ${read.skillsRoot}; only the hooks were installed`)
  }
  return read.templates.map(tpl => {
    const rel = skillRel(t, tpl)
    const now = fileNow(read, rel)
    const before = now.bytes
    const mine = t.record?.files[rel]
    const ours = before !== null && mine !== undefined && sha256(before) === mine.written
    const action: FileAction =
      before === null ? 'created' : before.equals(tpl.content) ? 'unchanged' : ours ? 'modified' : 'kept'
    const base = {file: t.show(rel), rel, path: t.abs(rel), kind: 'skill' as const, action, before, after: tpl.content}
    if (action === 'kept') {
      const note =
        `kept as it is: it differs from cairn's ${tpl.skill} skill (${read.lang}); ` +
        "delete it and run install again for cairn's"
      warnings.push(`${t.show(rel)}: ${note}`)
      return {...base, note}
    }
    // Through a link (a skills folder shared between clients), the file is not recorded: uninstall checks the
    // record's paths and refuses one through a link, so it finds this file as cairn's template instead.
    if (now.link) return base
    const createdDirs = ours ? (mine?.createdDirs ?? []) : now.missingDirs
    return {...base, record: {original: null, written: sha256(tpl.content), createdDirs}}
  })
}

/** A project file's diff is git's (relative, a/ b/), so `git apply` takes it; a user file's names its absolute path. */
export const diffOf = (t: AgentTarget, f: FileChange, before: Buffer | null, after: Buffer | null): string =>
  unifiedDiff(
    t.scope === 'user' ? f.path : f.file,
    before?.toString('utf8') ?? null,
    after?.toString('utf8') ?? null,
    t.scope !== 'user',
  )
