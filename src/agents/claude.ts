/**
 * Claude Code hooks. Source: https://code.claude.com/docs/en/hooks (hook input, hookSpecificOutput,
 * PreToolUse permissionDecision, Stop decision/reason and stop_hook_active, the 10,000-character
 * context preview limit).
 * - stdin: session_id, transcript_path, cwd, hook_event_name; prompt (UserPromptSubmit);
 *   tool_name and tool_input (PreToolUse, PostToolUse); stop_hook_active and
 *   last_assistant_message (Stop). Edit and Write name tool_input.file_path; NotebookEdit names
 *   notebook_path.
 * - stdout: context as hookSpecificOutput.additionalContext (a top-level additionalContext is
 *   ignored); a deny as hookSpecificOutput.permissionDecision "deny" with a reason; a stop block
 *   as {"decision":"block","reason"}.
 */
import type {HookAnswer, HookEvent} from '../app/hooks/types.js'
import {type Adapter, commonInput, json, type Payload, toolInputPaths} from './adapter.js'

export const CLAUDE_EVENT: Record<HookEvent, string> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  'pre-tool-use': 'PreToolUse',
  'post-tool-use': 'PostToolUse',
  stop: 'Stop',
  'session-end': 'SessionEnd',
}

/** Claude Code and Codex answer in the same shapes. */
export function renderHookSpecific(event: HookEvent, answer: HookAnswer, context: string): string {
  if (event === 'pre-tool-use' && answer.deny) {
    return json({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: answer.deny,
      },
    })
  }
  if (event === 'stop') return answer.block ? json({decision: 'block', reason: answer.block}) : ''
  if (event === 'session-end' || !context) return ''
  return json({hookSpecificOutput: {hookEventName: CLAUDE_EVENT[event], additionalContext: context}})
}

export const claude: Adapter = {
  agent: 'claude',
  caps: {preToolContext: true},
  cap: {unit: 'chars', max: 10_000},
  parse: (event: HookEvent, p: Payload) => commonInput('claude', event, p, toolInputPaths(p.tool_input)),
  render: renderHookSpecific,
  neutral: () => '',
}
