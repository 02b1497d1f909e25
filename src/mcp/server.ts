import {fileURLToPath} from 'node:url'
import {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js'
import {CallToolRequestSchema, ErrorCode, McpError, type CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {z} from 'zod'
import {randomBytes} from 'node:crypto'
import {createContext, type Context, type Origin, originFromEnv} from '../context.js'
import {gitUserName} from '../app/stores.js'
import {runUseCase} from '../app/use-case.js'
import {prepareOrgLayers} from '../app/org-prelude.js'
import {MAX_DEPTH, tooDeepAt} from '../domain/depth.js'
import {stdioTransport} from './stdio.js'
import {registerCardResources} from './resources.js'
import {readTools, type ToolSpec} from './tools.js'
import {writeTools} from './write-tools.js'

export interface ServeOptions {
  /** The store's directory when the client offers no roots (the --cwd given at install time). */
  cwd?: string
  version: string
}

/** Serves cairn over MCP on stdin/stdout until the client closes the stream. Logs go to stderr only. */
export async function serveMcp(options: ServeOptions): Promise<void> {
  const server = createMcpServer(options)
  await server.connect(stdioTransport())
}

export function createMcpServer(options: ServeOptions): McpServer {
  const server = new McpServer({name: 'cairn', version: options.version})
  const tools: Record<string, ToolSpec> = {...readTools, ...writeTools}
  const schemas = Object.fromEntries(Object.entries(tools).map(([name, spec]) => [name, z.object(spec.input).strict()]))
  for (const [name, spec] of Object.entries(tools)) {
    // Listing and JSON schemas come from the SDK; calls go through the handler below.
    const {title, ...hints} = spec.hints
    server.registerTool(
      name,
      {
        title,
        description: spec.description,
        inputSchema: schemas[name],
        annotations: {title, ...hints, openWorldHint: false},
      },
      async () => ({content: []}),
    )
  }
  const cwd = scopeResolver(server, options.cwd)
  // One server serves one client session over stdio: its connection names the session when the client does not.
  const session = `mcp-${randomBytes(4).toString('hex')}`
  registerCardResources(server, cwd)
  // The SDK turns a schema failure into a tool result; MCP clients expect invalid params as a JSON-RPC error.
  server.server.setRequestHandler(CallToolRequestSchema, async request => {
    const spec = tools[request.params.name]
    if (!spec) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${request.params.name}`)
    const parsed = schemas[request.params.name].safeParse(request.params.arguments ?? {})
    if (!parsed.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `invalid arguments for ${request.params.name}: ${z.prettifyError(parsed.error)}`,
      )
    }
    // JSON takes any depth; what reads the arguments next (JSON.stringify for a tool's stdin, zod) does not.
    const deep = tooDeepAt(parsed.data)
    if (deep) {
      const message = `invalid arguments for ${request.params.name}: ${deep} nests more than ${MAX_DEPTH} levels deep`
      throw new McpError(ErrorCode.InvalidParams, message)
    }
    const dir = await cwd()
    const from = origin(server, session)
    const outcome = await runUseCase(async warn => {
      const ctx = context(dir, warn, spec.stdin?.(parsed.data), from)
      // The server never touches the network: an org layer whose cache is missing is left out and logged once.
      await prepareOrgLayers(ctx, {fetch: false})
      return spec.run(ctx, parsed.data)
    })
    return {
      content: [{type: 'text', text: JSON.stringify(outcome.envelope)}],
      isError: !outcome.envelope.ok,
    } satisfies CallToolResult
  })
  return server
}

/** A context with no progress (stdout is the protocol's) and warnings into the envelope. */
function context(cwd: string, warn: (message: string) => void, stdin: string | undefined, origin?: Origin): Context {
  // Never the process's stdin: that is the protocol's too.
  return createContext({cwd, warn, stdin: stdin ?? '', lookupActor: gitUserName, origin})
}

/** The clients cairn installs into, by the name each gives in its MCP initialize request. */
const CLIENT_NAMES: [RegExp, string][] = [
  [/claude/i, 'claude'],
  [/codex/i, 'codex'],
  [/gemini/i, 'gemini'],
  [/cursor/i, 'cursor'],
]

/**
 * Where an MCP call comes from: the client by the name it gave on initialize (one cairn installs into by its short
 * name, another by its own, cut to 100 characters of one line), the session its environment names, and the server's
 * connection for a card that names no session of its own.
 */
function origin(server: McpServer, connection: string): Origin {
  const name =
    server.server
      .getClientVersion()
      ?.name?.replace(/[^\x20-\x7e]/g, '')
      .trim() ?? ''
  const known = CLIENT_NAMES.find(([re]) => re.test(name))?.[1]
  const env = originFromEnv(process.env)
  return {client: known ?? (name.slice(0, 100) || env.client), session: env.session, via: 'mcp', connection}
}

/** How long the client has to answer roots/list before the server goes on without roots. */
export const ROOTS_TIMEOUT_MS = 2000

/**
 * The store's directory: the client's first file:// root when it offers roots, else --cwd, else the process's.
 * A client that offers roots but never answers is asked once: after the timeout every call goes on without.
 */
function scopeResolver(server: McpServer, fallback: string | undefined): () => Promise<string> {
  let unanswered = false
  return async () => {
    if (!unanswered && server.server.getClientCapabilities()?.roots) {
      try {
        const {roots} = await server.server.listRoots(undefined, {timeout: ROOTS_TIMEOUT_MS})
        const root = roots.find(r => r.uri.startsWith('file://'))
        if (root) return fileURLToPath(root.uri)
      } catch (error) {
        if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) unanswered = true
        process.stderr.write(`cairn mcp: could not list the client's roots: ${(error as Error).message}\n`)
      }
    }
    return fallback ?? process.cwd()
  }
}
