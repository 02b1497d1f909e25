import type {AgentClient, InstallScope} from '../domain/agents/index.js'
import {sha256} from '../domain/agents/index.js'
import {isEmptyConfig, MCP_SERVER_NAME, planMcpUninstall} from '../domain/agents/mcp.js'
import {type HookEntry, planUninstall} from '../domain/agents/settings.js'
import {
  crashPoint,
  linkOnPath,
  lockTarget,
  packageSkillsRoot,
  readBytes,
  readSkillTemplates,
  removeEmptyDirs,
  removeFile,
  removeRecord,
  skillTemplateLangs,
  writeBytes,
} from '../store/agents/agent-files.js'
import type {Context} from '../context.js'
import {type AgentTarget, readText, resolveTarget} from './agent-target.js'
import {diffOf, type FileChange, type McpChange} from './install.js'
import type {UseCaseOutput} from './use-case.js'

export interface UninstallInput {
  agent: AgentClient
  scope?: InstallScope
  dryRun?: boolean
  /** Where skill templates are; default this package's templates/skills. */
  skillsRoot?: string
}

export interface UninstallResult {
  agent: AgentClient
  client: string
  scope: InstallScope
  root: string
  dryRun: boolean
  changed: boolean
  /** The cairn hook entries taken out. */
  hooks: HookEntry[]
  /** cairn's MCP server, when there was one to take out (or one uninstall had to leave). */
  mcp: McpChange | null
  files: FileChange[]
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

/**
 * Takes out exactly what install put in. A file nobody but cairn changed since install gets its bytes from
 * before install back (or is deleted, with the folders install made, when install created it);
 * a file changed since loses only cairn's entries. A skill file the user changed is kept.
 */
export async function uninstall(ctx: Context, input: UninstallInput): Promise<UseCaseOutput<UninstallResult>> {
  const lock = input.dryRun ? null : await lockTarget(ctx, input.scope ?? 'project')
  try {
    return uninstallLocked(ctx, input)
  } finally {
    lock?.release()
  }
}

function uninstallLocked(ctx: Context, input: UninstallInput): UseCaseOutput<UninstallResult> {
  const t = resolveTarget(ctx, input.agent, input.scope ?? 'project')
  const warnings: string[] = []
  const settings = planSettings(t)
  const own = t.sharedMcp ? null : planMcpFile(t)
  const mcp = settings.mcp ?? own?.mcp ?? null
  if (mcp?.note) warnings.push(`${mcp.file}: ${mcp.note}`)
  const planned = [
    settings.planned,
    ...(own ? [own.planned] : []),
    ...planSkills(t, input.skillsRoot ?? packageSkillsRoot(), warnings),
  ]
  const changed = planned.some(p => WRITES.has(p.change.action))
  const result: UninstallResult = {
    agent: t.spec.client,
    client: t.spec.label,
    scope: t.scope,
    root: t.root,
    dryRun: !!input.dryRun,
    changed,
    hooks: settings.hooks,
    mcp,
    files: planned.map(p => p.change),
  }
  if (input.dryRun) {
    result.files = planned.map(p => ({...p.change, diff: planDiff(t, p)}))
    return {data: result, warnings}
  }
  let step = 0
  for (const p of planned) {
    if (!WRITES.has(p.change.action)) continue
    crashPoint(ctx, `uninstall:${step++}`)
    if (p.change.action === 'deleted') removeFile(p.change.path)
    else if (p.after) writeBytes(p.change.path, p.after)
  }
  crashPoint(ctx, `uninstall:${step++}`)
  removeEmptyDirs(t.root, planned.filter(p => p.change.action === 'deleted').flatMap(p => p.dirs))
  crashPoint(ctx, `uninstall:${step++}`)
  removeRecord(t.recordPaths)
  return {data: result, warnings}
}

/** The hooks file: cairn's hooks out, and cairn's MCP server too where the client keeps it there (Gemini). */
function planSettings(t: AgentTarget): {planned: Planned; hooks: HookEntry[]; mcp: McpChange | null} {
  const rel = t.spec.settingsFile
  const text = readText(t.abs(rel))
  if (text === null) return {planned: unchanged(t, rel, 'settings', null, 'not there'), hooks: [], mcp: null}
  const rec = t.record?.files[rel]
  // cairn's server first: the hooks plan then says whether anything but cairn's is left.
  const m = t.sharedMcp ? planMcpUninstall(text, t.spec.mcp, t.show(rel), rec?.createdKeys) : null
  const plan = planUninstall(m?.text ?? text, t.spec, t.show(rel), rec?.createdKeys)
  const mcp = m && (m.removed || m.note) ? removedServer(t, rel, m.note) : null
  if (plan.entries.length === 0 && !m?.removed && !recordedUntouched(t, rel, text)) {
    const note = `holds no cairn hooks for ${t.spec.label}`
    return {planned: unchanged(t, rel, 'settings', text, note), hooks: [], mcp}
  }
  return {planned: planConfig(t, rel, 'settings', text, plan.text, plan.empty), hooks: plan.entries, mcp}
}

/** The client's own MCP config file: cairn's server out. Absent, or without cairn's server, it is not listed. */
function planMcpFile(t: AgentTarget): {planned: Planned; mcp: McpChange | null} | null {
  const rel = t.mcpFile
  const text = readText(t.abs(rel))
  if (text === null) return null
  const m = planMcpUninstall(text, t.spec.mcp, t.show(rel), t.record?.files[rel]?.createdKeys)
  const mcp = m.removed || m.note ? removedServer(t, rel, m.note) : null
  if (!m.removed && !recordedUntouched(t, rel, text)) return mcp ? {planned: unchanged(t, rel, 'mcp', text), mcp} : null
  return {planned: planConfig(t, rel, 'mcp', text, m.text, isEmptyConfig(m.text)), mcp}
}

/**
 * Nobody changed the file since install wrote it (so its bytes from before install come back). Never through a
 * symbolic link: a record a clone planted beside a committed link would write its bytes wherever the link leads;
 * a linked file (a dotfiles repository's settings) has cairn's entries taken out instead.
 */
function recordedUntouched(t: AgentTarget, rel: string, text: string): boolean {
  const rec = t.record?.files[rel]
  return !!rec && rec.original !== undefined && sha256(text) === rec.written && linkOnPath(t.root, rel) === null
}

function removedServer(t: AgentTarget, rel: string, note?: string): McpChange {
  return {file: t.show(rel), server: MCP_SERVER_NAME, action: note ? 'kept' : 'removed', ...(note ? {note} : {})}
}

function unchanged(t: AgentTarget, rel: string, kind: 'settings' | 'mcp', text: string | null, note?: string): Planned {
  const before = text === null ? null : Buffer.from(text)
  const change: FileChange = {file: t.show(rel), path: t.abs(rel), kind, action: 'unchanged', ...(note ? {note} : {})}
  return {change, before, after: before, dirs: []}
}

/**
 * A config file cairn's entries come out of. Nobody changed it since install: the bytes from before install
 * come back exactly (or it goes, with the folders install made, when install created it). Else only cairn's
 * entries go, and the file too when nothing else is left and install created it (or nobody recorded it).
 */
function planConfig(t: AgentTarget, rel: string, kind: 'settings' | 'mcp', text: string, next: string, empty: boolean): Planned {
  const path = t.abs(rel)
  const before = Buffer.from(text)
  const rec = t.record?.files[rel]
  const change = (action: FileChange['action']): FileChange => ({file: t.show(rel), path, kind, action})
  if (rec && recordedUntouched(t, rel, text)) {
    const after = rec.original === null || rec.original === undefined ? null : Buffer.from(rec.original, 'base64')
    return {change: change(after ? 'restored' : 'deleted'), before, after, dirs: rec.createdDirs}
  }
  const created = rec ? rec.original === null || rec.created === true : true
  if (empty && created) return {change: change('deleted'), before, after: null, dirs: rec?.createdDirs ?? []}
  return {change: change('modified'), before, after: Buffer.from(next), dirs: []}
}

/**
 * The skill files install wrote (by the record) or that are byte-for-byte one of cairn's templates
 * in any language (a copy from a teammate's install): those go. Any other file there stays.
 */
function planSkills(t: AgentTarget, root: string, warnings: string[]): Planned[] {
  const templates = new Map<string, Buffer[]>()
  for (const lang of skillTemplateLangs(root)) {
    for (const tpl of readSkillTemplates(root, lang)) {
      const rel = `${t.spec.skillsDir}/${tpl.skill}/${tpl.rel}`
      templates.set(rel, [...(templates.get(rel) ?? []), tpl.content])
    }
  }
  const recorded = Object.keys(t.record?.files ?? {}).filter(rel => rel.startsWith(`${t.spec.skillsDir}/`))
  const out: Planned[] = []
  for (const rel of [...new Set([...recorded, ...templates.keys()])].sort()) {
    const path = t.abs(rel)
    const before = readBytes(path)
    if (before === null) continue
    const mine = t.record?.files[rel]
    const wrote = mine !== undefined && sha256(before) === mine.written
    const ours = wrote || (templates.get(rel) ?? []).some(c => c.equals(before))
    const change: FileChange = {file: t.show(rel), path, kind: 'skill', action: ours ? 'deleted' : 'kept'}
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
  const parts = rel.slice(t.spec.skillsDir.length + 1).split('/').slice(0, -1)
  return parts.map((_, i) => `${t.spec.skillsDir}/${parts.slice(0, i + 1).join('/')}`)
}

const planDiff = (t: AgentTarget, p: Planned): string =>
  p.change.action === 'kept' || p.change.action === 'unchanged' ? '' : diffOf(t, p.change, p.before, p.after)
