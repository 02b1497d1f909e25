import type {Context} from '../../store/context.js'
import {userPromptSubmit} from './prompt.js'
import {sessionStart} from './session-start.js'
import {sessionEnd, stop} from './stop.js'
import {postToolUse, preToolUse} from './tool.js'
import type {Capabilities, HookAnswer, HookInput} from './types.js'

/** Runs one hook event in cairn's terms; the runner in src/agents/ wraps it in the use-case runner. */
export function runHookEvent(ctx: Context, input: HookInput, caps: Capabilities): Promise<HookAnswer> {
  switch (input.event) {
    case 'session-start':
      return sessionStart(ctx, input)
    case 'user-prompt-submit':
      return userPromptSubmit(ctx, input)
    case 'pre-tool-use':
      return preToolUse(ctx, input, caps)
    case 'post-tool-use':
      return postToolUse(ctx, input, caps)
    case 'stop':
      return stop(ctx, input)
    case 'session-end':
      return sessionEnd(ctx, input)
  }
}

export * from './types.js'
