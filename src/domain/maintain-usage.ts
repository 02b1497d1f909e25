import type {MaintainCard} from './maintain.js'

/**
 * What maintain plans from the receipts (receipt-stats.ts) and the event ledger's reads: an active recall card that no
 * hook matched and nobody read for maintain.unused_days is archived, but only once the receipts go back that far and
 * the card is that old (a fresh install, whose receipts begin today, archives nothing); a card injected often with none
 * of the phrases a person or agent writes (triggers, aliases, use_when) is suggested for cairn enrich. Never a core or
 * protected card: those are injected by choice, not by match.
 */

/** A card's use, as the receipts and the ledger record it on this machine. */
export interface CardUse {
  /** Injections for itself (a prompt or path match; not a catalog line) in the receipts kept. */
  matched: number
  /** Sessions those were in. */
  sessions: number
  /** The latest matched injection or `cairn show` read; null when none is recorded. */
  last: string | null
}

export interface UsageOptions {
  now: Date
  /** The oldest receipt kept; null when there is none. */
  from: string | null
  /** maintain.unused_days; 0 plans no archive for want of use. */
  unusedDays: number
  /** maintain.enrich_min_injections; 0 suggests no enrichment. */
  enrichMinInjections: number
}

export interface Suggestion {
  action: 'enrich'
  id: string
  path: string
  detail: string
}

const DAY = 86_400_000
const day = (iso: string): string => iso.slice(0, 10)

/** Whole days the receipts go back; 0 without any. */
export const receiptDays = (o: Pick<UsageOptions, 'now' | 'from'>): number =>
  o.from ? Math.max(0, Math.floor((o.now.getTime() - Date.parse(o.from)) / DAY)) : 0

const judged = (c: MaintainCard): boolean => c.status === 'active' && c.load === 'recall' && !c.protected

/** Why the card is archived for want of use, or null when it is not (or the receipts cannot tell yet). */
export function unusedDetail(c: MaintainCard, o: UsageOptions | undefined): string | null {
  if (!o || o.unusedDays <= 0 || !judged(c) || receiptDays(o) < o.unusedDays) return null
  const start = o.now.getTime() - o.unusedDays * DAY
  // A card younger than the window has not had its chance; one of unknown age is left alone.
  if (!c.since || Date.parse(c.since) > start) return null
  const last = c.use?.last ?? null
  if (last && Date.parse(last) >= start) return null
  const used = last
    ? `last matched or read on ${day(last)}`
    : `never matched or read since the receipts began on ${day(o.from!)}`
  return `no hook matched it and nobody read it for ${o.unusedDays} days; ${used}`
}

/** Active recall cards injected at least enrichMinInjections times with no triggers, aliases or use_when. */
export function enrichSuggestions(
  cards: readonly MaintainCard[],
  archived: ReadonlySet<string>,
  o: UsageOptions | undefined,
): Suggestion[] {
  if (!o || o.enrichMinInjections <= 0) return []
  return cards
    .filter(c => judged(c) && c.bare && !archived.has(c.id) && (c.use?.matched ?? 0) >= o.enrichMinInjections)
    .sort((a, b) => (b.use?.matched ?? 0) - (a.use?.matched ?? 0) || a.id.localeCompare(b.id))
    .map(c => ({
      action: 'enrich' as const,
      id: c.id,
      path: c.path,
      detail:
        `injected ${c.use!.matched} times in ${c.use!.sessions} session(s) with no triggers, aliases or use_when; ` +
        '"cairn enrich" gives the brief to write them',
    }))
}
