/** What install needs to know about an agent client: pure facts, no I/O. */

export const AGENT_CLIENTS = ['claude', 'codex', 'cursor', 'gemini'] as const
export type AgentClient = (typeof AGENT_CLIENTS)[number]

/** The events `cairn hook <event>` answers (DESIGN: Hooks and agents). */
export const HOOK_EVENTS = [
  'session-start',
  'user-prompt-submit',
  'pre-tool-use',
  'post-tool-use',
  'stop',
  'session-end',
] as const
export type HookEvent = (typeof HOOK_EVENTS)[number]

export type InstallScope = 'project' | 'user'
export const SKILL_LANGS = ['en', 'zh-CN'] as const
export type SkillLang = (typeof SKILL_LANGS)[number]

/** One client event that runs one cairn event. */
export interface HookBinding {
  clientEvent: string
  event: HookEvent
  /** Tool-name matcher, in the client's own syntax; absent means every occurrence. */
  matcher?: string
}

/**
 * How a client's settings file holds hooks:
 * - grouped: `{"hooks": {"Event": [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"}]}]}}`
 * - flat (Cursor): `{"version": 1, "hooks": {"event": [{"command", "matcher"?, "timeout"}]}}`
 */
export type SettingsShape = 'grouped' | 'flat'

/** Where and how a client reads its MCP servers (`cairn install --mcp`). */
export interface McpSpec {
  /** The file, relative to the project root (project scope) or $HOME (user scope). */
  file: Record<InstallScope, string>
  format: 'json' | 'toml'
  /** The JSON file is read with comments allowed. */
  comments: boolean
  /** Arguments after `mcp` in a project's config (Cursor's workspace folder, for a server started elsewhere). */
  projectArgs?: string[]
  /** The step the user takes before the client starts the server. */
  trust: (scope: InstallScope) => string
}

export interface ClientSpec {
  client: AgentClient
  /** The product's name, for messages. */
  label: string
  /** Settings file, relative to the project root (project scope) or $HOME (user scope). */
  settingsFile: string
  shape: SettingsShape
  /** The client reads its settings with comments allowed (JSONC). */
  comments: boolean
  /** Hook timeout as the client spells it (seconds, or milliseconds for Gemini). */
  timeout: number
  bindings: HookBinding[]
  /** Folder the client reads skills from, relative to the project root or $HOME. */
  skillsDir: string
  /** Extra fields each cairn handler carries (Gemini's `name`). */
  handlerExtras?: (binding: HookBinding) => Record<string, unknown>
  /** Top-level fields the file must have (Cursor's `version`). */
  required?: Record<string, unknown>
  /** The one step the user must take before the client runs the hooks. */
  trust: (scope: InstallScope) => string
  mcp: McpSpec
  /** A minimal session-start payload for the install check, with no store in reach. */
  checkPayload: (cwd: string) => Record<string, unknown>
}
