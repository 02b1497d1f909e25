import {createHash} from 'node:crypto'
import {CLAUDE} from './claude.js'
import {CODEX} from './codex.js'
import {CURSOR} from './cursor.js'
import {GEMINI} from './gemini.js'
import {type AgentClient, type ClientSpec, HOOK_EVENTS, type HookEvent, AGENT_CLIENTS} from './types.js'

export * from './types.js'
export {CURSOR_DOUBLE_FIRE} from './cursor.js'

export const CLIENTS: Record<AgentClient, ClientSpec> = {claude: CLAUDE, codex: CODEX, cursor: CURSOR, gemini: GEMINI}

/**
 * How a hook command starts: `cairn` on PATH (portable, for a committed project config), or an
 * absolute node and entry script (one machine's, for a user config).
 */
export type HookLauncher = {kind: 'path'} | {kind: 'absolute'; node: string; script: string; windows?: boolean}

/** The command a client runs for one cairn event. */
export function hookCommand(launcher: HookLauncher, event: HookEvent, client: AgentClient): string {
  const tail = `hook ${event} --agent ${client}`
  if (launcher.kind === 'path') return `cairn ${tail}`
  const q = (s: string) => shellQuote(s, launcher.windows ?? false)
  return `${q(launcher.node)} ${q(launcher.script)} ${tail}`
}

/**
 * One argument for the shell a client runs hooks through: POSIX single quotes (nothing inside is
 * special), or cmd.exe double quotes on Windows. Plain paths stay bare, so commands read well.
 */
export function shellQuote(arg: string, windows: boolean): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg
  if (windows) return `"${arg.replace(/"/g, '""')}"`
  return `'${arg.replace(/'/g, `'\\''`)}'`
}

const EVENT_ALT = HOOK_EVENTS.join('|')
const CLIENT_ALT = AGENT_CLIENTS.join('|')
/** `cairn`, `cairn-memory`, `npx cairn-memory`, or a quoted path ending in cairn or bin/run.js, then the hook. */
const CAIRN_HOOK = new RegExp(
  `(?:^|[\\s/\\\\"'])(?:cairn|cairn-memory|run\\.js)["']?\\s+hook\\s+(${EVENT_ALT})\\s+--agent\\s+(${CLIENT_ALT})\\s*$`,
)

/** Which cairn event and client a hook command runs, or null when it is not cairn's. */
export function cairnHookIdentity(command: unknown): {event: HookEvent; client: AgentClient} | null {
  if (typeof command !== 'string') return null
  const m = CAIRN_HOOK.exec(command)
  return m ? {event: m[1] as HookEvent, client: m[2] as AgentClient} : null
}

/** Whether a settings text holds any cairn hook for this client (a quick look, no parse). */
export function mentionsCairnHooks(text: string, client: AgentClient): boolean {
  return new RegExp(`hook\\s+(?:${EVENT_ALT})\\s+--agent\\s+${client}\\b`).test(text)
}

export const sha256 = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex')
