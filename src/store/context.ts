/** Ambient state, injected so tests pin the clock, the actor and the environment. */
export interface Context {
  cwd: string
  env: Record<string, string | undefined>
  now(): Date
  /** True when the clock is pinned (tests, CAIRN_NOW): commits then carry that date too. */
  pinnedClock: boolean
  actor: string
  readStdin(): Promise<Buffer>
  /** Progress for long operations; a no-op unless attached to a TTY without --json. */
  progress(message: string): void
  /** A warning for the user (stderr, or the envelope's warnings): recoveries, interrupted writes. */
  warn(message: string): void
  /** Warnings given so far, in order. */
  warnings: string[]
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
  return {
    cwd: options.cwd ?? process.cwd(),
    env,
    now,
    pinnedClock: pinned !== undefined,
    actor: options.actor ?? env.CAIRN_ACTOR ?? env.USER ?? 'cairn',
    readStdin:
      typeof stdin === 'function'
        ? stdin
        : stdin !== undefined
          ? async () => Buffer.from(stdin)
          : readProcessStdin,
    progress: options.progress ?? (() => {}),
    warnings,
    warn: message => {
      if (!warnings.includes(message)) warnings.push(message)
      forward?.(message)
    },
  }
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
