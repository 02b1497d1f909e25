import fs from 'node:fs'
import path from 'node:path'
import {runHookEvent} from '../app/hooks/index.js'
import {HOOK_EVENTS, type HookAnswer, type HookEvent, type HookInput} from '../app/hooks/types.js'
import {runUseCase} from '../app/use-case.js'
import {prepareOrgLayers} from '../app/org-prelude.js'
import {type Context, createContext} from '../context.js'
import {gitUserName} from '../store/git.js'
import {logHookError} from '../store/agents/hook-session.js'
import {initialisedProject, personalHome, personalStoreAt, type Store} from '../store/layout.js'
import {type Adapter, AGENTS, type Agent, type Payload} from './adapter.js'
import {claude} from './claude.js'
import {codex} from './codex.js'
import {cursor} from './cursor.js'
import {fitContext} from './fit.js'
import {gemini} from './gemini.js'
import {exportSession} from './session-env.js'

/**
 * `cairn hook <event> --agent <client>`: reads the client's JSON on stdin, runs the event through
 * the same use-case runner as the CLI, and writes the client's JSON on stdout. It fails open: any
 * error, a stdin over 1 MB, or the deadline passing gives the client's neutral answer, exit 0, and
 * one line in hook-errors.log. The only non-neutral answers are the deliberate ones (context, a
 * deny, a stop block). Loaded without oclif (bin/run.js takes this path first).
 */
export const ADAPTERS: Record<Agent, Adapter> = {claude, codex, cursor, gemini}
export const MAX_STDIN = 1024 * 1024
export const DEFAULT_DEADLINE_MS = 1500
/** Session start, stop and session end run once a session, and a late session start would lose the core cards. */
export const DEFAULT_SESSION_DEADLINE_MS = 4000
const MAX_ENV_DEADLINE_MS = 600_000
const SESSION_EVENTS: ReadonlySet<HookEvent> = new Set(['session-start', 'stop', 'session-end'])

export interface HookIO {
  /** The stdin stream (or chunks); read until its end or until it passes 1 MB. */
  stdin: AsyncIterable<Buffer | string>
  env: Record<string, string | undefined>
  /** The process's own cwd: used only to place the error log when the payload names none. */
  cwd: string
  /** Stdin is a terminal: a person, not an agent, is running the hook. */
  isTTY?: boolean
  now?: Date | string
}

export interface HookRun {
  stdout: string
  /** Set when the hook failed open; the line that went to hook-errors.log. */
  error?: string
  /** For a person running the command by hand (a usage mistake, a terminal on stdin); never stdout. */
  stderr?: string
}

class HookFailure extends Error {}

export async function runHook(argv: readonly string[], io: HookIO): Promise<HookRun> {
  const started = Date.now()
  const {event, agent} = parseArgs(argv)
  const adapter = agent && event ? ADAPTERS[agent] : undefined
  const neutral = adapter && event ? adapter.neutral(event) : ''
  let payloadCwd: string | null = null
  const fail = (message: string): HookRun => {
    const line = `${new Date().toISOString()} ${agent ?? '?'} ${event ?? '?'}: ${message}`
    logHookError(errorLogStore(io, payloadCwd), line)
    return {stdout: neutral, error: line}
  }
  if (!event || !adapter) {
    const usage = `usage: cairn hook <${HOOK_EVENTS.join('|')}> --agent <${AGENTS.join('|')}> (got: ${argv.join(' ') || 'nothing'})`
    // A hook config with a typo would otherwise fail silently forever: say it where a person looks.
    return {...fail(usage), stderr: `cairn hook: ${usage}. See cairn hook --help\n`}
  }
  if (io.isTTY) {
    return {
      stdout: neutral,
      stderr: "cairn hook reads the agent's JSON payload on stdin; pipe one in (see cairn hook --help)\n",
    }
  }
  // CAIRN_HOOK_DEADLINE_MS, when set, is every event's deadline and the config's are not read: whole milliseconds,
  // at most 10 minutes (the longest a client waits; past 2^31 ms a timer would fire at once).
  const given = io.env.CAIRN_HOOK_DEADLINE_MS?.trim() ?? ''
  const fixed = /^\d{1,9}$/.test(given) && Number(given) > 0 ? Math.min(Number(given), MAX_ENV_DEADLINE_MS) : undefined
  const session = SESSION_EVENTS.has(event)
  let deadlineMs = fixed ?? (session ? DEFAULT_SESSION_DEADLINE_MS : DEFAULT_DEADLINE_MS)
  let timer: NodeJS.Timeout | undefined
  let expire: () => void = () => {}
  const deadline = new Promise<never>((_, reject) => {
    expire = () => reject(new HookFailure(`passed the ${deadlineMs} ms deadline`))
    timer = setTimeout(expire, deadlineMs)
  })
  const setDeadline = (d: {deadlineMs: number; sessionDeadlineMs: number}): void => {
    const ms = session ? d.sessionDeadlineMs : d.deadlineMs
    if (fixed !== undefined || !(ms > 0) || ms === deadlineMs) return
    deadlineMs = ms
    clearTimeout(timer)
    timer = setTimeout(expire, Math.max(0, ms - (Date.now() - started)))
  }
  deadline.catch(() => {})
  try {
    const payload = await Promise.race([readPayload(io.stdin, head => (payloadCwd = cwdInHead(head))), deadline])
    const input = {...adapter.parse(event, payload), setDeadline, deadlineAt: () => started + deadlineMs}
    payloadCwd = input.cwd
    exportSession(input, io.env)
    if (!input.cwd) return {stdout: neutral}
    if (!isDir(input.cwd)) return fail(`the working directory ${input.cwd} does not exist`)
    const ctx = createContext({cwd: input.cwd, env: io.env, now: io.now ?? io.env.CAIRN_NOW, lookupActor: gitUserName})
    const outcome = await Promise.race([
      runUseCase(async () => {
        // A hook never fetches: an org layer whose cache is missing is left out and logged once.
        await prepareOrgLayers(ctx, {fetch: false})
        return {data: await runHookEvent(ctx, input, adapter.caps)}
      }),
      deadline,
    ])
    if (!outcome.envelope.ok) return fail(`${outcome.envelope.error.code}: ${outcome.envelope.error.message}`)
    const answer: HookAnswer = outcome.envelope.data
    // Work that never yielded to the timer still counts: late context is not given. A deny or a
    // block is, late or not: the session already recorded it, so dropping it would lose it.
    if (Date.now() - started > deadlineMs && !answer.deny && !answer.block)
      throw new HookFailure(`passed the ${deadlineMs} ms deadline`)
    const context = fitContext(answer.context, adapter.cap, answer.language)
    const out = adapter.render(event, answer, context)
    if (answer.cards?.length) await keepReceipt(io, {ctx, input, answer, event, context, out})
    return {stdout: out || neutral}
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error))
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The receipt of what the client is given: a failure to write it goes to the error log, and changes nothing printed.
 * Loaded only when the answer gives cards, so a hook that gives none never loads it.
 */
