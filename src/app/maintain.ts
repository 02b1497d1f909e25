import {patchCard} from '../domain/card/format.js'
import {charCount, coreText} from '../domain/core.js'
import {bodyLinks} from '../domain/lint.js'
import {type MaintainCard, type Plan, planIsEmpty, planMaintenance} from '../domain/maintain.js'
import {listCardFiles, loadStore} from '../store/cards.js'
import {readConfig} from '../store/config.js'
import {type Context, isoSeconds} from '../store/context.js'
import {gitClient} from '../store/git.js'
import {clearPendingFix, readUsage, writePendingFix} from '../store/local.js'
import type {Store} from '../store/layout.js'
import {transaction} from '../store/transaction.js'
import {archiveDir, archiveInto} from './archive.js'
import {commitOptions, readableStores} from './stores.js'

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
}

/** Plans (and with apply, carries out in one commit) the library's upkeep. */
export async function maintain(ctx: Context, input: MaintainInput = {}): Promise<MaintainResult> {
  const [store] = readableStores(ctx, input.store ?? 'project')
  const config = readConfig(store)
  const loaded = loadStore(store)
  const reviewed = loaded.cards.filter(c => c.location === 'cards')
  const usage = readUsage(store)
  ctx.progress(`planning over ${reviewed.length} cards`)
  const undated = reviewed.filter(c => !c.card.updated).map(c => c.path)
  const commitTimes = undated.length ? await lastCommitTimes(ctx, store, undated) : new Map<string, string>()
  const cards: MaintainCard[] = []
  for (const c of reviewed) {
    cards.push({
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
    })
  }
  const knownIds = new Set(listCardFiles(store).map(f => f.name))
  const plan = planMaintenance(cards, {coreBudget: config.core_budget, staleDays: config.stale_days, now: ctx.now(), knownIds})
  const result: MaintainResult = {...plan, store: store.kind, applied: false, archive: null, commit: null, marker: 'untouched', unreadable: loaded.errors.map(e => e.file.path)}
  if (input.dryRun) return result
  if (!input.apply) {
    if (planIsEmpty(plan)) clearPendingFix(store)
    else writePendingFix(store, {at: isoSeconds(ctx.now()), actions: plan.actions.length, reports: plan.reports.length, fix: 'cairn maintain --apply'})
    result.marker = planIsEmpty(plan) ? 'cleared' : 'written'
    return result
  }
  if (plan.actions.length) {
    const byId = new Map(reviewed.map(c => [c.card.id, c]))
    const toArchive = plan.actions.filter(a => a.action === 'archive').map(a => byId.get(a.id)!)
    const ts = toArchive.length ? archiveDir(store, ctx.now()) : null
    const ids = plan.actions.map(a => a.id)
    const {commit} = await transaction(ctx, store, {op: 'maintain', summary: `${plan.actions.length} fix(es)`, cards: ids, ...commitOptions(store, input.noCommit)}, tx => {
      for (const a of plan.actions.filter(x => x.action === 'demote')) tx.write(a.path, patchCard(tx.read(a.path)!, a.path, [[['load'], 'recall']]))
      if (ts) archiveInto(tx, store, ts, toArchive)
    })
    Object.assign(result, {applied: true, archive: ts, commit})
  }
  clearPendingFix(store)
  result.marker = 'cleared'
  return result
}

/** Last commit time of each path, from one walk of the log (newest first) rather than one git call per card. */
async function lastCommitTimes(ctx: Context, store: Store, paths: string[]): Promise<Map<string, string>> {
  const wanted = new Set(paths)
  const out = await gitClient(ctx, store.root).raw(['log', '--format=%x00%cI', '--name-only', '--no-renames', '--', `${store.prefix || '.'}/cards`])
  const times = new Map<string, string>()
  for (const entry of out.split('\0').filter(Boolean)) {
    const [date, ...files] = entry.split('\n').map(l => l.trim()).filter(Boolean)
    for (const f of files) if (wanted.has(f) && !times.has(f)) times.set(f, isoSeconds(new Date(date)))
  }
  return times
}
