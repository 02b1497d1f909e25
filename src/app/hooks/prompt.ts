import type {Context} from '../../context.js'
import {signalRegistry} from '../../recall/index.js'
import {runMatch} from '../prompt-recall.js'
import {staleNotes} from './stale-note.js'
import {type HookAnswer, type HookInput, NOTHING} from './types.js'
import {promptFiles, promptPathCards} from './tool.js'
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
      staleNotes(view.door, view.stores, view.settings.language),
    )
    const files = promptFiles(view, input, input.prompt)
    if (r.text) {
      await recordShown(view, input, r.cards)
      // Seen now: not listed again as a path card below, nor denied for at a write with path_cards: before_write.
      // Only then: the session record is a locked write the common prompt need not pay for.
      if (files.length > 0 || view.settings.pathCardsBeforeWrite) {
        const local = await view.door.local(view.primary)
        local.updateSession(input.session, state => {
          for (const c of r.cards) if (!state.shown.includes(c.id)) state.shown.push(c.id)
        })
      }
    }
    // The cards of a file the prompt names come now, not with the write, where they would reach the model after it.
    const named = await promptPathCards(view, input, files)
    return {
      context: [...(r.text ? [{kind: 'cards' as const, text: r.text}] : []), ...named.context],
      cards: [...(r.text ? r.entries : []), ...(named.cards ?? [])],
      stores: view.stores,
      language: view.settings.language,
    }
  } finally {
    view.index.close()
  }
}
