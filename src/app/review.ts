import {parseCard, type Patch, patchCard} from '../domain/card/format.js'
import {getRule} from '../domain/card/sections.js'
import type {Card} from '../domain/card/schema.js'
import {type NearCard, nearDuplicates} from '../domain/near-duplicates.js'
import {cardSteering} from '../domain/steering.js'
import type {Store} from '../store/layout.js'
import {CairnError, type Issue} from '../domain/errors.js'
import {isTrailerLine} from '../domain/trailers.js'
import {assertApprovable, assertPending, isDeferred} from '../domain/lifecycle.js'
import {
  type ReviewEntry,
  reviewEntries,
  type ReviewFormat,
  type ReviewLanguage,
  renderReview,
} from '../domain/review.js'
import type {CardFile, LoadedCard} from '../store/cards/cards.js'
import {type Context, isoSeconds} from '../context.js'
import {type StoreChoice, type Stores, writable} from '../store/stores.js'
import {openStores} from './stores.js'
import type {ChangeSet} from '../store/cards/transaction.js'

/**
 * Pending cards that review shows: not deferred past now; with a ref, only those added since it. A card that does not
 * parse stops the call, unless `unreadable` is given: its problems are then added there and the others still listed.
 */
export async function pendingCandidates(
  stores: Stores,
  options: {since?: string; store?: StoreChoice; unreadable?: Issue[]} = {},
): Promise<LoadedCard[]> {
  const out: LoadedCard[] = []
  for (const store of stores.readable(options.store)) {
    if (options.since && store.kind === 'personal') continue
    const added = options.since ? await stores.addedSince(store, options.since) : null
    for (const f of stores.list(store)) {
      if (f.location !== 'pending' || (added && !added.has(f.path))) continue
      const loaded = await loadOrNote(stores, f, options.unreadable)
      if (loaded && !isDeferred(loaded.card.deferred_until, stores.ctx.now())) out.push(loaded)
    }
  }
  return out
}

/** The card, or null with its problems noted when it is invalid and the caller collects them. */
async function loadOrNote(stores: Stores, f: CardFile, unreadable?: Issue[]): Promise<LoadedCard | null> {
  try {
    return await stores.load(f)
  } catch (error) {
    if (!unreadable || !(error instanceof CairnError && error.code === 'validation')) throw error
    unreadable.push(...issuesOf(error, f.path))
    return null
  }
}

/** A validation error's issues, each naming the file; an error without issues as one problem of the file. */
function issuesOf(error: CairnError, file: string): Issue[] {
  const issues = (error.data as {issues?: Issue[]} | undefined)?.issues
  if (Array.isArray(issues) && issues.length) return issues.map(i => ({...i, file: i.file ?? file}))
  return [{file, field: '(file)', message: error.message}]
}

/** For each pending card, the active cards of its store it is close to (domain/near-duplicates.ts). */
export async function nearActive(stores: Stores, pending: LoadedCard[]): Promise<Map<string, NearCard[]>> {
  const out = new Map<string, NearCard[]>()
  for (const store of new Set(pending.map(c => c.store))) {
    const active = (await stores.loadAll(store)).cards.filter(c => c.location === 'cards' && c.card.status === 'active')
    const mine = pending.filter(c => c.store === store).map(c => c.card)
    for (const [id, near] of nearDuplicates(
      mine,
      active.map(c => c.card),
    ))
      out.set(id, near)
  }
  return out
}

export interface ReviewResult {
  language: ReviewLanguage
  entries: ReviewEntry[]
  /** Pending cards that do not parse: each problem names the file, what is wrong and the fix. The others are listed. */
  unreadable: Issue[]
  text: string
}

export async function review(ctx: Context, input: {since?: string; format?: ReviewFormat} = {}): Promise<ReviewResult> {
  const stores = openStores(ctx)
  const readable = stores.readable()
  stores.noteInterrupted(readable)
  const language = (await stores.config(readable[0])).knowledge_language
  const unreadable: Issue[] = []
  const pending = await pendingCandidates(stores, {since: input.since, unreadable})
  const hosts = new Map<Store, string[]>()
  for (const s of new Set(pending.map(c => c.store))) hosts.set(s, (await stores.config(s)).content.allow_hosts)
  const candidates = pending.map(c => ({
    card: c.card,
    layer: c.store.kind === 'personal' ? ('personal' as const) : ('team' as const),
    path: c.path,
    rule: getRule(c.card.body) ?? null,
    steering: cardSteering(c.path, c.card, hosts.get(c.store)),
  }))
  const entries = reviewEntries(candidates, language, await nearActive(stores, pending))
  return {language, entries, unreadable, text: renderReview(entries, language, input.format ?? 'text', unreadable)}
}

