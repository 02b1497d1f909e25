import {
  type Capabilities,
  type HookAnswer,
  type HookEvent,
  type HookInput,
  MAX_EVENT_PATHS,
  MAX_PATH_CHARS,
  type Transcript,
} from '../app/hooks/types.js'
import type {AgentClient as Agent} from '../domain/agents/types.js'
import {readTranscript} from './transcript.js'

export {AGENT_CLIENTS as AGENTS, type AgentClient as Agent} from '../domain/agents/types.js'

/** The most one event may inject: Claude Code cuts context past 10,000 characters; Codex caps hook text near 2,500 tokens. */
export interface SizeCap {
  unit: 'chars' | 'tokens'
  max: number
}

/** One client's hook wire format: its stdin turned into cairn's HookInput, cairn's answer into its stdout. */
export interface Adapter {
  agent: Agent
  caps: Capabilities
  cap: SizeCap
  parse(event: HookEvent, payload: Payload): HookInput
  /** The client's stdout for an answer whose context already fits the cap; '' prints nothing. */
  render(event: HookEvent, answer: HookAnswer, context: string): string
  /** What the client needs when cairn has nothing to say (a Codex Stop hook must print JSON). */
  neutral(event: HookEvent): string
}

export type Payload = Record<string, unknown>

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/**
 * The fields every client shares under the same names (Claude Code, Codex and Gemini CLI). The
 * paths are cut to what one event works on here, before any work is done per path.
 */
export function commonInput(agent: Agent, event: HookEvent, p: Payload, named: string[]): HookInput {
  const transcriptPath = str(p.transcript_path)
  const paths = named.filter(f => f.length <= MAX_PATH_CHARS).slice(0, MAX_EVENT_PATHS)
  return {
    event,
    agent,
    session: str(p.session_id) ?? '',
    cwd: str(p.cwd),
    prompt: str(p.prompt),
    tool: str(p.tool_name),
    paths,
    ...(named.length > paths.length ? {droppedPaths: named.length - paths.length} : {}),
    transcriptPath,
    lastAssistantMessage: str(p.last_assistant_message),
    stopHookActive: p.stop_hook_active === true,
    readTranscript: (): Transcript => readTranscript(transcriptPath),
  }
}

/** file_path (Write, Edit, MultiEdit, write_file, replace), notebook_path (NotebookEdit), or path. */
export function toolInputPaths(input: unknown): string[] {
  if (!input || typeof input !== 'object') return []
  const o = input as Record<string, unknown>
  return [o.file_path, o.notebook_path, o.path].filter((v): v is string => typeof v === 'string' && v.length > 0)
}

export const json = (value: unknown): string => JSON.stringify(value)
