import {patchCard} from '../domain/card/format.js'
import {charCount, coreText} from '../domain/core.js'
import {bodyLinks} from '../domain/lint.js'
import {type MaintainCard, type Plan, planIsEmpty, planMaintenance} from '../domain/maintain.js'
import {type Context, isoSeconds} from '../context.js'
import {openStores} from './stores.js'
import {confirmedAt, stale} from './stale.js'
import {evidenceLost} from '../domain/stale.js'
import type {Config} from '../domain/config.js'
import type {LoadedCard} from '../store/cards/cards.js'
import type {Store} from '../store/layout.js'
import {archiveDir, archiveInto} from './archive.js'
import {type Injections, storeUse} from './maintain-usage.js'
import {isBare, missingFields} from '../domain/thin.js'
import type {CardUse} from '../domain/maintain-usage.js'

export interface MaintainInput {
  apply?: boolean
  dryRun?: boolean
  store?: 'project' | 'personal'
  noCommit?: boolean
}

export interface MaintainResult extends Plan {
  store: 'project' | 'personal'
  applied: boolean
  archive: string | null
  commit: string | null
  marker: 'written' | 'cleared' | 'untouched'
  unreadable: string[]
  /** What the receipts on this machine say: the span maintain judged use over, and the most injected cards. */
  injections: Injections
}

/**
 * What cairn stale finds for each active card of the project store (a personal store's cards cite other repositories'
 * files: never checked), by id.
 */
async function staleOf(
  ctx: Context,
  store: Store,
  {reviewed, commitTimes}: {reviewed: LoadedCard[]; commitTimes: Map<string, string>},
  config: Config,
): Promise<Map<string, NonNullable<MaintainCard['stale']>>> {
  const out = new Map<string, NonNullable<MaintainCard['stale']>>()
  if (store.kind !== 'project') return out
  const byId = new Map(reviewed.map(c => [c.card.id, c]))
  for (const s of (await stale(ctx, {config})).cards) {
    const loaded = byId.get(s.id)
    if (!loaded) continue
    const card = loaded.card
    const {broken, gone} = evidenceLost(card, s.reasons)
    const at = confirmedAt(card, commitTimes.get(loaded.path))
    out.set(s.id, {gone, broken, confirmedAt: at, why: s.why})
  }
  return out
}

/** A reviewed card as the planner reads it. */
function maintainCard(
  c: LoadedCard,
  {usage, use, commitTimes}: {usage: Map<string, number>; use: Map<string, CardUse>; commitTimes: Map<string, string>},
  stale: MaintainCard['stale'],
): MaintainCard {
  const used = use.get(c.card.id)
  return {
    id: c.card.id,
    path: c.path,
    status: c.card.status,
    load: c.card.load,
    protected: c.card.protected,
    keywords: c.card.keywords,
    links: [...c.card.links, ...bodyLinks(c.card.body)],
    updated: c.card.updated ?? commitTimes.get(c.path) ?? null,
    coreChars: c.card.load === 'core' ? charCount(coreText(c.card)) : 0,
    usage: usage.get(c.card.id) ?? 0,
    since: c.card.approved?.at ?? c.card.created ?? c.card.updated ?? commitTimes.get(c.path) ?? null,
    bare: isBare(missingFields(c.card)),
    ...(used ? {use: used} : {}),
    ...(stale ? {stale} : {}),
  }
}

/** Plans (and with apply, carries out in one commit) the library's upkeep. */
export async function maintain(ctx: Context, input: MaintainInput = {}): Promise<MaintainResult> {
  const stores = openStores(ctx)
  const [store] = stores.readable(input.store ?? 'project')
  const config = await stores.config(store)
  const loaded = await stores.loadAll(store)
  const reviewed = loaded.cards.filter(c => c.location === 'cards')
  const local = await stores.local(store)
  const usage = local.readUsage()
  ctx.progress(`planning over ${reviewed.length} cards`)
  const undated = reviewed.filter(c => !c.card.updated).map(c => c.path)
  const commitTimes = await stores.lastCommitTimes(store, undated)
  const staleness = await staleOf(ctx, store, {reviewed, commitTimes}, config)
  const {use, injections} = await storeUse(local, store.kind, config, ctx.now())
  const cards = reviewed.map(c => maintainCard(c, {usage, use, commitTimes}, staleness.get(c.card.id)))
  const knownIds = new Set(stores.list(store).map(f => f.name))
  const plan = planMaintenance(cards, {
    coreBudget: config.core_budget,
    staleDays: config.stale_days,
    now: ctx.now(),
    knownIds,
    staleGraceDays: config.maintain.stale_grace_days,
    usage: {
      from: injections.prompts_from,
      unusedDays: config.maintain.unused_days,
      enrichMinInjections: config.maintain.enrich_min_injections,
    },
  })
  const result: MaintainResult = {
    ...plan,
    store: store.kind,
    applied: false,
    archive: null,
    commit: null,
    marker: 'untouched',
    unreadable: loaded.errors.map(e => e.file.path),
    injections,
  }
  if (input.dryRun) return result
  if (!input.apply) {
    if (planIsEmpty(plan)) local.clearPendingFix()
    else
      local.writePendingFix({
        at: isoSeconds(ctx.now()),
        actions: plan.actions.length,
        reports: plan.reports.length,
        fix: 'cairn maintain --apply',
      })
    result.marker = planIsEmpty(plan) ? 'cleared' : 'written'
    return result
  }
  if (plan.actions.length) {
    const byId = new Map(reviewed.map(c => [c.card.id, c]))
    const toArchive = plan.actions.filter(a => a.action === 'archive').map(a => byId.get(a.id)!)
    const ids = plan.actions.map(a => a.id)
    const {result: ts, commit} = await stores.tx(
      {op: 'maintain', summary: `${plan.actions.length} fix(es)`, store, cards: ids, noCommit: input.noCommit},
      tx => {
        for (const a of plan.actions.filter(x => x.action === 'demote')) {
          const text = tx.readFound(a.path, `card "${a.id}"`)
          tx.write(a.path, patchCard(text, a.path, [[['load'], 'recall']]))
        }
        if (!toArchive.length) return null
        const at = archiveDir(tx, ctx.now())
        archiveInto(tx, at, toArchive)
        return at
      },
    )
    Object.assign(result, {applied: true, archive: ts, commit})
  }
  local.clearPendingFix()
  result.marker = 'cleared'
  return result
}
