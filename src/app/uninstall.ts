import type {AgentClient, InstallScope} from '../domain/agents/index.js'
import type {HookEntry} from '../domain/agents/settings.js'
import type {AgentFiles} from '../store/agents/agent-port.js'
import type {Context} from '../context.js'
import {type AgentTarget, resolveTarget} from './agent-target.js'
import {openStores} from './stores.js'
import type {FileChange, McpChange} from './install.js'
import {planUninstallFiles, skillFiles, type UninstallPlan, type UninstallReads} from './uninstall-plan.js'
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

/**
 * Takes out exactly what install put in. A file nobody but cairn changed since install gets its bytes from
 * before install back (or is deleted, with the folders install made, when install created it);
 * a file changed since loses only cairn's entries. A skill file the user changed is kept.
 */
export async function uninstall(ctx: Context, input: UninstallInput): Promise<UseCaseOutput<UninstallResult>> {
  const files = await openStores(ctx).agents()
  const lock = input.dryRun ? null : await files.lockTarget(ctx, input.scope ?? 'project')
  try {
    return uninstallLocked(ctx, files, input)
  } finally {
    lock?.release()
  }
}

function uninstallLocked(ctx: Context, files: AgentFiles, input: UninstallInput): UseCaseOutput<UninstallResult> {
  const t = resolveTarget(ctx, files, input.agent, input.scope ?? 'project')
  const plan = planUninstallFiles(t, readUninstall(files, t, input), {dryRun: !!input.dryRun})
  if (!input.dryRun) writeUninstall(ctx, files, t, plan)
  return {data: plan.result, warnings: plan.warnings}
}

/** Everything the plan needs, read first: the settings, the MCP config, the templates and the client's skill files. */
function readUninstall(agentFiles: AgentFiles, t: AgentTarget, input: UninstallInput): UninstallReads {
  const now = (rel: string) => ({bytes: agentFiles.readBytes(t.abs(rel)), link: agentFiles.linkOnPath(t.root, rel)})
  const configs = [t.spec.settingsFile, ...(t.sharedMcp ? [] : [t.mcpFile])]
  const files = new Map(configs.map(rel => [rel, now(rel)]))
  const root = input.skillsRoot ?? agentFiles.skillsRoot()
  const templates = agentFiles.skillTemplateLangs(root).flatMap(lang => agentFiles.readSkillTemplates(root, lang))
  for (const rel of skillFiles(t, templates)) files.set(rel, now(rel))
  return {templates, files}
}

function writeUninstall(ctx: Context, agentFiles: AgentFiles, t: AgentTarget, plan: UninstallPlan): void {
  let step = 0
  for (const w of plan.writes) {
    agentFiles.crashPoint(ctx, `uninstall:${step++}`)
    if (w.bytes === null) agentFiles.removeFile(w.path)
    else agentFiles.writeBytes(w.path, w.bytes)
  }
  agentFiles.crashPoint(ctx, `uninstall:${step++}`)
  agentFiles.removeEmptyDirs(t.root, plan.dirs)
  agentFiles.crashPoint(ctx, `uninstall:${step++}`)
  agentFiles.removeRecord(t.recordPaths)
}
