import {sha256} from '../domain/agents/index.js'
import {isEmptyConfig, MCP_SERVER_NAME, planMcpUninstall} from '../domain/agents/mcp.js'
import {type HookEntry, planUninstall} from '../domain/agents/settings.js'
import type {SkillFile} from '../store/agents/agent-files.js'
import type {AgentTarget} from './agent-target.js'
import type {FileChange, McpChange} from './install.js'
import {diffOf, type FileNow, skillRel} from './install-plan.js'
import type {UninstallResult} from './uninstall.js'

/**
 * Uninstall's plan, a function of what was read: no file is read or written here. uninstall.ts
 * reads (UninstallReads), plans with planUninstallFiles, then writes and removes what the plan says.
 */

/** Everything uninstall's plan needs, read before it. */
export interface UninstallReads {
  /** cairn's skill templates in every language, languages in name order. */
  templates: SkillFile[]
  /** The settings file, the MCP config and each skill file (skillFiles), by root-relative path. */
  files: ReadonlyMap<string, Pick<FileNow, 'bytes' | 'link'>>
}

export interface UninstallPlan {
  result: UninstallResult
  warnings: string[]
  /** The files to change, in order: new bytes, or null to delete the file. */
  writes: {path: string; bytes: Buffer | null}[]
  /** Folders install created that the deletions may have emptied (removed only when empty). */
  dirs: string[]
}

/** Actions that change the file on disk. */
const WRITES = new Set<FileChange['action']>(['deleted', 'restored', 'modified'])

interface Planned {
  change: FileChange
  before: Buffer | null
  /** The bytes to write; null to delete the file. */
  after: Buffer | null
  /** Directories install created that may now be empty. */
  dirs: string[]
}

/** A config file as read: where it is, what it is, its text. */
interface Config {
  rel: string
  kind: 'settings' | 'mcp'
  text: string
}

function fileNow(read: UninstallReads, rel: string): Pick<FileNow, 'bytes' | 'link'> {
  const now = read.files.get(rel)
  if (!now) throw new Error(`uninstall planned ${rel} without reading it`)
  return now
}

/** The skill files uninstall looks at: those the record names and those cairn's templates would be, in name order. */
export function skillFiles(t: AgentTarget, templates: SkillFile[]): string[] {
  const recorded = Object.keys(t.record?.files ?? {}).filter(rel => rel.startsWith(`${t.spec.skillsDir}/`))
  return [...new Set([...recorded, ...templates.map(tpl => skillRel(t, tpl))])].sort()
}

/**
 * Takes out exactly what install put in, as far as the files read show: a file nobody but cairn
 * changed since install gets its bytes from before install back (or is deleted, with the folders
 * install made, when install created it); a file changed since loses only cairn's entries. A skill
 * file the user changed is kept.
 */
export function planUninstallFiles(t: AgentTarget, read: UninstallReads, options: {dryRun: boolean}): UninstallPlan {
  const warnings: string[] = []
  const settings = planSettings(t, read)
  const own = t.sharedMcp ? null : planMcpFile(t, read)
  const mcp = settings.mcp ?? own?.mcp ?? null
  if (mcp?.note) warnings.push(`${mcp.file}: ${mcp.note}`)
  const planned = [settings.planned, ...(own ? [own.planned] : []), ...planSkills(t, read, warnings)]
  const result: UninstallResult = {
    agent: t.spec.client,
    client: t.spec.label,
    scope: t.scope,
    root: t.root,
    dryRun: options.dryRun,
    changed: planned.some(p => WRITES.has(p.change.action)),
    hooks: settings.hooks,
    mcp,
    files: planned.map(p => (options.dryRun ? {...p.change, diff: planDiff(t, p)} : p.change)),
  }
  const writes = planned
    .filter(p => WRITES.has(p.change.action))
    .map(p => ({path: p.change.path, bytes: p.change.action === 'deleted' ? null : p.after}))
  const dirs = planned.filter(p => p.change.action === 'deleted').flatMap(p => p.dirs)
  return {result, warnings, writes, dirs}
}

/** The hooks file: cairn's hooks out, and cairn's MCP server too where the client keeps it there (Gemini). */
function planSettings(
  t: AgentTarget,
  read: UninstallReads,
): {planned: Planned; hooks: HookEntry[]; mcp: McpChange | null} {
  const rel = t.spec.settingsFile
  const now = fileNow(read, rel)
  const text = now.bytes?.toString('utf8') ?? null
  if (text === null) return {planned: unchanged(t, {rel, kind: 'settings', text}, 'not there'), hooks: [], mcp: null}
  const file: Config = {rel, kind: 'settings', text}
  const rec = t.record?.files[rel]
  // cairn's server first: the hooks plan then says whether anything but cairn's is left.
  const m = t.sharedMcp ? planMcpUninstall(text, t.spec.mcp, t.show(rel), rec?.createdKeys) : null
  const plan = planUninstall(m?.text ?? text, t.spec, t.show(rel), rec?.createdKeys)
  const mcp = m && (m.removed || m.note) ? removedServer(t, rel, m.note) : null
  if (plan.entries.length === 0 && !m?.removed && !recordedUntouched(t, file, now.link)) {
    const note = `holds no cairn hooks for ${t.spec.label}`
    return {planned: unchanged(t, file, note), hooks: [], mcp}
  }
  return {planned: planConfig(t, file, now.link, {text: plan.text, empty: plan.empty}), hooks: plan.entries, mcp}
}

