import type {AgentClient, InstallScope, SkillLang} from '../domain/agents/index.js'
import type {McpAction} from '../domain/agents/mcp.js'
import type {HookEntry} from '../domain/agents/settings.js'
import type {AgentFiles} from '../store/agents/agent-port.js'
import type {Context} from '../context.js'
import type {HookCheck} from '../store/agents/hook-check.js'
import {openStores} from './stores.js'
import {type AgentTarget, bothScopesWarning, doubleFireWarning, resolveTarget} from './agent-target.js'
import {type FileNow, type InstallPlan, type InstallReads, planInstallFiles, skillRel} from './install-plan.js'
import type {UseCaseOutput} from './use-case.js'

export {diffOf} from './install-plan.js'

export interface InstallInput {
  agent: AgentClient
  scope?: InstallScope
  /**
   * Skill language; default the one an earlier --lang chose for this client and target (install's record keeps it),
   * else the store's knowledge_language (en without a store).
   */
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

/**
 * Connects an agent client: merges cairn's hooks into its settings and copies the skills into its
 * skill folder. Never overwrites, never commits; a second run changes nothing. Remembers in
 * machine-local state what it changed, so uninstall can give the files back byte for byte.
 */
export async function install(ctx: Context, input: InstallInput): Promise<UseCaseOutput<InstallResult>> {
  const files = await openStores(ctx).agents()
  const lock = input.dryRun ? null : await files.lockTarget(ctx, input.scope ?? 'project')
  let out: UseCaseOutput<InstallResult> & {t: AgentTarget}
  try {
    out = await installLocked(ctx, files, input)
  } finally {
    lock?.release()
  }
  const {t, ...done} = out
  if (input.dryRun) return done
  // Outside the lock: the check runs the hook command, which must not wait for this process.
  const check = files.checkHookCommand(t.command('session-start'), t.spec.checkPayload, ctx.env)
  done.data.check = check
  if (!check.ok) done.warnings?.push(checkWarning(t, check))
  return done
}

async function installLocked(
  ctx: Context,
  files: AgentFiles,
  input: InstallInput,
): Promise<UseCaseOutput<InstallResult> & {t: AgentTarget}> {
  const t = resolveTarget(ctx, files, input.agent, input.scope ?? 'project')
  const read = await readInstall(ctx, files, t, input)
  const plan = planInstallFiles(t, read, {dryRun: !!input.dryRun, mcp: !!input.mcp})
  if (!input.dryRun) writeInstall(ctx, files, t, plan)
  return {data: plan.result, warnings: plan.warnings, t}
}

/**
 * Everything the plan needs, read first: the settings, the MCP config (with --mcp), the skill
 * templates and the client's copies of them, and the other files the warnings look at.
 */
async function readInstall(
  ctx: Context,
  agentFiles: AgentFiles,
  t: AgentTarget,
  input: InstallInput,
): Promise<InstallReads> {
  // A language chosen once stays chosen: an install for another reason (--mcp) must not switch the skills back.
  const chosen = input.lang ?? t.record?.lang ?? null
  const lang = chosen ?? (await storeLang(ctx, t.scope))
  const skillsRoot = input.skillsRoot ?? agentFiles.skillsRoot()
  const configs = [t.spec.settingsFile, ...(input.mcp && !t.sharedMcp ? [t.mcpFile] : [])]
  const now = (rel: string): FileNow => ({
    bytes: agentFiles.readBytes(t.abs(rel)),
    link: agentFiles.linkOnPath(t.root, rel),
    missingDirs: agentFiles.missingDirs(t.root, t.abs(rel)),
  })
  const files = new Map(configs.map(rel => [rel, now(rel)]))
  const templates = agentFiles.readSkillTemplates(skillsRoot, lang)
  for (const tpl of templates) files.set(skillRel(t, tpl), now(skillRel(t, tpl)))
  const elsewhere = [doubleFireWarning(ctx, agentFiles, t.spec.client), bothScopesWarning(ctx, agentFiles, t)]
  return {lang, chosen, skillsRoot, templates, files, elsewhere: elsewhere.filter((w): w is string => !!w)}
}

function writeInstall(ctx: Context, agentFiles: AgentFiles, t: AgentTarget, plan: InstallPlan): void {
  let step = 0
  // The record first: killed after a settings write but before the record, the next install would find cairn's
  // hooks in place, take the file as not fresh, and forget the bytes uninstall must give back.
  if (plan.record) {
    agentFiles.crashPoint(ctx, `install:${step++}`)
    agentFiles.writeRecord(t.recordPaths, plan.record)
  }
  for (const w of plan.writes) {
    agentFiles.crashPoint(ctx, `install:${step++}`)
    agentFiles.writeBytes(w.path, w.bytes)
  }
}

async function storeLang(ctx: Context, scope: InstallScope): Promise<SkillLang> {
  const stores = openStores(ctx)
  const store = scope === 'project' ? stores.project : stores.personal
  return store ? (await stores.config(store)).knowledge_language : 'en'
}

function checkWarning(t: AgentTarget, check: HookCheck): string {
  const head =
    `the hook command "${check.command}" did not run here (${check.reason}). ` +
    `The hooks are written, but ${t.spec.label} `
  if (t.scope === 'project') {
    return (
      `${head}cannot run them until "cairn" is on PATH: install it with "npm i -g cairn-memory" (or "npm i -g ./cairn-memory-<version>.tgz" from "npm pack"), ` +
      'or connect with --scope user, which runs this copy of cairn by its absolute path'
    )
  }
  return `${head}cannot run them: reinstall cairn ("npm i -g cairn-memory") and run "cairn install --scope user" again`
}
