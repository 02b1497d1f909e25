/**
 * Cursor hooks. Sources: https://cursor.com/docs/hooks and
 * https://cursor.com/docs/reference/third-party-hooks.
 * - stdin: conversation_id, generation_id, hook_event_name, workspace_roots[], transcript_path.
 *   sessionStart and beforeSubmitPrompt carry no cwd, so the store is found from
 *   workspace_roots[0]; preToolUse and postToolUse carry tool_name, tool_input and cwd;
 *   afterFileEdit carries file_path (absolute) and edits[].
 * - stdout: {"additional_context"} on sessionStart and postToolUse; preToolUse answers
 *   {"permission","user_message","agent_message"}; stop cannot block, so the archive signal goes
 *   out once as {"followup_message"}, and only when the loop's status is "completed". beforeSubmitPrompt cannot add context, so prompt recall has
 *   no Cursor event: Cursor gets the core cards and catalog at sessionStart and the path cards
 *   after the tool.
 */
import type {HookAnswer, HookEvent} from '../app/hooks/types.js'
import {type Adapter, commonInput, json, type Payload, str, toolInputPaths} from './adapter.js'

function cursorInput(event: HookEvent, p: Payload) {
  const roots = Array.isArray(p.workspace_roots)
    ? p.workspace_roots.filter((r): r is string => typeof r === 'string')
    : []
  const paths = [...toolInputPaths(p.tool_input), ...(str(p.file_path) ? [p.file_path as string] : [])]
  const input = commonInput('cursor', event, p, [...new Set(paths)])
  // A stop after the user aborted (or an error) is no moment for a follow-up message: only a
  // completed loop gets one, as if a stop hook were already active otherwise.
  const status = str(p.status)
  const stopHookActive = input.stopHookActive || (status !== null && status !== 'completed')
  return {
    ...input,
    session: str(p.conversation_id) ?? input.session,
    cwd: str(p.cwd) ?? roots[0] ?? null,
    stopHookActive,
  }
}

function render(event: HookEvent, answer: HookAnswer, context: string): string {
  if (event === 'pre-tool-use') {
    return answer.deny ? json({permission: 'deny', user_message: answer.deny, agent_message: answer.deny}) : ''
  }
  if (event === 'stop') return answer.block ? json({followup_message: answer.block}) : ''
  if ((event === 'session-start' || event === 'post-tool-use') && context) return json({additional_context: context})
  return ''
}

export const cursor: Adapter = {
  agent: 'cursor',
  caps: {preToolContext: false},
  cap: {unit: 'chars', max: 10_000},
  parse: cursorInput,
  render,
  neutral: () => '',
}
