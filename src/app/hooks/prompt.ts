import type {Context} from '../../context.js'
import {loadColdRecall, signalRegistry} from '../../recall/index.js'
import {type PromptRecallResult, runMatch} from '../prompt-recall.js'
import {staleNotes} from './stale-note.js'
import {type HookAnswer, type HookInput, NOTHING} from './types.js'
import {promptFiles, promptPathCards} from './tool.js'
import {type HookView, openHookView, recordShown} from './view.js'

/**
 * What the cold path leaves the hook after its match, of the deadline: recording what was shown and
 * writing the receipt take tens of milliseconds.
 */
const COLD_MARGIN_MS = 150

/** user-prompt-submit: the matcher's light index for the prompt, exactly what promptRecall gives. */
export async function userPromptSubmit(ctx: Context, input: HookInput): Promise<HookAnswer> {
  const view = await openHookView(ctx, input)
  if (!view) return NOTHING
  const local = await view.door.local(view.primary)
  local.recordUsage({event: 'prompt', session: input.session, agent: input.agent}, ctx.now())
  if (!input.prompt?.trim()) return NOTHING
  try {
    const r = view.index
      ? runMatch(
          view.stores,
          view.index,
          {prompt: input.prompt, bounded: true},
          await signalRegistry(view.index.signals),
          staleNotes(view.door, view.stores, view.settings.language),
        )
      : await coldMatch(ctx, view, input, input.prompt)
    if (!r) return NOTHING
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
    view.index?.close()
  }
}

/**
 * While the index is cold (a fresh clone: the background build has just started), the answer the
 * index would give, from the card files ripgrep finds (recall/cold.ts); null, today's answer while
 * cold, when rg is missing, time runs out, the answer would depend on the whole library's ranking
 * statistics, or the prompt names files, whose path cards only the index lists.
 */
async function coldMatch(
  ctx: Context,
  view: HookView,
  input: HookInput,
  prompt: string,
): Promise<PromptRecallResult | null> {
  if (promptFiles(view, input, prompt).length > 0) return null
  const {coldIndex} = await loadColdRecall()
  const until = (input.deadlineAt?.() ?? Date.now() + view.settings.deadlineMs) - COLD_MARGIN_MS
  const cold = await coldIndex(view.stores, prompt, {env: ctx.env, until})
  if (!cold) return null
  const note = staleNotes(view.door, view.stores, view.settings.language)
  const r = runMatch(view.stores, cold, {prompt}, await signalRegistry(cold.signals), note)
  return (await cold.confirms(r.match, r.prompt)) && Date.now() <= until ? r : null
}
