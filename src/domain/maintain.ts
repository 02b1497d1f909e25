import {type CardUse, enrichSuggestions, type Suggestion, unusedDetail, type UsageOptions} from './maintain-usage.js'

/**
 * The maintenance planner (seed 001 prune/maintain): a pure function from the store's
 * reviewed cards to a plan. Archives and demotions are fixes; broken links are only reported;
 * enrichments are suggested (they need an agent's words, not a move).
 */

export interface MaintainCard {
  id: string
  path: string
  status: string
  load: 'core' | 'recall'
  protected: boolean
  keywords: string[]
  links: string[]
  /** updated, or the last commit time when the card has none. */
  updated: string | null
  coreChars: number
  usage: number
  /** When it became active (approved, else created, else updated): a card newer than unused_days is not judged. */
  since?: string | null
  /** It has no triggers, aliases or use_when (domain/thin.ts isBare). */
  bare?: boolean
  /** What the receipts and the ledger record of its use on this machine. */
  use?: CardUse
  /** What cairn stale found against the card's evidence: none when it found nothing. */
  stale?: {
    /** Every file, folder and symbol the card cites is gone. */
    gone: boolean
    /** Some cited file, folder or symbol is gone (a rewrite or a late confirmation alone is not). */
    broken: boolean
    /** When the card was last confirmed (cairn verify, approval, edit). */
    confirmedAt: string | null
    why: string[]
  }
}

export type Reason =
  | 'deprecated'
  | 'superseded'
  | 'stale'
  | 'duplicate-keywords'
  | 'core-over-budget'
  | 'evidence-gone'
  | 'evidence-broken'
  | 'unused'

export interface Action {
  action: 'archive' | 'demote'
  id: string
  path: string
  reasons: Reason[]
  detail: string
}

export interface Plan {
  actions: Action[]
  reports: {problem: 'broken-link' | 'core-over-budget'; id: string | null; path: string | null; detail: string}[]
  skipped: {id: string; reasons: Reason[]; detail: string}[]
  core: {budget: number; before: number; after: number}
  /** Every card cairn stale lists (evidence changed, or not confirmed for verify_days), acted on or not. */
  stale: {id: string; why: string[]}[]
  /** Cards to enrich (injected often, with thin recall fields): not fixes, so an empty plan may have some. */
  suggestions: Suggestion[]
}

export interface PlanOptions {
  coreBudget: number
  staleDays: number
  now: Date
  /** Every live id in the store (pending and reviewed), for link checks. */
  knownIds: Set<string>
  /** A card whose whole evidence is gone and that nobody confirmed for this many days is archived (0: at once). */
  staleGraceDays?: number
  /** The receipts' span and the thresholds that use them (maintain-usage.ts); without it, use plans nothing. */
  usage?: Omit<UsageOptions, 'now'>
}

const DAY = 86_400_000
const newestFirst = (a: MaintainCard, b: MaintainCard) =>
  (b.updated ?? '').localeCompare(a.updated ?? '') || a.id.localeCompare(b.id)

type Hits = Map<string, {reasons: Reason[]; detail: string[]}>

export function planMaintenance(cards: MaintainCard[], o: PlanOptions): Plan {
  const hits = findHits(cards, o)
  const actions: Action[] = []
  const skipped: Plan['skipped'] = []
  const archived = archiveHits(cards, hits, actions, skipped)
  const reports: Plan['reports'] = []
  demoteBroken(cards, archived, actions)
  const demoted = new Set(actions.filter(a => a.action === 'demote').map(a => a.id))
  const core = demoteOverBudget(cards, {archived, demoted}, o.coreBudget, actions, reports)
  reportBrokenLinks(cards, archived, o.knownIds, reports)
  const stale = cards.filter(c => c.stale).map(c => ({id: c.id, why: c.stale!.why}))
  const suggestions = enrichSuggestions(cards, archived, o.usage && {...o.usage, now: o.now})
  return {actions, reports, skipped, core, stale, suggestions}
}

/** A core card whose evidence is partly gone is injected into every session: it goes back to recall until checked. */
function demoteBroken(cards: MaintainCard[], archived: Set<string>, actions: Action[]): void {
  for (const c of cards) {
    if (c.load !== 'core' || !c.stale?.broken || archived.has(c.id) || c.protected) continue
    const detail = `may be stale: ${c.stale.why.join('; ')}; cairn verify ${c.id} confirms it`
    actions.push({action: 'demote', id: c.id, path: c.path, reasons: ['evidence-broken'], detail})
  }
}

