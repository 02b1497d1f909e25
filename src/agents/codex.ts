/**
 * Codex CLI hooks. Sources: https://developers.openai.com/codex/hooks and openai/codex
 * codex-rs/hooks/ (the event schemas and src/events/*.rs).
 * - stdin: Claude Code's core fields (session_id, transcript_path, which may be null, cwd,
 *   hook_event_name) plus model and turn_id. Edits arrive as tool_name "apply_patch" with the
 *   whole patch in tool_input.command; the paths are on its "*** Add File:", "*** Update File:",
 *   "*** Delete File:" and "*** Move to:" lines.
 * - stdout: the same hookSpecificOutput shapes as Claude Code. A Stop hook that exits 0 must print
 *   JSON, so its neutral answer is {}.
 * - Hook text shown to the model is capped at about 2,500 tokens.
 */
import type {HookEvent} from '../app/hooks/types.js'
import {type Adapter, commonInput, type Payload, toolInputPaths} from './adapter.js'
import {renderHookSpecific} from './claude.js'

const PATCH_HEADS = ['*** Add File: ', '*** Update File: ', '*** Delete File: ', '*** Move to: ']
/** The line ends a /m regex knows, so a patch with CRLF (or a lone CR) reads as it always did. */
const LINE_END = /\r\n|[\n\r\u2028\u2029]/

/**
 * Every path an apply_patch text adds, updates, deletes or moves to, in order, once each. Plain
 * string work, one pass: the pattern this replaced, `(.+?)\s*$`, went back over a line's trailing
 * spaces from every position, and one line of 100,000 spaces held a hook for 25 s. A path of only
 * spaces names nothing and is skipped.
 */
export function patchPaths(patch: string): string[] {
  const out = new Set<string>()
  for (const line of patch.split(LINE_END)) {
    if (!line.startsWith('*** ')) continue
    const head = PATCH_HEADS.find(h => line.startsWith(h))
    const path = head ? line.slice(head.length).trimEnd() : ''
    if (path) out.add(path)
  }
  return [...out]
}

function codexPaths(p: Payload): string[] {
  const input = p.tool_input as Record<string, unknown> | undefined
  const command = input?.command ?? input?.input ?? input?.patch
  const text =
    typeof command === 'string'
      ? command
      : Array.isArray(command)
        ? command.filter(c => typeof c === 'string').join('\n')
        : ''
  return [...patchPaths(text), ...toolInputPaths(input)]
}

export const codex: Adapter = {
  agent: 'codex',
  caps: {preToolContext: true},
  cap: {unit: 'tokens', max: 2_500},
  parse: (event: HookEvent, p: Payload) => commonInput('codex', event, p, codexPaths(p)),
  // Codex shows a deny as "Command blocked by PreToolUse hook: <reason>. Command: <command>", adding its own period.
  render: (event, answer, context) =>
    renderHookSpecific(event, answer.deny ? {...answer, deny: answer.deny.replace(/\.\s*$/, '')} : answer, context),
  neutral: event => (event === 'stop' ? '{}' : ''),
}