async function keepReceipt(
  io: HookIO,
  r: {ctx: Context; input: HookInput; answer: HookAnswer; event: HookEvent; context: string; out: string},
): Promise<void> {
  const {givenText, recordReceipt} = await import('../app/hooks/receipt.js')
  const {ctx, input, answer} = r
  const failed = await recordReceipt({ctx, input, answer, given: givenText(r.event, answer, r.context, r.out)})
  if (!failed) return
  try {
    const line = `${new Date().toISOString()} ${r.input.agent} ${r.input.event}: receipt not written: ${failed}`
    logHookError(errorLogStore(io, r.input.cwd), line)
  } catch {
    // The log is a hint too.
  }
}

function parseArgs(argv: readonly string[]): {event?: HookEvent; agent?: Agent} {
  let event: HookEvent | undefined
  let agent: Agent | undefined
  let bad = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = a === '--agent' ? argv[++i] : a.startsWith('--agent=') ? a.slice(8) : undefined
    if (value !== undefined) {
      if ((AGENTS as readonly string[]).includes(value)) agent = value as Agent
      else bad = true
    } else if ((HOOK_EVENTS as readonly string[]).includes(a) && !event) event = a as HookEvent
    else bad = true
  }
  // Both names are kept for the log line even when the call is refused.
  return bad ? {event: event && agent ? undefined : event, agent: event && agent ? undefined : agent} : {event, agent}
}

/** Stdin as one JSON object; over 1 MB it stops reading and fails (a 70 MB prompt must not cost 46 s). */
async function readPayload(stdin: AsyncIterable<Buffer | string>, tooLarge: (head: string) => void): Promise<Payload> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    size += b.length
    if (size > MAX_STDIN) {
      tooLarge(
        Buffer.concat([...chunks, b])
          .subarray(0, 64 * 1024)
          .toString('utf8'),
      )
      throw new HookFailure(`stdin is over ${MAX_STDIN} bytes`)
    }
    chunks.push(b)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  let payload: unknown
  try {
    payload = JSON.parse(text)
  } catch {
    throw new HookFailure(`stdin is not JSON (${size} bytes)`)
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    throw new HookFailure('stdin is not a JSON object')
  return payload as Payload
}

/** The payload's cwd from the head of a payload too large to parse, so its error goes to that project's log. */
function cwdInHead(head: string): string | null {
  const m =
    /"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(head) ?? /"workspace_roots"\s*:\s*\[\s*("(?:[^"\\]|\\.)*")/.exec(head)
  if (!m) return null
  try {
    return JSON.parse(m[1]) as string
  } catch {
    return null
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory()
  } catch {
    return false
  }
}

/** Whose .local/ gets the line: the project store around the payload's cwd (else the process's), else $CAIRN_HOME's. */
function errorLogStore(io: HookIO, payloadCwd: string | null): Store {
  const ctx = createContext({
    cwd: payloadCwd && isDir(payloadCwd) ? payloadCwd : io.cwd,
    env: io.env,
    lookupActor: gitUserName,
  })
  try {
    const project = initialisedProject(ctx)
    if (project) return project
  } catch {
    // Fall through to the personal home.
  }
  return personalStoreAt(personalHome(ctx))
}

/** The process entry: bin/run.js calls this for `cairn hook`, and it always exits 0. */
export async function main(argv: readonly string[]): Promise<void> {
  let out = ''
  try {
    const run = await runHook(argv, {
      stdin: process.stdin,
      env: process.env,
      cwd: safeCwd(),
      isTTY: process.stdin.isTTY === true,
    })
    out = run.stdout
    if (run.stderr) process.stderr.write(run.stderr)
  } catch {
    const {event, agent} = parseArgs(argv)
    out = event && agent ? ADAPTERS[agent].neutral(event) : ''
  }
  if (out) process.stdout.write(`${out}\n`, () => process.exit(0))
  else process.exit(0)
}

function safeCwd(): string {
  try {
    return process.cwd()
  } catch {
    return '/'
  }
}
