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
const TAIL = new RegExp(` hook (${EVENT_ALT}) --agent (${CLIENT_ALT})$`)
/** One argument as shellQuote writes it: bare, POSIX single-quoted, or cmd.exe double-quoted. */
const WORD = `[\\w@%+=:,./-]+|'[^']*'(?:\\\\''[^']*')*|"(?:[^"]|"")*"`
const LAUNCHER = new RegExp(`^(${WORD}) (${WORD})$`)
const ABSOLUTE = /^(?:\/|[A-Za-z]:\\|\\\\)/
const ENTRY = /[\\/]bin[\\/]run\.js$/

/**
 * Which cairn event and client a hook command runs, or null when it is not cairn's. Only the exact forms
 * hookCommand writes are cairn's (`cairn hook …`, or an absolute node and cairn's bin/run.js, quoted as it
 * quotes them): a command the user built around one (`notify.sh && cairn hook …`, an env prefix, a
 * wrapper) is the user's, so install adds its own entry beside it and uninstall leaves it alone.
 */
export function cairnHookIdentity(command: unknown): {event: HookEvent; client: AgentClient} | null {
  if (typeof command !== 'string') return null
  const m = TAIL.exec(command)
  if (!m) return null
  const id = {event: m[1] as HookEvent, client: m[2] as AgentClient}
  const head = command.slice(0, m.index)
  if (head === 'cairn') return id
  const words = LAUNCHER.exec(head)
  if (!words) return null
  for (const windows of [false, true]) {
    const [node, script] = [unquote(words[1], windows), unquote(words[2], windows)]
    if (!ABSOLUTE.test(node) || !ABSOLUTE.test(script) || !ENTRY.test(script)) continue
    if (hookCommand({kind: 'absolute', node, script, windows}, id.event, id.client) === command) return id
  }
  return null
}

/** The argument a quoted word stands for, read the way shellQuote wrote it for that shell. */
function unquote(word: string, windows: boolean): string {
  if (windows) return word.startsWith('"') ? word.slice(1, -1).replace(/""/g, '"') : word
  return word.startsWith("'") ? word.slice(1, -1).replace(/'\\''/g, "'") : word
}

/** Whether a settings text holds any cairn hook for this client (a quick look, no parse). */
export function mentionsCairnHooks(text: string, client: AgentClient): boolean {
  return new RegExp(`hook\\s+(?:${EVENT_ALT})\\s+--agent\\s+${client}\\b`).test(text)
}

export const sha256 = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex')
