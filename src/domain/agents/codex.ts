/**
 * Codex CLI.
 * Sources (checked for this module):
 * - https://developers.openai.com/codex/hooks: hooks are read from `<repo>/.codex/hooks.json` and
 *   `~/.codex/hooks.json` (or `[hooks]` in config.toml), same shape as Claude Code's.
 * - openai/codex `codex-rs/config/src/hook_config.rs`: events SessionStart, UserPromptSubmit,
 *   PreToolUse, PostToolUse, Stop (and others); a handler is `{"type": "command", "command",
 *   "timeout"}` with `timeout` in seconds (`timeout_sec`).
 * - Codex CLI 0.171.0 (npm @openai/codex, its binary's embedded hook schemas): a SessionEnd event, whose input is
 *   session_id, transcript_path (or null), cwd, hook_event_name and reason "other", with no output schema.
 * - openai/codex `codex-rs/hooks/src/events/common.rs`: a matcher made of letters, digits, `_` and
 *   `|` is an exact list; UserPromptSubmit and Stop ignore matchers.
 * - openai/codex `HookToolName::apply_patch()`: edits arrive as `apply_patch`, with `Write` and
 *   `Edit` accepted as matcher aliases.
 * - openai/codex `codex-rs/hooks/src/engine/discovery.rs`: a non-managed hook runs only once its
 *   hash is trusted (`/hooks`); a changed hook must be trusted again. Its key is positional
 *   (file, event, group index, handler index), so install appends groups and never reorders.
 * - https://developers.openai.com/codex/skills: skills are `.agents/skills/<name>/SKILL.md` in the
 *   repository and `~/.agents/skills/<name>/SKILL.md` for the user.
 * - https://developers.openai.com/codex/mcp: MCP servers are `[mcp_servers.<name>]` tables with `command` and
 *   `args` in `~/.codex/config.toml`, or in a project's `.codex/config.toml`, read only in a trusted project.
 */
import type {ClientSpec} from './types.js'

const EDIT_TOOLS = 'apply_patch|Edit|Write'

export const CODEX: ClientSpec = {
  client: 'codex',
  label: 'Codex',
  settingsFile: '.codex/hooks.json',
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
  skillsDir: '.agents/skills',
  // As Codex 0.171.0 showed it: `codex exec` skips untrusted hooks without a word, so the trust step comes first.
  trust: scope =>
    (scope === 'project'
      ? 'Codex: trust this project if Codex asks (project hooks run only in a trusted project), then open ' +
        '/hooks and trust the cairn hooks; Codex trusts hooks by hash, so trust them again after an update.'
      : 'Codex: open /hooks and trust the cairn hooks; Codex trusts hooks by hash, ' +
        'so trust them again after an update.') +
    ' Until then "codex exec" skips them silently; "cairn doctor" says whether they are trusted.',
  mcp: {
    file: {project: '.codex/config.toml', user: '.codex/config.toml'},
    format: 'toml',
    comments: false,
    trust: scope =>
      scope === 'project'
        ? 'Codex: the "cairn" server in .codex/config.toml starts only in a trusted project; check it with /mcp.'
        : 'Codex: the "cairn" server starts in every session; check it with /mcp.',
  },
  checkPayload: cwd => ({
    session_id: 'cairn-install-check',
    transcript_path: null,
    cwd,
    hook_event_name: 'SessionStart',
    model: 'cairn-install-check',
    source: 'startup',
  }),
}