/** Every card's archive reasons, in order: status, staleness, then duplicate keyword sets. */
function findHits(cards: MaintainCard[], o: PlanOptions): Hits {
  const hits: Hits = new Map()
  const hit = (c: MaintainCard, reason: Reason, detail: string) => {
    const h = hits.get(c.id) ?? {reasons: [], detail: []}
    h.reasons.push(reason)
    h.detail.push(detail)
    hits.set(c.id, h)
  }
  for (const c of cards) {
    if (c.status === 'deprecated' || c.status === 'superseded') hit(c, c.status, `status is ${c.status}`)
    const confirmed = c.stale?.confirmedAt ? new Date(c.stale.confirmedAt).getTime() : 0
    if (c.stale?.gone && o.now.getTime() - confirmed > (o.staleGraceDays ?? 30) * DAY)
      hit(c, 'evidence-gone', `everything it cites is gone (${c.stale.why.join('; ')})`)
    const unused = unusedDetail(c, o.usage && {...o.usage, now: o.now})
    if (unused) hit(c, 'unused', unused)
    if (c.updated && o.now.getTime() - new Date(c.updated).getTime() > o.staleDays * DAY) {
      hit(
        c,
        'stale',
        `not updated for ${Math.floor((o.now.getTime() - new Date(c.updated).getTime()) / DAY)} days (stale after ${o.staleDays})`,
      )
    }
  }
  const groups = new Map<string, MaintainCard[]>()
  for (const c of cards) {
    const key = [...new Set(c.keywords.map(k => k.trim().toLowerCase()))].sort().join('\u0000')
    if (key) groups.set(key, [...(groups.get(key) ?? []), c])
  }
  for (const group of groups.values()) {
    if (group.length < 3) continue
    const [keep, ...rest] = [...group].sort(newestFirst)
    for (const c of rest)
      hit(c, 'duplicate-keywords', `same keywords as ${group.length - 1} other card(s); keeping the newest, ${keep.id}`)
  }
  return hits
}

/** Archives every hit card, or skips it when protected; returns the archived ids. */
function archiveHits(cards: MaintainCard[], hits: Hits, actions: Action[], skipped: Plan['skipped']): Set<string> {
  const archived = new Set<string>()
  for (const c of cards) {
    const h = hits.get(c.id)
    if (!h) continue
    if (c.protected) skipped.push({id: c.id, reasons: h.reasons, detail: 'protected: true'})
    else {
      actions.push({action: 'archive', id: c.id, path: c.path, reasons: h.reasons, detail: h.detail.join('; ')})
      archived.add(c.id)
    }
  }
  return archived
}

/** Demotes surviving core cards until the core text fits the budget; reports when protected cards alone overflow it. */
function demoteOverBudget(
  cards: MaintainCard[],
  {archived, demoted}: {archived: Set<string>; demoted: Set<string>},
  coreBudget: number,
  actions: Action[],
  reports: Plan['reports'],
): Plan['core'] {
  const core = cards.filter(c => c.load === 'core' && !archived.has(c.id))
  const before = core.reduce((n, c) => n + c.coreChars, 0)
  let after = core.filter(c => !demoted.has(c.id)).reduce((n, c) => n + c.coreChars, 0)
  if (after > coreBudget) {
    // Least used first; with no usage data (or a tie) the largest card goes first.
    const order = core
      .filter(c => !c.protected && !demoted.has(c.id))
      .sort((a, b) => a.usage - b.usage || b.coreChars - a.coreChars || a.id.localeCompare(b.id))
    for (const c of order) {
      if (after <= coreBudget) break
      after -= c.coreChars
      actions.push({
        action: 'demote',
        id: c.id,
        path: c.path,
        reasons: ['core-over-budget'],
        detail: `core text ${before} > ${coreBudget} chars; ${c.coreChars} chars, used ${c.usage} time(s)`,
      })
    }
    if (after > coreBudget)
      reports.push({
        problem: 'core-over-budget',
        id: null,
        path: null,
        detail: `protected core cards alone need ${after} of ${coreBudget} chars; trim them by hand`,
      })
  }
  return {budget: coreBudget, before, after}
}

/** Reports (never fixes) each surviving card's links to ids the store does not know. */
function reportBrokenLinks(
  cards: MaintainCard[],
  archived: Set<string>,
  knownIds: Set<string>,
  reports: Plan['reports'],
): void {
  for (const c of cards) {
    if (archived.has(c.id)) continue
    for (const target of [...new Set(c.links)]) {
      if (!knownIds.has(target))
        reports.push({
          problem: 'broken-link',
          id: c.id,
          path: c.path,
          detail: `[[${target}]] does not resolve; fix the link or create the card`,
        })
    }
  }
}

export const planIsEmpty = (p: Plan): boolean => p.actions.length === 0 && p.reports.length === 0
