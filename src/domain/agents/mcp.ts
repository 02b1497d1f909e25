import {validationError} from '../errors.js'
import {isObject, JsonText} from './json-edit.js'
import {
  isCairnServer,
  MCP_SERVER_NAME,
  type McpAction,
  type McpPlan,
  type McpServer,
  type McpUninstallPlan,
  sameServer,
} from './mcp-entry.js'
import {hasTomlServer, planTomlInstall, planTomlUninstall} from './mcp-toml.js'
import type {McpSpec} from './types.js'

export * from './mcp-entry.js'

/**
 * cairn's entry in a client's MCP servers: `cairn` under the client's servers key, found again by
 * the command it runs. Like the hooks, a merge that adds one entry and touches nothing else, and
 * an uninstall that takes out that entry alone.
 */

/** Merges cairn's server into the client's MCP config (null: the file does not exist yet). */
export function planMcpInstall(text: string | null, spec: McpSpec, server: McpServer, file: string): McpPlan {
  if (spec.format === 'toml') return planTomlInstall(text, server, file)
  const doc = new JsonText(text ?? '{}', file, spec.comments)
  const servers = serversObject(doc, file)
  const createdKeys: string[][] = []
  const have = servers?.[MCP_SERVER_NAME]
  let action: McpAction = 'added'
  if (servers === undefined) {
    doc.add([], {[MCP_SERVER_NAME]: server}, 'mcpServers')
    createdKeys.push(['mcpServers'], ['mcpServers', MCP_SERVER_NAME])
  } else if (have === undefined) {
    doc.add(['mcpServers'], server, MCP_SERVER_NAME)
    createdKeys.push(['mcpServers', MCP_SERVER_NAME])
  } else if (!isCairnServer(have)) {
    action = 'kept'
  } else if (sameServer(have, server)) {
    action = 'present'
  } else {
    // The user's own fields (env, timeout) stay; only what starts the server changes.
    doc.set(['mcpServers', MCP_SERVER_NAME, 'command'], server.command)
    doc.set(['mcpServers', MCP_SERVER_NAME, 'args'], server.args)
    action = 'updated'
  }
  const hadCairn = isCairnServer(have)
  return {text: text === null ? `${doc.text}\n` : doc.text, action, createdKeys, hadCairn}
}

/** Takes cairn's server out, and the servers container when it emptied and install created it. */
export function planMcpUninstall(
  text: string,
  spec: McpSpec,
  file: string,
  createdKeys?: string[][],
): McpUninstallPlan {
  if (spec.format === 'toml') return planTomlUninstall(text, file)
  const doc = new JsonText(text, file, spec.comments)
  const servers = serversObject(doc, file)
  if (!isCairnServer(servers?.[MCP_SERVER_NAME])) return {text, removed: false}
  doc.remove(['mcpServers', MCP_SERVER_NAME])
  const created = !createdKeys || createdKeys.some(k => k.length === 1 && k[0] === 'mcpServers')
  if (created && Object.keys(serversObject(doc, file) ?? {}).length === 0) doc.remove(['mcpServers'])
  return {text: doc.text, removed: true}
}

/** Whether the config holds cairn's server (so the install record keeps the bytes from before it). */
export function hasCairnServer(text: string | null, spec: McpSpec, file: string): boolean {
  if (text === null) return false
  if (spec.format === 'toml') return hasTomlServer(text, file)
  return isCairnServer(serversObject(new JsonText(text, file, spec.comments), file)?.[MCP_SERVER_NAME])
}

/** A config that holds nothing at all (`{}` or an empty file): what is left when cairn's was all it had. */
export const isEmptyConfig = (text: string): boolean => /^\s*(?:\{\s*\})?\s*$/.test(text)

function serversObject(doc: JsonText, file: string): Record<string, unknown> | undefined {
  const servers = (doc.value as Record<string, unknown>).mcpServers
  if (servers === undefined || isObject(servers)) return servers
  const fix = 'make "mcpServers" an object of server names to their settings, or remove it'
  throw validationError([{file, field: 'mcpServers', message: 'is not a JSON object', fix}])
}
