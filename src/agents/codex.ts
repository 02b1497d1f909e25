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

const PATCH_PATH = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$/gm

/** Every path an apply_patch text adds, updates, deletes or moves to, in order, once each. */
export function patchPaths(patch: string): string[] {
  const out = new Set<string>()
  for (const m of patch.matchAll(PATCH_PATH)) out.add(m[1])
  return [...out]
}

function codexPaths(p: Payload): string[] {
  const input = p.tool_input as Record<string, unknown> | undefined
  const command = input?.command ?? input?.input ?? input?.patch
  const text = typeof command === 'string' ? command : Array.isArray(command) ? command.filter(c => typeof c === 'string').join('\n') : ''
  return [...patchPaths(text), ...toolInputPaths(input)]
}

export const codex: Adapter = {
  agent: 'codex',
  caps: {preToolContext: true},
  cap: {unit: 'tokens', max: 2_500},
  parse: (event: HookEvent, p: Payload) => commonInput('codex', event, p, codexPaths(p)),
  render: renderHookSpecific,
  neutral: event => (event === 'stop' ? '{}' : ''),
}
