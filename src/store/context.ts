import {randomBytes} from 'node:crypto'
import {execFileSync} from 'node:child_process'

/** Ambient state, injected so tests pin the clock, the actor and the environment. */
export interface Context {
  cwd: string
  env: Record<string, string | undefined>
  now(): Date
  /** True when the clock is pinned (tests, CAIRN_NOW): commits then carry that date too. */
  pinnedClock: boolean
  /** Who acts: CAIRN_ACTOR, else git's user.name, else $USER, else "cairn" (resolved on first read). */
  actor: string
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

export interface ContextOptions {
  cwd?: string
  env?: Record<string, string | undefined>
  now?: Date | string | (() => Date)
  actor?: string
  stdin?: Buffer | string | (() => Promise<Buffer>)
  progress?: (message: string) => void
  /** Where warnings go besides ctx.warnings (a scratch context passes its parent's on). */
  warn?: (message: string) => void
  /** The source of newId(); random by default. */
  ids?: () => string
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
  return {
    cwd,
    env,
    now,
    pinnedClock: pinned !== undefined,
    // A getter, so a context that never names its actor (the prompt hook) never spawns git.
    get actor() {
      actor ??= gitUserName(cwd, env) ?? nonBlank(env.USER) ?? 'cairn'
      return actor
    },
    readStdin:
      typeof stdin === 'function'
        ? stdin
        : stdin !== undefined
          ? async () => Buffer.from(stdin)
          : readProcessStdin,
    progress: options.progress ?? (() => {}),
    warnings,
    newId: options.ids ?? (() => randomBytes(4).toString('hex')),
    warn: message => {
      if (!warnings.includes(message)) warnings.push(message)
      forward?.(message)
    },
  }
}

/**
 * The context with some members replaced. A spread would read every getter, and reading
 * `actor` runs git: a command that never names its actor must not pay for it.
 */
export function withContext(ctx: Context, changes: Partial<Context>): Context {
  const copy = Object.create(Object.getPrototypeOf(ctx), Object.getOwnPropertyDescriptors(ctx)) as Context
  for (const [k, v] of Object.entries(changes)) Object.defineProperty(copy, k, {value: v, enumerable: true, writable: true, configurable: true})
  return copy
}

/** Trimmed, or undefined when unset or blank. Inner newlines stay: the trailer check refuses them. */
function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

/** git's user.name as seen from cwd (repo, global and system config); undefined when unset or git fails. */
function gitUserName(cwd: string, env: Record<string, string | undefined>): string | undefined {
  try {
    const out = execFileSync('git', ['config', '--get', 'user.name'], {cwd, env: definedOnly(env), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']})
    return nonBlank(out)
  } catch {
    return undefined
  }
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v
  return out
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
