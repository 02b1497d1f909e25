import type {Config} from '../domain/config.js'
import {type CardUse, receiptDays} from '../domain/maintain-usage.js'
import {type CardStat, receiptStats} from '../domain/receipt-stats.js'
import type {LocalFiles} from '../store/agents/local-files.js'

/** The injections maintain planned with, and the short table its plan (and the weekly pull request) ends with. */
export interface Injections {
  receipts: number
  /** The oldest and the latest receipt kept; null when there is none. */
  from: string | null
  to: string | null
  /**
   * The oldest receipt of a prompt's matching (user-prompt-submit), null when none: a client whose prompt event carries
   * no context (Cursor) leaves none, so its machine never judges a card unused.
   */
  prompts_from: string | null
  /** Whole days the prompt receipts go back: unused cards are judged once this reaches unused_days. */
  days: number
  unused_days: number
  /** Distinct cards injected. */
  cards: number
  /** The most injected cards, at most TOP. */
  top: CardStat[]
}

/** Rows of the plan's table: a short one, the rest is `cairn stats`. */
export const TOP = 10

/**
 * Each card's use in this store, from its receipts (matched injections, not catalog lines) and its ledger's
 * `cairn show` reads (an agent that read a card from the catalog used it), and the injections summed.
 */
export async function storeUse(
  local: LocalFiles,
  kind: 'project' | 'personal',
  config: Config,
  now: Date,
): Promise<{use: Map<string, CardUse>; injections: Injections}> {
  const receipts = await local.readReceipts()
  const stats = receiptStats(receipts, kind)
  const prompts = receipts.filter(r => r.event === 'user-prompt-submit').map(r => r.ts)
  const promptsFrom = prompts.length ? prompts.reduce((a, b) => (b < a ? b : a)) : null
  const read = new Map<string, string>()
  for (const e of local.readEvents()) {
    const at = typeof e.ts === 'string' ? Date.parse(e.ts) : NaN
    if (e.event !== 'card_read' || typeof e.card !== 'string' || Number.isNaN(at)) continue
    // The receipts' form (UTC, seconds), so the two compare as text.
    const ts = new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z')
    const prev = read.get(e.card)
    if (!prev || ts > prev) read.set(e.card, ts)
  }
  const use = new Map<string, CardUse>()
  for (const c of stats.cards) {
    if (c.store !== kind || c.matched === 0) continue
    use.set(c.id, {matched: c.matched, sessions: c.sessions, last: c.last_matched})
  }
  for (const [id, ts] of read) {
    const u = use.get(id) ?? {matched: 0, sessions: 0, last: null}
    use.set(id, {...u, last: u.last && u.last > ts ? u.last : ts})
  }
  const injections: Injections = {
    receipts: stats.receipts,
    from: stats.from,
    to: stats.to,
    prompts_from: promptsFrom,
    days: receiptDays({now, from: promptsFrom}),
    unused_days: config.maintain.unused_days,
    cards: stats.cards.length,
    top: stats.cards.slice(0, TOP),
  }
  return {use, injections}
}
