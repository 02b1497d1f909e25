import path from 'node:path'
import {
  type AgentClient,
  CLIENTS,
  type ClientSpec,
  CURSOR_DOUBLE_FIRE,
  type HookEvent,
  hookCommand,
  type HookLauncher,
  type InstallScope,
  mentionsCairnHooks,
} from '../domain/agents/index.js'
import {recordPathIssues} from '../domain/agents/record-paths.js'
import {CairnError, validationError} from '../domain/errors.js'
import type {InstallRecord, RecordPlace} from '../store/agents/agent-files.js'
import type {AgentFiles} from '../store/agents/agent-port.js'
import type {Context} from '../context.js'
import {openStores} from './stores.js'

/** One client's files at one scope: what install and uninstall both resolve first. */
export interface AgentTarget {
  spec: ClientSpec
  scope: InstallScope
  /** The git work-tree root (project scope) or $HOME (user scope). */
  root: string
  recordPaths: RecordPlace[]
  record: InstallRecord | null
  /** The client's MCP config at this scope, relative to root; `sharedMcp` when it is the settings file (Gemini). */
  mcpFile: string
  sharedMcp: boolean
  /** How the client starts cairn at this scope: from PATH, or this copy by its absolute path. */
  launcher: HookLauncher
  /** The command for one cairn event at this scope. */
  command: (event: HookEvent) => string
  /** An absolute path for a root-relative one. */
  abs: (rel: string) => string
  /** How messages name a root-relative path: as is in a project, under ~ for the user. */
  show: (rel: string) => string
}

/** The target, with install's record of it checked; `agentFiles` is what Stores.agents() hands out. */
export function resolveTarget(
  ctx: Context,
  agentFiles: AgentFiles,
  agent: AgentClient,
  scope: InstallScope,
): AgentTarget {
  const spec = CLIENTS[agent]
  const root = scope === 'user' ? agentFiles.userHome(ctx) : openStores(ctx).repoRoot()
  if (!root) {
    throw new CairnError(
      'not_git_repo',
      `${ctx.cwd} is not inside a git repository, so there is no project to connect ${spec.label} to. ` +
        'Fix: run this in your project, or use --scope user to connect it for every project',
    )
  }
  const launcher: HookLauncher = scope === 'user' ? {kind: 'absolute', ...agentFiles.cliEntry()} : {kind: 'path'}
  const paths = agentFiles.recordPaths(ctx, agent, scope, root)
  const show = (rel: string) => (scope === 'user' ? `~/${rel}` : rel)
  const mcpFile = spec.mcp.file[scope]
  return {
    spec,
    scope,
    root,
    recordPaths: paths,
    record: checkedRecord(agentFiles, agentFiles.readRecord(paths, root), {spec, mcpFile, root, show}),
    mcpFile,
    sharedMcp: mcpFile === spec.settingsFile,
    launcher,
    command: event => hookCommand(launcher, event, agent),
    abs: rel => path.join(root, ...rel.split('/')),
    show,
  }
}

/** The record, once every path in it names a place install writes; a record naming any other is refused whole. */
function checkedRecord(
  agentFiles: AgentFiles,
  found: {record: InstallRecord; file: string} | null,
  t: Pick<AgentTarget, 'spec' | 'mcpFile' | 'root' | 'show'>,
): InstallRecord | null {
  if (!found) return null
  const {spec, mcpFile, root, show} = t
  const rel = path.relative(root, found.file)
  const shown = rel.startsWith('..') || path.isAbsolute(rel) ? found.file : show(rel.split(path.sep).join('/'))
  const places = {label: spec.label, configs: [spec.settingsFile, mcpFile], skillsDir: spec.skillsDir}
  const issues = recordPathIssues(found.record.files, places, shown, p => agentFiles.linkOnPath(root, p))
  if (issues.length > 0) throw validationError(issues, `Refused the install record ${shown}; nothing was changed`)
  return found.record
}

/** A file's text, or null when missing. */
const readText = (agentFiles: AgentFiles, file: string): string | null =>
  agentFiles.readBytes(file)?.toString('utf8') ?? null

/**
 * Cursor runs Claude Code's hooks too when its third-party setting is on: with cairn's hooks in
 * both, each would fire twice there. Looks at the files Cursor reads, at both scopes.
 */
export function doubleFireWarning(ctx: Context, agentFiles: AgentFiles, agent: AgentClient): string | null {
  if (agent !== 'claude' && agent !== 'cursor') return null
  const other = agent === 'claude' ? 'cursor' : 'claude'
  const files = other === 'claude' ? ['.claude/settings.json', '.claude/settings.local.json'] : ['.cursor/hooks.json']
  const roots = [openStores(ctx).repoRoot(), agentFiles.userHome(ctx)].filter((r): r is string => !!r)
  const found = roots.some(root =>
    files.some(f => mentionsCairnHooks(readText(agentFiles, path.join(root, f)) ?? '', other)),
  )
  return found ? CURSOR_DOUBLE_FIRE : null
}

/**
 * The same client's hooks at the other scope: a client runs project and user hooks alike, so
 * cairn installed at both runs every event twice (twice the context, two stop blocks).
 */
export function bothScopesWarning(ctx: Context, agentFiles: AgentFiles, t: AgentTarget): string | null {
  const otherRoot = t.scope === 'user' ? openStores(ctx).repoRoot() : agentFiles.userHome(ctx)
  if (!otherRoot || otherRoot === t.root) return null
  const text = readText(agentFiles, path.join(otherRoot, ...t.spec.settingsFile.split('/'))) ?? ''
  if (!mentionsCairnHooks(text, t.spec.client)) return null
  const other = t.scope === 'user' ? 'project' : 'user'
  return (
    `cairn hooks for ${t.spec.label} are also installed at ${other} scope, so every event would run twice. ` +
    `Keep one: cairn uninstall --agent ${t.spec.client} --scope ${other === 'user' ? 'user' : 'project'}`
  )
}
