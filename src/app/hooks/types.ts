/**
 * The hook events in cairn's own terms. Each agent adapter (src/agents/) turns its client's stdin
 * into a HookInput and a HookAnswer into its client's stdout; the use cases here never see a
 * client's wire format.
 */
import type {HookEvent} from '../../domain/agents/types.js'
import type {CardEntry} from '../../domain/receipts.js'
import type {Store} from '../../store/layout.js'
import type {StoreLanguage} from '../../domain/messages/language.js'

export {HOOK_EVENTS, type HookEvent} from '../../domain/agents/types.js'

export interface HookInput {
  event: HookEvent
  agent: string
  /** The client's session (or conversation) id; '' when the payload has none. */
  session: string
  /** Where the agent works: the payload's cwd or first workspace root. Null means no store. */
  cwd: string | null
  prompt: string | null
  tool: string | null
  /** Files the tool writes, absolute or relative to cwd, as the payload names them (at most MAX_EVENT_PATHS). */
  paths: string[]
  /** Paths the payload named past MAX_EVENT_PATHS, or longer than MAX_PATH_CHARS: left out, and counted. */
  droppedPaths?: number
  transcriptPath: string | null
  lastAssistantMessage: string | null
  stopHookActive: boolean
  /** Reads and parses the transcript (stop and session-end only; it may be large). */
  readTranscript: () => Transcript
  /** Tells the runner the store's configured deadlines (hooks.deadline_ms and session_deadline_ms), once known. */
  setDeadline?: (d: {deadlineMs: number; sessionDeadlineMs: number}) => void
  /** When the runner gives up on this event (Date.now() ms): work that may take long stops before it. */
  deadlineAt?: () => number
}

/**
 * The most paths one event works on. Every path costs work (resolving it, matching it against each
 * narrow card, recording it), and a Codex apply_patch can name any number of files: 20,000 took a
 * hook 39 s. A real patch touches tens of files; a codemod's few hundred still fit.
 */
export const MAX_EVENT_PATHS = 1000
/** A longer path names no file (PATH_MAX is 4,096 on Linux), and path handling grows faster than its length. */
export const MAX_PATH_CHARS = 4096

/** What a client's event can carry, so a use case puts context where the client can show it. */
export interface Capabilities {
  /** The pre-tool event can add context (Claude Code, Codex); else path cards go out after the tool. */
  preToolContext: boolean
}

/**
 * A part of the injected context. When a client's cap forces a cut, parts go in this order of
 * priority (issue 9): enforced must-cards, then core cards, then the board brief, then the catalog.
 */
export type PartKind = 'must' | 'core' | 'cards' | 'notice' | 'brief' | 'catalog'
export const PART_PRIORITY: Record<PartKind, number> = {must: 0, core: 1, cards: 1, notice: 2, brief: 3, catalog: 4}

export interface ContextPart {
  kind: PartKind
  text: string
}

export interface HookAnswer {
  context: ContextPart[]
  /** Deny the tool call, with this reason (an enforced must-card). */
  deny?: string
  /** Keep the agent from stopping, with this reason (due signals), at most once per session. */
  block?: string
  /**
   * The cards in the context parts and the deny, each with its entry's text and why it was chosen, and the stores
   * the hook read: the runner writes the receipt once it knows what the client was given.
   */
  cards?: CardEntry[]
  stores?: Store[]
  /** The store's language, for the note a context cut to the client's cap ends with (agents/fit.ts). */
  language?: StoreLanguage
}

export const NOTHING: HookAnswer = {context: []}

/** The session's transcript as the stop hooks need it (parsed by the client's adapter). */
export interface Transcript {
  userMessages: string[]
  lastAssistantMessage: string | null
}
