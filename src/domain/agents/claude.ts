/**
 * Claude Code.
 * Sources (checked for this module):
 * - https://code.claude.com/docs/en/hooks (formerly https://docs.claude.com/en/docs/claude-code/hooks):
 *   hooks live in `.claude/settings.json` (project) or `~/.claude/settings.json` (user) under
 *   `{"hooks": {"<Event>": [{"matcher": "...", "hooks": [{"type": "command", "command": "...", "timeout": N}]}]}}`;
 *   `timeout` is in seconds; a matcher of letters and `|` is an exact list of tool names (`Edit|Write`);
 *   UserPromptSubmit, Stop and SessionEnd take no matcher; SessionStart without one matches every source.
 *   Hooks are read when a session starts; changes are reviewed in the `/hooks` menu.
 * - https://code.claude.com/docs/en/skills: skills are `.claude/skills/<name>/SKILL.md` (project)
 *   and `~/.claude/skills/<name>/SKILL.md` (user).
 * - https://code.claude.com/docs/en/mcp: MCP servers live in `.mcp.json` at the project root (shared, approved
 *   by each user before first use) or, for the user, at the top level of `~/.claude.json`, as
 *   `{"mcpServers": {"<name>": {"command": "...", "args": [...]}}}`; a stdio server is the default type.
 */
import type {ClientSpec} from './types.js'

const EDIT_TOOLS = 'Edit|Write|MultiEdit|NotebookEdit'

export const CLAUDE: ClientSpec = {
  client: 'claude',
  label: 'Claude Code',
  settingsFile: '.claude/settings.json',
  shape: 'grouped',
  comments: false,
  timeout: 5,
  bindings: [
    {clientEvent: 'SessionStart', event: 'session-start'},
    {clientEvent: 'UserPromptSubmit', event: 'user-prompt-submit'},
    {clientEvent: 'PreToolUse', event: 'pre-tool-use', matcher: EDIT_TOOLS},
    {clientEvent: 'PostToolUse', event: 'post-tool-use', matcher: EDIT_TOOLS},
    {clientEvent: 'Stop', event: 'stop'},
    {clientEvent: 'SessionEnd', event: 'session-end'},
  ],
  skillsDir: '.claude/skills',
  trust: scope =>
    scope === 'project'
      ? 'Claude Code: start a new session in this project (hooks are read at start), accept the workspace ' +
        'trust prompt if it asks, and review the cairn hooks in /hooks.'
      : 'Claude Code: start a new session (hooks are read at start) and review the cairn hooks in /hooks.',
  mcp: {
    file: {project: '.mcp.json', user: '.claude.json'},
    format: 'json',
    comments: false,
    trust: scope =>
      scope === 'project'
        ? 'Claude Code: approve the "cairn" server from .mcp.json when it asks (or in /mcp).'
        : 'Claude Code: the "cairn" server starts in every session; check it with /mcp.',
  },
  checkPayload: cwd => ({
    session_id: 'cairn-install-check',
    transcript_path: null,
    cwd,
    hook_event_name: 'SessionStart',
    source: 'startup',
  }),
}
