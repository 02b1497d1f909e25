/**
 * Gemini CLI.
 * Sources (checked for this module, google-gemini/gemini-cli at 5411f11):
 * - docs/hooks/index.md and docs/hooks/reference.md: hooks live in `.gemini/settings.json`
 *   (project) or `~/.gemini/settings.json` (user) as `{"hooks": {"<Event>": [{"matcher": "...",
 *   "hooks": [{"name": "...", "type": "command", "command": "...", "timeout": N}]}]}}`; `timeout`
 *   is in **milliseconds**; tool matchers are regular expressions, lifecycle matchers exact strings.
 * - packages/core/src/hooks/types.ts: events SessionStart, SessionEnd, BeforeAgent, AfterAgent,
 *   BeforeTool, AfterTool (and others); `enabled`, `disabled` and `notifications` are not events.
 * - packages/core/src/tools/definitions/base-declarations.ts: the edit tools are `write_file` and
 *   `replace`.
 * - packages/cli/src/config/settings.ts: settings are read with comments stripped (JSONC).
 * - packages/core/src/hooks/hookRegistry.ts and trustedHooks.ts: project hooks run only in a
 *   trusted folder, and a new or changed project hook (by name and command) is announced once.
 * - docs/cli/skills.md: skills are `.gemini/skills/<name>/SKILL.md` (workspace) and
 *   `~/.gemini/skills/<name>/SKILL.md` (user).
 * - docs/tools/mcp-server.md: MCP servers are `mcpServers` in the same settings.json, as
 *   `{"<name>": {"command": "...", "args": [...]}}`; project settings apply only in a trusted folder.
 */
import type {ClientSpec} from './types.js'

const EDIT_TOOLS = 'write_file|replace'

export const GEMINI: ClientSpec = {
  client: 'gemini',
  label: 'Gemini CLI',
  settingsFile: '.gemini/settings.json',
  shape: 'grouped',
  comments: true,
  timeout: 5000,
  bindings: [
    {clientEvent: 'SessionStart', event: 'session-start'},
    {clientEvent: 'BeforeAgent', event: 'user-prompt-submit'},
    {clientEvent: 'BeforeTool', event: 'pre-tool-use', matcher: EDIT_TOOLS},
    {clientEvent: 'AfterTool', event: 'post-tool-use', matcher: EDIT_TOOLS},
    {clientEvent: 'AfterAgent', event: 'stop'},
    {clientEvent: 'SessionEnd', event: 'session-end'},
  ],
  // A name lets the user find and toggle each hook with /hooks.
  handlerExtras: binding => ({name: `cairn-${binding.event}`}),
  skillsDir: '.gemini/skills',
  trust: scope =>
    scope === 'project'
      ? 'Gemini CLI: trust this folder (the trust dialog, or /permissions); project hooks run only in a ' +
        'trusted folder, and Gemini warns once about the new hooks.'
      : 'Gemini CLI: start a new session; the hooks are read at start.',
  mcp: {
    file: {project: '.gemini/settings.json', user: '.gemini/settings.json'},
    format: 'json',
    comments: true,
    // As Gemini CLI 0.61.0 showed it: headless, it offers an MCP tool only when tools.allowed names it, whatever
    // the tool's readOnlyHint.
    trust: scope =>
      (scope === 'project'
        ? 'Gemini CLI: the "cairn" server starts only in a trusted folder; check it with /mcp.'
        : 'Gemini CLI: the "cairn" server starts in every session; check it with /mcp.') +
      ' Headless (gemini -p), it offers a cairn tool only when "tools.allowed" in its settings names it ' +
      '(for instance "mcp_cairn_recall").',
  },
  checkPayload: cwd => ({
    session_id: 'cairn-install-check',
    transcript_path: '',
    cwd,
    hook_event_name: 'SessionStart',
    timestamp: '1970-01-01T00:00:00.000Z',
    source: 'startup',
  }),
}
