import type {AgentClient, InstallScope} from '../domain/agents/index.js'
import type {HookEntry} from '../domain/agents/settings.js'
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
import {type AgentTarget, resolveTarget} from './agent-target.js'
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
  const lock = input.dryRun ? null : await lockTarget(ctx, input.scope ?? 'project')
  try {
    return uninstallLocked(ctx, input)
  } finally {
    lock?.release()
  }
}

function uninstallLocked(ctx: Context, input: UninstallInput): UseCaseOutput<UninstallResult> {
  const t = resolveTarget(ctx, input.agent, input.scope ?? 'project')
  const plan = planUninstallFiles(t, readUninstall(t, input), {dryRun: !!input.dryRun})
  if (!input.dryRun) writeUninstall(ctx, t, plan)
  return {data: plan.result, warnings: plan.warnings}
}

/** Everything the plan needs, read first: the settings, the MCP config, the templates and the client's skill files. */
function readUninstall(t: AgentTarget, input: UninstallInput): UninstallReads {
  const configs = [t.spec.settingsFile, ...(t.sharedMcp ? [] : [t.mcpFile])]
  const files = new Map(configs.map(rel => [rel, fileNow(t, rel)]))
  const root = input.skillsRoot ?? packageSkillsRoot()
  const templates = skillTemplateLangs(root).flatMap(lang => readSkillTemplates(root, lang))
  for (const rel of skillFiles(t, templates)) files.set(rel, fileNow(t, rel))
  return {templates, files}
}

const fileNow = (t: AgentTarget, rel: string) => ({bytes: readBytes(t.abs(rel)), link: linkOnPath(t.root, rel)})

function writeUninstall(ctx: Context, t: AgentTarget, plan: UninstallPlan): void {
  let step = 0
  for (const w of plan.writes) {
    crashPoint(ctx, `uninstall:${step++}`)
    if (w.bytes === null) removeFile(w.path)
    else writeBytes(w.path, w.bytes)
  }
  crashPoint(ctx, `uninstall:${step++}`)
  removeEmptyDirs(t.root, plan.dirs)
  crashPoint(ctx, `uninstall:${step++}`)
  removeRecord(t.recordPaths)
}