export interface LifecycleResult {
  op: string
  cards: {id: string; from: string | null; to: string | null; store: 'project' | 'personal'}[]
  commits: {project?: string | null; personal?: string | null}
}

/**
 * One transaction over every store the cards live in: one commit per store, all or none. Each
 * card is read again inside the lock, so a card another command moved meanwhile is reported
 * as gone (exit 4), never half-handled.
 */
async function lifecycle(
  stores: Stores,
  cards: LoadedCard[],
  meta: {
    op: string
    noCommit?: boolean
    summary: (n: number, ids: string[]) => string
    body?: string
    sources?: string[]
  },
  apply: (tx: ChangeSet, c: LoadedCard, current: Card) => {from: string | null; to: string | null},
): Promise<LifecycleResult> {
  const {op, noCommit} = meta
  const ids = cards.map(c => c.card.id)
  const targets = cards.map(c => writable(c.store))
  const {result, commits} = await stores.tx(
    {op, summary: meta.summary(ids.length, ids), store: targets, body: meta.body, sources: meta.sources, noCommit},
    tx =>
      cards.map(c => {
        const cs = tx.in(c.store)
        const text = cs.readFound(c.path, `card "${c.card.id}"`)
        return {id: c.card.id, store: cs.store.kind, ...apply(cs, c, parseCard(text, c.path))}
      }),
  )
  const out: LifecycleResult = {op, cards: result, commits: {}}
  for (const s of targets) out.commits[s.kind] = commits[s.kind] ?? null
  return out
}

const summary = (verb: string) => (n: number, ids: string[]) => (n === 1 ? ids[0] : `${verb} ${n} cards`)

export interface ApproveInput {
  ids?: string[]
  all?: boolean
  /** With --all: which store's pending cards; by default the project's (the personal one's outside a project). */
  store?: StoreChoice
  noCommit?: boolean
}

export async function approve(ctx: Context, input: ApproveInput): Promise<LifecycleResult> {
  const stores = openStores(ctx)
  const cards = input.all
    ? await pendingCandidates(stores, {store: input.store ?? (stores.project ? 'project' : 'personal')})
    : await Promise.all([...new Set(input.ids ?? [])].map(id => stores.findCard(id, {store: input.store})))
  if (!input.all && cards.length === 0)
    throw new CairnError('usage', 'Nothing to approve. Fix: give the ids to approve, or --all')
  const at = isoSeconds(ctx.now())
  // An org card is read-only: refused before anything else is said about it.
  for (const c of cards) writable(c.store)
  for (const c of cards) assertApprovable(c.card.id, c.location, c.card.status, c.path)
  const meta = {op: 'approve', noCommit: input.noCommit, summary: summary('approve')}
  // The active cards an approved card supersedes are retired in the same commit: found now, read again in the lock.
  const replaced = new Map(
    cards.map(c => [c, c.card.supersedes.flatMap(id => stores.find(c.store, id).filter(f => f.location === 'cards'))]),
  )
  return lifecycle(stores, cards, meta, (tx, c, current) => {
    assertApprovable(c.card.id, c.location, current.status, c.path)
    const target = stores.cardPath(c.store, 'cards', current.type, current.id)
    if (tx.exists(target)) {
      throw new CairnError(
        'conflict',
        `Cannot approve "${c.card.id}": ${target} already exists; the pending card is ${c.path}. Fix: rename one with "cairn review modify ${c.card.id} --set slug=<new-slug>"`,
        {id: c.card.id, pending: c.path, existing: target},
      )
    }
    // A card that names its successor, or was retired where it came from (a superseded or deprecated ADR), is kept as
    // a record, not recalled as current advice.
    const status = current.superseded_by ? 'superseded' : current.status === 'pending' ? 'active' : current.status
    const patches: Patch[] = [
      {path: ['status'], value: status},
      {path: ['approved'], value: {by: ctx.actor(), at}},
    ]
    if (current.deferred_until) patches.push({path: ['deferred_until'], value: null})
    const text = patchCard(tx.read(c.path)!, c.path, patches)
    tx.move(c.path, target)
    tx.write(target, text)
    for (const old of replaced.get(c) ?? []) {
      const was = tx.read(old.path)
      const prior = was === null ? null : parseCard(was, old.path)
      if (!prior || !current.supersedes.includes(prior.id) || prior.status !== 'active') continue
      if (prior.protected)
        throw new CairnError(
          'invalid_transition',
          `Cannot approve "${current.id}": it supersedes "${prior.id}", which is protected. Fix: unprotect it first, or ` +
            `drop it with "cairn review modify ${current.id} --set supersedes="`,
          {id: current.id, protected: prior.id},
        )
      const retired: Patch[] = [
        {path: ['status'], value: 'superseded'},
        {path: ['superseded_by'], value: current.id},
      ]
      tx.write(old.path, patchCard(was!, old.path, retired))
    }
    return {from: c.path, to: target}
  })
}