/** The client's own MCP config file: cairn's server out. Absent, or without cairn's server, it is not listed. */
function planMcpFile(t: AgentTarget, read: UninstallReads): {planned: Planned; mcp: McpChange | null} | null {
  const rel = t.mcpFile
  const now = fileNow(read, rel)
  const text = now.bytes?.toString('utf8') ?? null
  if (text === null) return null
  const file: Config = {rel, kind: 'mcp', text}
  const m = planMcpUninstall(text, t.spec.mcp, t.show(rel), t.record?.files[rel]?.createdKeys)
  const mcp = m.removed || m.note ? removedServer(t, rel, m.note) : null
  if (!m.removed && !recordedUntouched(t, file, now.link)) return mcp ? {planned: unchanged(t, file), mcp} : null
  return {planned: planConfig(t, file, now.link, {text: m.text, empty: isEmptyConfig(m.text)}), mcp}
}

/**
 * Nobody changed the file since install wrote it (so its bytes from before install come back). Never through a
 * symbolic link: a record a clone planted beside a committed link would write its bytes wherever the link leads;
 * a linked file (a dotfiles repository's settings) has cairn's entries taken out instead.
 */
function recordedUntouched(t: AgentTarget, file: Config, link: string | null): boolean {
  const rec = t.record?.files[file.rel]
  return !!rec && rec.original !== undefined && sha256(file.text) === rec.written && link === null
}

function removedServer(t: AgentTarget, rel: string, note?: string): McpChange {
  return {file: t.show(rel), server: MCP_SERVER_NAME, action: note ? 'kept' : 'removed', ...(note ? {note} : {})}
}

function unchanged(
  t: AgentTarget,
  file: {rel: string; kind: Config['kind']; text: string | null},
  note?: string,
): Planned {
  const before = file.text === null ? null : Buffer.from(file.text)
  const {rel, kind} = file
  const change: FileChange = {file: t.show(rel), path: t.abs(rel), kind, action: 'unchanged', ...(note ? {note} : {})}
  return {change, before, after: before, dirs: []}
}

/**
 * A config file cairn's entries come out of. Nobody changed it since install: the bytes from before install
 * come back exactly (or it goes, with the folders install made, when install created it). Else only cairn's
 * entries go, and the file too when nothing else is left and install created it (or nobody recorded it).
 */
function planConfig(t: AgentTarget, file: Config, link: string | null, next: {text: string; empty: boolean}): Planned {
  const {rel, kind, text} = file
  const path = t.abs(rel)
  const before = Buffer.from(text)
  const rec = t.record?.files[rel]
  const change = (action: FileChange['action']): FileChange => ({file: t.show(rel), path, kind, action})
  if (rec && recordedUntouched(t, file, link)) {
    const after = rec.original === null || rec.original === undefined ? null : Buffer.from(rec.original, 'base64')
    return {change: change(after ? 'restored' : 'deleted'), before, after, dirs: rec.createdDirs}
  }
  const created = rec ? rec.original === null || rec.created === true : true
  if (next.empty && created) return {change: change('deleted'), before, after: null, dirs: rec?.createdDirs ?? []}
  return {change: change('modified'), before, after: Buffer.from(next.text), dirs: []}
}

/**
 * The skill files install wrote (by the record) or that are byte-for-byte one of cairn's templates
 * in any language (a copy from a teammate's install): those go. Any other file there stays.
 */
function planSkills(t: AgentTarget, read: UninstallReads, warnings: string[]): Planned[] {
  const templates = new Map<string, Buffer[]>()
  for (const tpl of read.templates) {
    const rel = skillRel(t, tpl)
    templates.set(rel, [...(templates.get(rel) ?? []), tpl.content])
  }
  const out: Planned[] = []
  for (const rel of skillFiles(t, read.templates)) {
    const before = fileNow(read, rel).bytes
    if (before === null) continue
    const mine = t.record?.files[rel]
    const wrote = mine !== undefined && sha256(before) === mine.written
    const ours = wrote || (templates.get(rel) ?? []).some(c => c.equals(before))
    const change: FileChange = {file: t.show(rel), path: t.abs(rel), kind: 'skill', action: ours ? 'deleted' : 'kept'}
    if (!ours) {
      change.note = 'kept: it was changed after install; delete it yourself if you no longer want it'
      warnings.push(`${t.show(rel)}: ${change.note}`)
    }
    out.push({change, before, after: null, dirs: mine?.createdDirs ?? skillDirs(t, rel)})
  }
  return out
}

/** The skill's own folders (never the client's skills folder itself), for a file install did not record. */
function skillDirs(t: AgentTarget, rel: string): string[] {
  const parts = rel
    .slice(t.spec.skillsDir.length + 1)
    .split('/')
    .slice(0, -1)
  return parts.map((_, i) => `${t.spec.skillsDir}/${parts.slice(0, i + 1).join('/')}`)
}

const planDiff = (t: AgentTarget, p: Planned): string =>
  p.change.action === 'kept' || p.change.action === 'unchanged' ? '' : diffOf(t, p.change, p.before, p.after)
