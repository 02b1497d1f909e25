import fs from 'node:fs'
import {patchCard} from '../domain/card/format.js'
import type {Card} from '../domain/card/schema.js'
import {CairnError} from '../domain/errors.js'
import {assertApprovable, assertPending} from '../domain/lifecycle.js'
import {type ReviewEntry, reviewEntries, type ReviewFormat, type ReviewLanguage, renderReview} from '../domain/review.js'
import {listCardFiles, loadCardFile, type LoadedCard} from '../store/cards.js'
import {readConfig} from '../store/config.js'
import {type Context, isoSeconds} from '../store/context.js'
import {gitClient} from '../store/git.js'
import {abs, cardRel, type Store} from '../store/layout.js'
import {type ChangeSet, transaction} from '../store/transaction.js'
import {findCard} from './locate.js'
import {commitOptions, readableStores} from './stores.js'

const deferred = (card: Card, now: Date): boolean => !!card.deferred_until && new Date(card.deferred_until).getTime() > now.getTime()

/** Pending cards that review shows: not deferred past now; with a ref, only those added since it. */
export async function pendingCandidates(ctx: Context, since?: string): Promise<LoadedCard[]> {
  const out: LoadedCard[] = []
  for (const store of readableStores(ctx)) {
    if (since && store.kind === 'personal') continue
    const added = since ? await addedSince(ctx, store, since) : null
    for (const f of listCardFiles(store)) {
      if (f.location !== 'pending' || (added && !added.has(f.path))) continue
      const loaded = loadCardFile(f)
      if (!deferred(loaded.card, ctx.now())) out.push(loaded)
    }
  }
  return out
}

async function addedSince(ctx: Context, store: Store, ref: string): Promise<Set<string>> {
  if (ref.startsWith('-')) throw new CairnError('usage', `"${ref}" is not a git ref`)
  const git = gitClient(ctx, store.root)
  const sha = await git.raw(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => '')
  if (!sha.trim()) throw new CairnError('not_found', `unknown git ref "${ref}"; give a branch, tag or commit, e.g. origin/main`)
  const out = await git.raw(['diff', '--name-only', '--no-renames', '--diff-filter=A', '-z', ref, '--', `${store.prefix}/pending`])
  return new Set(out.split('\0').filter(Boolean))
}

export interface ReviewResult {
  language: ReviewLanguage
  entries: ReviewEntry[]
  text: string
}

export async function review(ctx: Context, input: {since?: string; format?: ReviewFormat} = {}): Promise<ReviewResult> {
  const [first] = readableStores(ctx)
  const language = readConfig(first).knowledge_language
  const candidates = (await pendingCandidates(ctx, input.since)).map(c => ({card: c.card, layer: c.store.kind === 'personal' ? 'personal' as const : 'team' as const, path: c.path}))
  const entries = reviewEntries(candidates, language)
  const format = input.format ?? 'text'
  return {language, entries, text: format === 'json' ? '' : renderReview(entries, language, format)}
}

export interface LifecycleResult {
  op: string
  cards: {id: string; from: string | null; to: string | null; store: 'project' | 'personal'}[]
  commits: {project?: string | null; personal?: string | null}
}

/** Runs one transaction per store touched, after every card has been checked. */
async function perStore(
  ctx: Context,
  op: string,
  cards: LoadedCard[],
  noCommit: boolean | undefined,
  meta: {summary: (n: number, ids: string[]) => string; body?: string},
  apply: (tx: ChangeSet, c: LoadedCard) => {from: string | null; to: string | null},
): Promise<LifecycleResult> {
  const result: LifecycleResult = {op, cards: [], commits: {}}
  const byStore = new Map<Store, LoadedCard[]>()
  for (const c of cards) byStore.set(c.store, [...(byStore.get(c.store) ?? []), c])
  for (const [store, group] of byStore) {
    const ids = group.map(c => c.card.id)
    const {result: moved, commit} = await transaction(ctx, store, {op, summary: meta.summary(ids.length, ids), cards: ids, body: meta.body, ...commitOptions(store, noCommit)}, tx =>
      group.map(c => ({id: c.card.id, store: store.kind, ...apply(tx, c)})),
    )
    result.cards.push(...moved)
    result.commits[store.kind] = commit
  }
  return result
}

const summary = (verb: string) => (n: number, ids: string[]) => (n === 1 ? ids[0] : `${verb} ${n} cards`)

export async function approve(ctx: Context, input: {ids?: string[]; all?: boolean; noCommit?: boolean}): Promise<LifecycleResult> {
  const cards = input.all ? await pendingCandidates(ctx) : [...new Set(input.ids ?? [])].map(id => findCard(ctx, id))
  if (!input.all && cards.length === 0) throw new CairnError('usage', 'give the ids to approve, or --all')
  const at = isoSeconds(ctx.now())
  for (const c of cards) {
    assertApprovable(c.card.id, c.location, c.card.status, c.path)
    const target = cardRel(c.store, 'cards', c.card.type, c.card.id)
    if (fs.existsSync(abs(c.store, target))) {
      throw new CairnError('conflict', `cannot approve "${c.card.id}": ${target} already exists (the pending card is ${c.path}). Rename one with "cairn review modify ${c.card.id} --set slug=<new-slug>"`, {id: c.card.id, pending: c.path, existing: target})
    }
  }
  return perStore(ctx, 'approve', cards, input.noCommit, {summary: summary('approve')}, (tx, c) => {
    const target = cardRel(c.store, 'cards', c.card.type, c.card.id)
    const patches: [string[], unknown][] = [[['status'], 'active'], [['approved'], {by: ctx.actor, at}]]
    if (c.card.deferred_until) patches.push([['deferred_until'], null])
    const text = patchCard(tx.read(c.path)!, c.path, patches)
    tx.move(c.path, target)
    tx.write(target, text)
    return {from: c.path, to: target}
  })
}

export async function reject(ctx: Context, input: {id: string; reason: string; noCommit?: boolean}): Promise<LifecycleResult> {
  if (!input.reason.trim()) throw new CairnError('usage', 'give --reason: it goes into the commit message, so the card can be found again')
  const c = findCard(ctx, input.id)
  assertPending('reject', c.card.id, c.location, c.path)
  return perStore(ctx, 'reject', [c], input.noCommit, {summary: summary('reject'), body: `Reason: ${input.reason.trim()}`}, (tx, card) => {
    tx.remove(card.path)
    return {from: card.path, to: null}
  })
}

export async function defer(ctx: Context, input: {id: string; until: string; noCommit?: boolean}): Promise<LifecycleResult> {
  const until = parseDate(input.until)
  const c = findCard(ctx, input.id)
  assertPending('defer', c.card.id, c.location, c.path)
  return perStore(ctx, 'defer', [c], input.noCommit, {summary: (_n, ids) => `${ids[0]} until ${until}`}, (tx, card) => {
    tx.write(card.path, patchCard(tx.read(card.path)!, card.path, [[['deferred_until'], until]]))
    return {from: card.path, to: card.path}
  })
}

function parseDate(value: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value)
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new CairnError('usage', `--until "${value}" is not a date; use YYYY-MM-DD or an ISO timestamp such as 2026-12-31T09:00:00Z`)
  }
  return isoSeconds(date)
}

