import {parse, TomlError} from 'smol-toml'
import {validationError} from '../errors.js'
import {isObject} from './json-edit.js'
import {
  isCairnServer,
  MCP_SERVER_NAME,
  type McpPlan,
  type McpServer,
  type McpUninstallPlan,
  sameServer,
} from './mcp-entry.js'

/**
 * cairn's `[mcp_servers.cairn]` table in Codex's config.toml, edited as text so the user's comments,
 * order and spacing stay: install appends the table, uninstall cuts it out. smol-toml only checks:
 * each edit is parsed again and must change the document by cairn's table alone, else nothing is
 * written and the user is told what to add or remove by hand.
 */

const HEADER = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:cairn|"cairn"|'cairn')[ \t]*\][ \t]*(?:#.*)?$/
const SUB = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:cairn|"cairn"|'cairn')[ \t]*\./
const ANY_HEADER = /^[ \t]*\[/

export function planTomlInstall(text: string | null, server: McpServer, file: string): McpPlan {
  const before = read(text ?? '', file)
  const servers = serversTable(before, file)
  const have = servers?.[MCP_SERVER_NAME]
  const hadCairn = isCairnServer(have)
  const createdKeys = [...(servers ? [] : [['mcp_servers']]), ['mcp_servers', MCP_SERVER_NAME]]
  if (have !== undefined && !hadCairn) return {text: text ?? '', action: 'kept', createdKeys: [], hadCairn}
  if (have !== undefined && sameServer(have as Record<string, unknown>, server)) {
    return {text: text ?? '', action: 'present', createdKeys: [], hadCairn}
  }
  const body = text ?? ''
  const eol = body.includes('\r\n') ? '\r\n' : '\n'
  const lines = [
    `command = ${JSON.stringify(server.command)}`,
    `args = ${JSON.stringify(server.args).replace(/","/g, '", "')}`,
  ]
  if (have !== undefined) {
    const updated = replaceLines(body, lines, eol)
    checkEdit(before, updated, file, {...(have as Record<string, unknown>), ...server}, server)
    return {text: updated as string, action: 'updated', createdKeys: [], hadCairn}
  }
  const gap = body === '' || body.endsWith(eol + eol) ? '' : body.endsWith(eol) ? eol : eol + eol
  const after = `${body}${gap}[mcp_servers.${MCP_SERVER_NAME}]${eol}${lines.join(eol)}${eol}`
  checkEdit(before, after, file, server, server)
  return {text: after, action: 'added', createdKeys, hadCairn}
}

/** Whether the TOML config holds cairn's server. */
export const hasTomlServer = (text: string, file: string): boolean =>
  isCairnServer(serversTable(read(text, file), file)?.[MCP_SERVER_NAME])

export function planTomlUninstall(text: string, file: string): McpUninstallPlan {
  const before = read(text, file)
  const servers = serversTable(before, file)
  if (!isCairnServer(servers?.[MCP_SERVER_NAME])) return {text, removed: false}
  const span = tableSpan(text)
  const note = `take the ${MCP_SERVER_NAME} server out of ${file} by hand: cairn only removes a [mcp_servers.${MCP_SERVER_NAME}] table`
  if (!span) return {text, removed: false, note}
  const lines = text.split('\n')
  // The blank line before the table goes with it (install put it there), when a blank line or the end follows.
  const blank = (i: number) => i >= 0 && i < lines.length && lines[i].trim() === ''
  const from = blank(span.from - 1) && (span.last || blank(span.to)) ? span.from - 1 : span.from
  const after = [...lines.slice(0, from), ...lines.slice(span.to)].join('\n')
  const got = safeParse(after)
  const gone = got && (got.mcp_servers as Record<string, unknown> | undefined)?.[MCP_SERVER_NAME] === undefined
  if (!gone || !sameRest(got, before)) return {text, removed: false, note}
  return {text: after, removed: true}
}

/** Lines [from, to) of the `[mcp_servers.cairn]` table and its sub-tables; null when it is written another way. */
function tableSpan(text: string): {from: number; to: number; last: boolean} | null {
  const lines = text.split('\n')
  const end = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length
  const from = lines.findIndex(l => HEADER.test(l.replace(/\r$/, '')))
  if (from < 0) return null
  let to = from + 1
  while (to < end && !(ANY_HEADER.test(lines[to]) && !SUB.test(lines[to]))) to++
  // Blank lines after the table belong to what follows it, not to cairn's table.
  while (to > from + 1 && lines[to - 1].trim() === '') to--
  return {from, to, last: lines.slice(to, end).every(l => l.trim() === '')}
}

/** The `command` and `args` lines of cairn's table replaced; null when they are not single lines there. */
function replaceLines(text: string, lines: string[], eol: string): string | null {
  const span = tableSpan(text)
  if (!span) return null
  const all = text.split('\n')
  for (const [i, key] of ['command', 'args'].entries()) {
    const at = all.slice(span.from, span.to).findIndex(l => new RegExp(`^[ \\t]*${key}[ \\t]*=`).test(l))
    if (at < 0) return null
    all[span.from + at] = lines[i] + (eol === '\r\n' ? '\r' : '')
  }
  return all.join('\n')
}

/** The edit changed the document by cairn's table alone, else it is refused with the table to write by hand. */
function checkEdit(
  before: Record<string, unknown>,
  after: string | null,
  file: string,
  want: unknown,
  server: McpServer,
): void {
  const got = after === null ? null : safeParse(after)
  const mine = (got?.mcp_servers as Record<string, unknown> | undefined)?.[MCP_SERVER_NAME]
  if (got && same(mine, want) && sameRest(got, before)) return
  // The file writes mcp_servers some other way (an inline table, dotted keys): cairn's entry goes inside it.
  const entry = `${MCP_SERVER_NAME} = { command = ${JSON.stringify(server.command)}, args = ${JSON.stringify(server.args).replace(/","/g, '", "')} }`
  const fix = `add ${entry} inside the mcp_servers table of ${file} by hand (cairn only appends a [mcp_servers.${MCP_SERVER_NAME}] table, which this file's mcp_servers cannot take)`
  throw validationError([
    {file, field: `mcp_servers.${MCP_SERVER_NAME}`, message: 'cannot be added without rewriting the file', fix},
  ])
}

function read(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>
  } catch (error) {
    if (!(error instanceof TomlError)) throw error
    const what = error.message.split('\n')[0].replace(/^Invalid TOML document: /, '')
    throw validationError([
      {
        file,
        field: `line ${error.line}, column ${error.column}`,
        message: `not valid TOML (${what})`,
        fix: `correct ${file} by hand (Codex cannot read it either), then run the command again; nothing was written`,
      },
    ])
  }
}

function safeParse(text: string): Record<string, unknown> | null {
  try {
    return parse(text) as Record<string, unknown>
  } catch {
    return null
  }
}

function serversTable(doc: Record<string, unknown>, file: string): Record<string, unknown> | undefined {
  const servers = doc.mcp_servers
  if (servers === undefined || isObject(servers)) return servers
  const fix = 'make mcp_servers a table of server names to their settings, or remove it'
  throw validationError([{file, field: 'mcp_servers', message: 'is not a table', fix}])
}

/** The two documents agree on everything but cairn's table (an emptied mcp_servers counts as absent). */
function sameRest(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const rest = (doc: Record<string, unknown>) => {
    const {[MCP_SERVER_NAME]: _, ...servers} = (doc.mcp_servers ?? {}) as Record<string, unknown>
    const {mcp_servers: __, ...others} = doc
    return Object.keys(servers).length ? {...others, mcp_servers: servers} : others
  }
  return same(rest(a), rest(b))
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b))

/** A value with its object keys in order, so two parses compare as JSON whatever order the tables came in. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value instanceof Date) return value.toISOString()
  if (!isObject(value)) return value
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map(k => [k, sorted(value[k])]),
  )
}
