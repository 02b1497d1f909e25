import type {Context} from '../context.js'
import {CairnError} from '../domain/errors.js'
import {type ReceiptStats, receiptStats} from '../domain/receipt-stats.js'
import {type Receipt, SINCE_FORMS, sinceInstant} from '../domain/receipts.js'
import {closest, didYouMean} from '../domain/suggest.js'
import type {Store} from '../store/layout.js'
import type {WritableStore} from '../store/stores.js'
import {openStores} from './stores.js'

export interface ReceiptsInput {
  /** Only this session's receipts; a session no receipt names is refused (not_found). */
  session?: string
  /** Only receipts from then on: a date, an RFC 3339 time or a span back (sinceInstant). */
  since?: string
  /** The latest this many. */
  limit?: number
  /** Whose receipts: the hooks' store (the project's, else the personal one) by default. */
  store?: 'project' | 'personal'
}

export interface ReceiptsResult {
  store: 'project' | 'personal'
  /** Oldest first. */
  receipts: Receipt[]
  /** Receipts the store keeps, before any filter. */
  kept: number
  /** The oldest receipt kept (older ones were rotated out); null when there is none. */
  from: string | null
}

export type StatsResult = {store: 'project' | 'personal'; kept: number} & ReceiptStats

/** The receipts the hooks left (.local/receipts.jsonl and its older generations), filtered as asked. */
export async function receipts(ctx: Context, input: ReceiptsInput = {}): Promise<ReceiptsResult> {
  const since = sinceOf(ctx, input.since)
  const {store, all} = await readAll(ctx, input.store)
  let list: Receipt[] = all
  if (input.session !== undefined) {
    list = list.filter(r => r.session === input.session)
    if (!list.length) throw unknownSession(input.session, all, store)
  }
  if (since) list = list.filter(r => Date.parse(r.ts) >= since.getTime())
  if (input.limit) list = list.slice(-input.limit)
  return {store: store.kind, receipts: list, kept: all.length, from: oldest(all)}
}

/** The receipts summed: per card how often, in how many sessions, when last and its share; per session the total. */
export async function stats(ctx: Context, input: Pick<ReceiptsInput, 'since' | 'store'> = {}): Promise<StatsResult> {
  const since = sinceOf(ctx, input.since)
  const {store, all} = await readAll(ctx, input.store)
  const list = since ? all.filter(r => Date.parse(r.ts) >= since.getTime()) : all
  return {store: store.kind, kept: all.length, ...receiptStats(list, store.kind)}
}

async function readAll(ctx: Context, choice: ReceiptsInput['store']): Promise<{store: WritableStore; all: Receipt[]}> {
  const stores = openStores(ctx)
  const store = choice ? stores.readable(choice)[0] : (stores.existing()[0] ?? stores.requireProject())
  return {store, all: await (await stores.local(store)).readReceipts()}
}

function sinceOf(ctx: Context, text: string | undefined): Date | undefined {
  if (text === undefined) return undefined
  const at = sinceInstant(text, ctx.now())
  if (!at) throw new CairnError('usage', `--since "${text}" is not a date. Fix: give ${SINCE_FORMS}`)
  return at
}

const oldest = (list: readonly Receipt[]): string | null =>
  list.reduce<string | null>((a, r) => (a === null || r.ts < a ? r.ts : a), null)

function unknownSession(session: string, all: readonly Receipt[], store: Store): CairnError {
  const sessions = [...new Set(all.map(r => r.session))]
  const suggestions = closest(session, sessions)
  const kept = all.length ? ` (they go back to ${oldest(all)})` : ''
  return new CairnError(
    'not_found',
    `no receipt names session "${session}" in the ${store.kind} store's receipts${kept}.${didYouMean(suggestions)} ` +
      'Fix: pick one from "cairn stats", which lists the sessions',
    {session, suggestions},
  )
}
