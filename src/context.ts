import {randomBytes} from 'node:crypto'

/**
 * Ambient state, injected so tests pin the clock, the actor and the environment. Every floor
 * receives it (DESIGN: Code layout); it reaches no disk, git or process itself: the front end
 * that creates it hands in how to look the actor up.
 */
export interface Context {
  cwd: string
  env: Record<string, string | undefined>
  now(): Date
  /** True when the clock is pinned (tests, CAIRN_NOW): commits then carry that date too. */
  pinnedClock: boolean
  /** Who acts: the actor option or CAIRN_ACTOR, else the lookup's answer (git's user.name), else $USER, else "cairn"; looked up once, on the first call. */
  actor(): string
  /** Where a write comes from: the client and session that asked for it, and through what (cli, mcp, import). */
  origin: Origin
  readStdin(): Promise<Buffer>
  /** Progress for long operations; a no-op unless attached to a TTY without --json. */
  progress(message: string): void
  /** A warning for the user (stderr, or the envelope's warnings): recoveries, interrupted writes. */
  warn(message: string): void
  /** Warnings given so far, in order. */
  warnings: string[]
  /** A fresh id of 8 hex digits (board record names, annotation ids); tests pin the sequence. */
  newId(): string
}

/** The client and session a card was proposed from (provenance), as the front end knows them. */
export interface Origin {
  /** claude, codex, cursor, gemini, or the name an MCP client gave; null when nothing says. */
  client: string | null
  session: string | null
  via: 'cli' | 'mcp'
  /** The front end's own session, when neither the client nor the proposal names one: an MCP server's connection. */
  connection?: string
}

/**
 * The origin a command run from a shell can tell from its environment: CAIRN_CLIENT and CAIRN_SESSION_ID when set
 * (cairn's Claude Code session-start hook exports them for the session's shell commands), else the variables each
 * client sets for the commands its agent runs (CLAUDECODE=1, CODEX_THREAD_ID, GEMINI_CLI=1).
 */
export function originFromEnv(env: Record<string, string | undefined>): Origin {
  const client =
    nonBlank(env.CAIRN_CLIENT) ??
    (env.CLAUDECODE === '1'
      ? 'claude'
      : nonBlank(env.CODEX_THREAD_ID)
        ? 'codex'
        : env.GEMINI_CLI === '1'
          ? 'gemini'
          : env.CURSOR_AGENT === '1'
            ? 'cursor'
            : null)
  const session = nonBlank(env.CAIRN_SESSION_ID) ?? (client === 'codex' ? nonBlank(env.CODEX_THREAD_ID) : undefined)
  return {client: clipped(client, 100), session: clipped(session, 200), via: 'cli'}
}

/** A value the environment gave, as a card can hold it: control characters dropped, one line, cut to `max`. */
function clipped(value: string | null | undefined, max: number): string | null {
  const clean = value
    ?.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .trim()
    .slice(0, max)
  return clean ? clean : null
}

export interface ContextOptions {
  cwd?: string
  env?: Record<string, string | undefined>
  now?: Date | string | (() => Date)
  actor?: string
  /** Who acts when neither the actor option nor CAIRN_ACTOR says: the front ends pass git's user.name (store/git.ts). */
  lookupActor?: (cwd: string, env: Record<string, string | undefined>) => string | undefined
  stdin?: Buffer | string | (() => Promise<Buffer>)
  progress?: (message: string) => void
  /** Where warnings go besides ctx.warnings (a scratch context passes its parent's on). */
  warn?: (message: string) => void
  /** The source of newId(); random by default. */
  ids?: () => string
  /** Where writes come from; by default what the environment tells (originFromEnv). */
  origin?: Origin
}

export function createContext(options: ContextOptions = {}): Context {
  const env = options.env ?? process.env
  const pinned = options.now ?? env.CAIRN_NOW
  let now: () => Date
  if (typeof pinned === 'function') now = pinned
  else if (pinned !== undefined) {
    const fixed = new Date(pinned)
    if (Number.isNaN(fixed.getTime())) throw new Error(`CAIRN_NOW is not a valid timestamp: ${String(pinned)}`)
    now = () => new Date(fixed)
  } else now = () => new Date()
  const stdin = options.stdin
  const warnings: string[] = []
  const forward = options.warn
  const cwd = options.cwd ?? process.cwd()
  let actor = options.actor ?? nonBlank(env.CAIRN_ACTOR)
  const lookupActor = options.lookupActor
  return {
    cwd,
    env,
    now,
    pinnedClock: pinned !== undefined,
    origin: options.origin ?? originFromEnv(env),
    // Looked up on the first call, so a context that never names its actor (the prompt hook) never spawns git.
    actor() {
      actor ??= nonBlank(lookupActor?.(cwd, env)) ?? nonBlank(env.USER) ?? 'cairn'
      return actor
    },
    readStdin:
      typeof stdin === 'function' ? stdin : stdin !== undefined ? async () => Buffer.from(stdin) : readProcessStdin,
    progress: options.progress ?? (() => {}),
    warnings,
    newId: options.ids ?? (() => randomBytes(4).toString('hex')),
    warn: message => {
      if (!warnings.includes(message)) warnings.push(message)
      forward?.(message)
    },
  }
}

/** The context with some members replaced; the actor, once looked up, is shared with the original. */
export function withContext(ctx: Context, changes: Partial<Context>): Context {
  return {...ctx, ...changes}
}

/** Trimmed, or undefined when unset or blank. Inner newlines stay: the trailer check refuses them. */
function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

async function readProcessStdin(): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Second-precision UTC timestamp, the form cards and commits use. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}
