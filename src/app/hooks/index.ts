import type {Context} from '../../context.js'
import type {Capabilities, HookAnswer, HookInput} from './types.js'

/**
 * Runs one hook event in cairn's terms; the runner in src/agents/ wraps it in the use-case runner.
 * Each event's module is imported when that event runs: a hook process runs one event, and module
 * loading is most of a warm hook's cost at 1,000 cards (the bench's hooks scenario measures it).
 */
export async function runHookEvent(ctx: Context, input: HookInput, caps: Capabilities): Promise<HookAnswer> {
  switch (input.event) {
    case 'session-start':
      return (await import('./session-start.js')).sessionStart(ctx, input)
    case 'user-prompt-submit':
      return (await import('./prompt.js')).userPromptSubmit(ctx, input)
    case 'pre-tool-use':
      return (await import('./tool.js')).preToolUse(ctx, input, caps)
    case 'post-tool-use':
      return (await import('./tool.js')).postToolUse(ctx, input, caps)
    case 'stop':
      return (await import('./stop.js')).stop(ctx, input)
    case 'session-end':
      return (await import('./stop.js')).sessionEnd(ctx, input)
  }
}
