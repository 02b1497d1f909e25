/**
 * Gemini CLI hooks. Sources: google-gemini/gemini-cli docs/hooks/reference.md
 * (https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md) and
 * packages/core/src/hooks/types.ts and hookRunner.ts.
 * - stdin: session_id, transcript_path, cwd, hook_event_name, timestamp; prompt (BeforeAgent);
 *   tool_name and tool_input (BeforeTool, AfterTool; write_file and replace name file_path);
 *   prompt_response and stop_hook_active (AfterAgent).
 * - stdout: hookSpecificOutput.additionalContext on SessionStart, BeforeAgent and AfterTool.
 *   BeforeTool has no context field, so it only denies ({"decision":"deny","reason"}), and the
 *   path cards go out on AfterTool. AfterAgent's {"decision":"deny","reason"} rejects the turn's
 *   answer and sends the reason back as a new prompt: cairn's stop block.
 */
import type {HookAnswer, HookEvent} from '../app/hooks/types.js'
import {type Adapter, commonInput, json, type Payload, str, toolInputPaths} from './adapter.js'

const GEMINI_EVENT: Partial<Record<HookEvent, string>> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'BeforeAgent',
  'post-tool-use': 'AfterTool',
}

function render(event: HookEvent, answer: HookAnswer, context: string): string {
  if (event === 'pre-tool-use') return answer.deny ? json({decision: 'deny', reason: answer.deny}) : ''
  if (event === 'stop') return answer.block ? json({decision: 'deny', reason: answer.block}) : ''
  const name = GEMINI_EVENT[event]
  return name && context ? json({hookSpecificOutput: {hookEventName: name, additionalContext: context}}) : ''
}

export const gemini: Adapter = {
  agent: 'gemini',
  caps: {preToolContext: false},
  cap: {unit: 'chars', max: 10_000},
  parse: (event: HookEvent, p: Payload) => {
    const input = commonInput('gemini', event, p, toolInputPaths(p.tool_input))
    return {...input, lastAssistantMessage: str(p.prompt_response) ?? input.lastAssistantMessage}
  },
  render,
  neutral: () => '',
}
