import {Readable} from 'node:stream'
import {runHook} from '../src/agents/run.js'
import {FIXED_NOW, type Repo} from './helpers.js'

/**
 * What the red-team tests (issue 27) check every hook answer against: the outputs each client
 * documents for each event (shared/reference/agent-hooks.md), written out here rather than taken
 * from the adapters, so an adapter that starts printing something else fails.
 */
export type AnswerKind = 'neutral' | 'context' | 'deny' | 'block'

/** A string field of a documented answer: any non-empty text. */
const TEXT = Symbol('text')
type Shape = {[key: string]: string | typeof TEXT | Shape}

/** The events whose context goes out as hookSpecificOutput, under the client's own event name. */
const HOOK_SPECIFIC: Record<string, Record<string, string>> = {
  claude: {
    'session-start': 'SessionStart',
    'user-prompt-submit': 'UserPromptSubmit',
    'pre-tool-use': 'PreToolUse',
    'post-tool-use': 'PostToolUse',
  },
  gemini: {'session-start': 'SessionStart', 'user-prompt-submit': 'BeforeAgent', 'post-tool-use': 'AfterTool'},
}
HOOK_SPECIFIC.codex = HOOK_SPECIFIC.claude

/** A Codex Stop hook that exits 0 must print JSON; every other neutral answer is nothing at all. */
export const neutralOf = (agent: string, event: string): string => (agent === 'codex' && event === 'stop' ? '{}' : '')

function documented(agent: string, event: string): Partial<Record<AnswerKind, Shape>> {
  const out: Partial<Record<AnswerKind, Shape>> = {}
  if (agent === 'cursor') {
    if (event === 'session-start' || event === 'post-tool-use') out.context = {additional_context: TEXT}
    if (event === 'pre-tool-use') out.deny = {permission: 'deny', user_message: TEXT, agent_message: TEXT}
    if (event === 'stop') out.block = {followup_message: TEXT}
    return out
  }
  const name = HOOK_SPECIFIC[agent][event]
  if (name) out.context = {hookSpecificOutput: {hookEventName: name, additionalContext: TEXT}}
  if (agent === 'gemini') {
    if (event === 'pre-tool-use') out.deny = {decision: 'deny', reason: TEXT}
    if (event === 'stop') out.block = {decision: 'deny', reason: TEXT}
    return out
  }
  if (event === 'pre-tool-use') {
    out.deny = {
      hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: TEXT},
    }
  }
  if (event === 'stop') out.block = {decision: 'block', reason: TEXT}
  return out
}

function fits(value: unknown, shape: Shape | string | typeof TEXT): boolean {
  if (shape === TEXT) return typeof value === 'string' && value.length > 0
  if (typeof shape === 'string') return value === shape
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false
  const keys = Object.keys(value)
  const field = (k: string) => (value as Record<string, unknown>)[k]
  return keys.length === Object.keys(shape).length && keys.every(k => k in shape && fits(field(k), shape[k]))
}

/** Which documented answer stdout is; throws when it is none (not JSON, or a shape the client does not read). */
export function answerKind(agent: string, event: string, stdout: string): AnswerKind {
  if (stdout === neutralOf(agent, event)) return 'neutral'
  let value: unknown
  try {
    value = JSON.parse(stdout)
  } catch {
    throw new Error(`${agent} ${event}: stdout is not JSON: ${JSON.stringify(stdout.slice(0, 200))}`)
  }
  for (const [kind, shape] of Object.entries(documented(agent, event)))
    if (fits(value, shape)) return kind as AnswerKind
  throw new Error(`${agent} ${event}: ${stdout.slice(0, 200)} is not an answer the client documents`)
}

/**
 * The env that raises every hook's deadline to ms (CAIRN_HOOK_DEADLINE_MS wins over the config): the
 * default 1.5 s is the client's budget, not a bound a loaded test machine always meets.
 */
export function hookDeadline(_repo: Repo, ms: number): Record<string, string> {
  return {CAIRN_HOOK_DEADLINE_MS: String(ms)}
}

/** One hook run in process, stdin given as raw bytes (feed() sends only what JSON.stringify makes). */
export async function feedBytes(
  repo: Repo,
  agent: string,
  event: string,
  bytes: Buffer,
  env: Record<string, string> = {},
) {
  const io = {stdin: Readable.from([bytes]), env: {...repo.env, ...env}, cwd: repo.dir, now: FIXED_NOW}
  return runHook([event, '--agent', agent], io)
}

/** Resolves with p, or rejects once ms pass: a hook that hangs fails its run instead of the whole file. */
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([p, late])
  } finally {
    clearTimeout(timer)
  }
}
