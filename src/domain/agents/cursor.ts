/**
 * Cursor.
 * Sources (checked for this module):
 * - https://cursor.com/docs/hooks: hooks live in `.cursor/hooks.json` (project) or
 *   `~/.cursor/hooks.json` (user) as `{"version": 1, "hooks": {"<event>": [{"command": "...",
 *   "matcher": "...", "timeout": N}]}}`, with no nested `hooks` array; `timeout` is in seconds.
 *   Events used here: sessionStart, preToolUse, postToolUse, stop, sessionEnd.
 *   `beforeSubmitPrompt` cannot add context, so it is not installed; nor is `afterFileEdit`: it
 *   cannot add context either, and with postToolUse it would record every edit twice.
 * - https://cursor.com/docs/reference/third-party-hooks: with "Include third-party Plugins, Skills,
 *   and other configs" on, Cursor also runs the Claude Code hooks of `.claude/settings.json`,
 *   `.claude/settings.local.json` and `~/.claude/settings.json`, so hooks installed for both
 *   clients run twice in Cursor.
 * - https://cursor.com/docs/context/skills: skills are `.cursor/skills/<name>/SKILL.md` (project)
 *   and `~/.cursor/skills/<name>/SKILL.md` (user); Cursor also reads `.claude/skills` and `.codex/skills`.
 * - https://cursor.com/docs/context/mcp: MCP servers live in `.cursor/mcp.json` (project) or `~/.cursor/mcp.json`
 *   (user) as `{"mcpServers": {"<name>": {"command": "...", "args": [...]}}}`; `${workspaceFolder}` is
 *   interpolated in args; Cursor offers MCP roots.
 */
import type {ClientSpec} from './types.js'

/** Cursor's tool type for file writes and edits (the reference's own example matcher). */
const EDIT_TOOLS = 'Write'

export const CURSOR: ClientSpec = {
  client: 'cursor',
  label: 'Cursor',
  settingsFile: '.cursor/hooks.json',
  shape: 'flat',
  comments: false,
  timeout: 5,
  required: {version: 1},
  bindings: [
    {clientEvent: 'sessionStart', event: 'session-start'},
    {clientEvent: 'preToolUse', event: 'pre-tool-use', matcher: EDIT_TOOLS},
    {clientEvent: 'postToolUse', event: 'post-tool-use', matcher: EDIT_TOOLS},
    {clientEvent: 'stop', event: 'stop'},
    {clientEvent: 'sessionEnd', event: 'session-end'},
  ],
  skillsDir: '.cursor/skills',
  trust: scope =>
    scope === 'project'
      ? 'Cursor: restart Cursor (hooks.json is read at start) and trust this workspace if it asks.'
      : 'Cursor: restart Cursor (hooks.json is read at start).',
  mcp: {
    file: {project: '.cursor/mcp.json', user: '.cursor/mcp.json'},
    format: 'json',
    comments: true,
    projectArgs: ['--cwd', '${workspaceFolder}'],
    trust: () => 'Cursor: switch the "cairn" server on in Settings, Tools & MCP.',
  },
  checkPayload: cwd => ({
    conversation_id: 'cairn-install-check',
    generation_id: 'cairn-install-check',
    hook_event_name: 'sessionStart',
    workspace_roots: [cwd],
  }),
}

/** Why hooks installed for both Claude Code and Cursor fire twice in Cursor, and the way out. */
export const CURSOR_DOUBLE_FIRE =
  'cairn hooks are installed for both Claude Code and Cursor. With "Include third-party Plugins, Skills, ' +
  'and other configs" on, Cursor also runs the Claude Code hooks, so every cairn hook fires twice in Cursor ' +
  "(once reading Cursor's payload as Claude Code's). Turn that setting off in Cursor Settings, or uninstall " +
  'one of them'