/** The ids a reject or defer names: several (ids), or one (id, as the MCP tools and /cairn commands give it). */
export interface CardIds {
  ids?: string[]
  id?: string
}

/** Each named pending card, found and checked before anything is written: one that is not pending stops them all. */
async function pendingNamed(stores: Stores, input: CardIds, op: 'reject' | 'defer', usage: string) {
  const ids = [...new Set([...(input.ids ?? []), ...(input.id ? [input.id] : [])])]
  if (ids.length === 0)
    throw new CairnError('usage', `Nothing to ${op}. Fix: give the ids of the pending cards, as in ${usage}.`)
  const cards = await Promise.all(ids.map(id => stores.findCard(id)))
  for (const c of cards) writable(c.store)
  for (const c of cards) assertPending(op, c.card.id, c.location, c.path)
  return cards
}

/** Removes the named pending cards in one commit per store, the same reason for all; one not pending stops them all. */
export async function reject(
  ctx: Context,
  input: CardIds & {reason: string; noCommit?: boolean},
): Promise<LifecycleResult> {
  if (!input.reason.trim())
    throw new CairnError(
      'usage',
      'Missing the reason. Fix: give --reason; it goes into the commit message, so the card can be found again',
    )
  const stores = openStores(ctx)
  const cards = await pendingNamed(stores, input, 'reject', '"cairn review reject <id> <id> --reason <text>"')
  return lifecycle(
    stores,
    cards,
    {
      op: 'reject',
      noCommit: input.noCommit,
      summary: summary('reject'),
      body: `Reason: ${input.reason.trim()}`,
      // The trailer keeps what was rejected readable from the message alone, which a squash merge keeps.
      // A key no trailer can carry (a hand-written one with a newline) is left out, never a reason to refuse the reject.
      sources: cards.flatMap(c =>
        c.card.provenance.source_sessions.filter(s => s.startsWith('import:') && isTrailerLine(s)),
      ),
    },
    (tx, card) => {
      tx.remove(card.path)
      return {from: card.path, to: null}
    },
  )
}

/** Hides the named pending cards from review until the same date, in one commit per store; all or none. */
export async function defer(
  ctx: Context,
  input: CardIds & {until: string; noCommit?: boolean},
): Promise<LifecycleResult> {
  const until = deferUntil(ctx, input.until)
  const stores = openStores(ctx)
  const cards = await pendingNamed(stores, input, 'defer', '"cairn review defer <id> <id> --until YYYY-MM-DD"')
  return lifecycle(
    stores,
    cards,
    {
      op: 'defer',
      noCommit: input.noCommit,
      summary: (n, ids) => `${n === 1 ? ids[0] : `defer ${n} cards`} until ${until}`,
    },
    (tx, card) => {
      tx.write(card.path, patchCard(tx.read(card.path)!, card.path, [{path: ['deferred_until'], value: until}]))
      return {from: card.path, to: card.path}
    },
  )
}

/**
 * A deferral date as an ISO timestamp, or what is wrong with it. A date already past is refused:
 * a deferral that has ended hides nothing, so it is a mistake, not a no-op.
 */
export function checkDeferDate(ctx: Context, value: string): {until: string} | {problem: 'not-a-date' | 'past'} {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value)
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) return {problem: 'not-a-date'}
  if (date.getTime() <= ctx.now().getTime()) return {problem: 'past'}
  return {until: isoSeconds(date)}
}

/** The --until date as an ISO timestamp; not a date is a usage error (exit 2), a date already past a validation error (exit 6). */
export function deferUntil(ctx: Context, value: string): string {
  const checked = checkDeferDate(ctx, value)
  if ('until' in checked) return checked.until
  if (checked.problem === 'not-a-date') {
    throw new CairnError(
      'usage',
      `--until "${value}" is not a date. Fix: use YYYY-MM-DD or an ISO timestamp such as 2026-12-31T09:00:00Z`,
    )
  }
  throw new CairnError(
    'validation',
    `--until ${value} is already past: now is ${isoSeconds(ctx.now())}. Fix: give a later date, such as the day the card should come back for review`,
    {field: 'until', value},
  )
}
