import {type Context, isoSeconds} from '../../context.js'
import {charCount} from '../../domain/core.js'
import {printedCards, receiptLine, type ReceiptCard} from '../../domain/receipts.js'
import {openStores} from '../stores.js'
import type {HookAnswer, HookEvent, HookInput} from './types.js'

/**
 * What the client was given of an answer, as its adapter rendered it: a deny's reason (a deny shows no context),
 * else the context, when the adapter printed it at all (Cursor's prompt event cannot carry context: nothing).
 */
export function givenText(event: HookEvent, answer: HookAnswer, context: string, stdout: string): string {
  if (!stdout || event === 'stop' || event === 'session-end') return ''
  return answer.deny ?? context
}

/**
 * Writes the receipt of one hook call that put cards in front of the agent: one line in the primary store's
 * .local/receipts.jsonl naming every card (a personal one marked so), and, when personal cards were given in a
 * project, one in the personal store's naming those, so maintain counts each card in its own store. Nothing when
 * no card was given. It never throws: a receipt is a record, and the hook's answer is already made.
 */
export async function recordReceipt({
  ctx,
  input,
  answer,
  given,
}: {
  ctx: Context
  input: HookInput
  answer: HookAnswer
  /** What the client was given (givenText). */
  given: string
}): Promise<string | null> {
  try {
    const stores = answer.stores ?? []
    const cards = given && answer.cards?.length ? printedCards(answer.cards, given) : []
    if (!cards.length || !stores.length) return null
    const door = openStores(ctx)
    const base = {ts: isoSeconds(ctx.now()), session: input.session, client: input.agent, event: input.event}
    // An org layer's cache is shared and read-only: its cards' receipts stay in the project's.
    for (const store of stores.filter(s => s.kind !== 'org')) {
      const own = store === stores[0] ? cards : cards.filter(c => c.home === store.kind)
      if (!own.length) continue
      const listed: ReceiptCard[] = own.map(c => ({
        id: c.id,
        why: c.why,
        chars: c.chars,
        ...(c.home !== store.kind && c.home !== 'project' ? {store: c.home} : {}),
      }))
      const local = await door.local(store)
      await local.appendReceipt(receiptLine({...base, cards: listed, chars: charCount(given)}))
    }
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
