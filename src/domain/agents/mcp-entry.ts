import {isObject} from './json-edit.js'
import type {HookLauncher} from './index.js'
import type {InstallScope, McpSpec} from './types.js'

/** cairn's entry in a client's MCP servers, whatever the file's format: what it runs, and how it is found again. */

export const MCP_SERVER_NAME = 'cairn'

/** How the client starts `cairn mcp`. */
export interface McpServer {
  command: string
  args: string[]
}

/**
 * added: new; updated: cairn's entry ran another command; present: already there; kept: a server
 * named cairn that is not cairn's (it stays, and install says so); removed: uninstall took it out.
 */
export type McpAction = 'added' | 'updated' | 'present' | 'kept' | 'removed'

export interface McpPlan {
  text: string
  action: McpAction
  /** Keys this install created, as paths (so uninstall removes them, and only them). */
  createdKeys: string[][]
  /** What the file held of cairn's before this run: an entry (so the file is not fresh). */
  hadCairn: boolean
}

export function mcpServer(launcher: HookLauncher, spec: McpSpec, scope: InstallScope): McpServer {
  if (launcher.kind === 'path')
    return {command: 'cairn', args: ['mcp', ...(scope === 'project' ? (spec.projectArgs ?? []) : [])]}
  return {command: launcher.node, args: [launcher.script, 'mcp']}
}

/** Whether an entry runs cairn's MCP server: `cairn mcp`, `cairn-memory mcp`, `npx cairn-memory mcp`, `node …/run.js mcp`. */
export function isCairnServer(value: unknown): value is Record<string, unknown> & {command: string} {
  if (!isObject(value) || typeof value.command !== 'string') return false
  const argv = [value.command, ...(Array.isArray(value.args) ? value.args : [])]
  const at = argv.indexOf('mcp')
  return at > 0 && typeof argv[at - 1] === 'string' && /(?:^|[\\/])(?:cairn|cairn-memory|run\.js)$/.test(argv[at - 1])
}

/** Same command and arguments (what starts the server); other fields are the user's. */
export const sameServer = (have: Record<string, unknown>, server: McpServer): boolean =>
  JSON.stringify([have.command, have.args]) === JSON.stringify([server.command, server.args])

export interface McpUninstallPlan {
  text: string
  removed: boolean
  /** Why cairn's entry could not be taken out (then the text is unchanged). */
  note?: string
}
