import type {Context} from '../../context.js'
import {signalRegistry} from '../../recall/index.js'
import {runMatch} from '../prompt-recall.js'
import {type HookAnswer, type HookInput, NOTHING} from './types.js'
import {openHookView, recordShown} from './view.js'

/** user-prompt-submit: the matcher's light index for the prompt, exactly what promptRecall gives. */
export async function userPromptSubmit(ctx: Context, input: HookInput): Promise<HookAnswer> {
  const view = await openHookView(ctx, input)
  if (!view) return NOTHING
  const local = await view.door.local(view.primary)
  local.recordUsage({event: 'prompt', session: input.session, agent: input.agent}, ctx.now())
  if (!view.index || !input.prompt?.trim()) return NOTHING
  try {
    const r = runMatch(
      view.stores,
      view.index,
      {prompt: input.prompt, bounded: true},
      await signalRegistry(view.index.signals),
    )
    if (!r.text) return NOTHING
    await recordShown(view, input, r.cards)
    return {context: [{kind: 'cards', text: r.text}]}
  } finally {
    view.index.close()
  }
}
