import {parseCard} from '../domain/card/format.js'
import type {Card} from '../domain/card/schema.js'
import {CairnError} from '../domain/errors.js'
import type {Config} from '../domain/config.js'
import {
  citedPaths,
  type Evidenced,
  type FileChange,
  globBase,
  headTree,
  hitsOf,
  isGlob,
  needsTree,
  overdue,
  pathReasons,
  reasonText,
  rewriteBlobs,
  settleCommands,
  type StaleReason,
} from '../domain/stale.js'
import type {Context} from '../context.js'
import type {CodeFacts} from '../store/code/code-facts.js'
import type {LoadedCard} from '../store/cards/cards.js'
import type {Store} from '../store/layout.js'
import type {Stores} from '../store/stores.js'
import {openStores} from './stores.js'

export interface StaleInput {
  /** Compare with this ref (where HEAD's history and it meet): only what that change did to the cards' evidence. */
  since?: string
  /** The settings that govern (ci review passes the base branch's); default the store's own. */
  config?: Config
  /** Check only these cards (verify settles the cards it confirms); default every active card. */
  ids?: string[]
}

export interface StaleEntry {
  id: string
  path: string
  title: string
  reasons: StaleReason[]
  /** Each reason as a sentence, in the store's language. */
  why: string[]
  /** The commands that settle it. */
  commands: string[]
}

export interface StaleResult {
  since: string | null
  /** The commit compared with (with --since), or null when each card is compared with its own last confirmation. */
  base: string | null
  head: string | null
  /** Active cards checked. */
  checked: number
  cards: StaleEntry[]
}

/** More pathspecs than this and git is asked for the whole change, which the check then filters. */
const MAX_PATHSPECS = 2000

/**
 * `cairn stale`: the active cards of the project store whose evidence a change touched. With `since`, the change is
 * the one from where HEAD's history and `since` meet to HEAD (a card confirmed within it counts from its
 * confirmation); without, each card is compared with the commit it was last confirmed at, its cited symbols are looked
 * for in HEAD's tree, and a card not confirmed for maintain.verify_days is listed too.
 */
export async function stale(ctx: Context, input: StaleInput = {}): Promise<StaleResult> {
  const stores = openStores(ctx)
  const store = stores.requireProject()
  const config = input.config ?? (await stores.config(store))
  const loaded = await stores.loadAll(store)
  const only = input.ids ? new Set(input.ids) : null
  const active = loaded.cards.filter(
    c => c.location === 'cards' && c.card.status === 'active' && (!only || only.has(c.card.id)),
  )
  if (loaded.errors.length) {
    const files = loaded.errors.map(e => e.file.path)
    const shown = `${files.slice(0, 5).join(', ')}${files.length > 5 ? `, and ${files.length - 5} more` : ''}`
    ctx.warn(`left out ${files.length} card file(s) that could not be read (${shown}); "cairn lint" explains`)
  }
  const code = await stores.code(store)
  const head = await code.head()
  const result: StaleResult = {since: input.since ?? null, base: null, head, checked: active.length, cards: []}
  if (!head) return result
  const base = input.since !== undefined ? await code.base(input.since) : null
  result.base = base
  const confirmed = input.since !== undefined ? await confirmedWithin(stores, store, input.since) : new Set<string>()
  const {reasons: found, lastAt} = await assess(code, active, base, confirmed)
  const language = config.knowledge_language === 'zh-CN' ? 'zh' : 'en'
  for (const c of active) {
    const reasons = found.get(c.card.id) ?? []
    if (base === null) {
      const late = overdue(confirmedAt(c.card, lastAt.get(c.path)), ctx.now(), config.maintain.verify_days)
      if (late) reasons.push(late)
    }
    if (!reasons.length) continue
    result.cards.push({
      id: c.card.id,
      path: c.path,
      title: c.card.title,
      reasons,
      why: reasons.map(r => reasonText(r, language)),
      commands: settleCommands(c.card.id),
    })
  }
  result.cards.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return result
}

/** When a card was last confirmed: cairn verify's record, else its approval, its last edit, or its file's last commit. */
export const confirmedAt = (card: Card, lastCommit?: string): string | null =>
  card.evidence.verified_at ?? card.approved?.at ?? card.updated ?? card.created ?? lastCommit ?? null

interface Assessed {
  /** Each card's evidence reasons (paths, then symbols), by id. */
  reasons: Map<string, StaleReason[]>
  /** Without a base: when each card file was last committed, by path. */
  lastAt: Map<string, string>
}

/** Each card's evidence reasons, against its baseline. */
async function assess(
  code: CodeFacts,
  active: LoadedCard[],
  base: string | null,
  confirmed: Set<string>,
): Promise<Assessed> {
  const out = new Map<string, StaleReason[]>()
  const lastAt = new Map<string, string>()
  const baselines = await baselinesOf(code, active, base, {lastAt, confirmed})
  const groups = new Map<string, Evidenced[]>()
  for (const c of active) {
    const b = baselines.get(c.card.id)
    const evidenced = {
      id: c.card.id,
      path: c.path,
      title: c.card.title,
      cited: citedPaths(c.card),
      symbols: c.card.evidence.symbols,
    }
    if (!b) continue
    const group = groups.get(b)
    if (group) group.push(evidenced)
    else groups.set(b, [evidenced])
  }
  const changes = await code.changes([...groups.keys()], limitOf([...groups.values()].flat(), base))
  const hits = new Map<string, ReturnType<typeof hitsOf>>()
  for (const [b, cards] of groups) hits.set(b, hitsOf(cards, changes.get(b) ?? []))
  const all = [...hits.values()].flatMap(h => [...h.values()])
  const tree = needsTree(all) ? headTree(await code.files()) : null
  const lines = await code.lineCounts(rewriteBlobs(all))
  for (const h of hits.values())
    for (const [id, list] of h) {
      const reasons = pathReasons(list, tree, lines)
      if (reasons.length) out.set(id, reasons)
    }
  const gone = await goneSymbols(code, groups, changes, base)
  for (const cards of groups.values())
    for (const c of cards) {
      const missing = c.symbols.filter(s => gone.get(c.id)?.has(s))
      if (missing.length)
        out.set(c.id, [...(out.get(c.id) ?? []), ...missing.map(symbol => ({kind: 'symbol' as const, symbol}))])
    }
  return {reasons: out, lastAt}
}

/**
 * The commit each card is compared from. With a base: the base, or the card's confirmation when that lies between the
 * base and HEAD (verified within the change); a card the change otherwise edited (modified, or verified at a commit
 * this shallow clone does not hold) was looked at within it, and is left out. Without a base: the card's confirmation
 * when this clone holds it, else the commit that last wrote the card's file.
 */
async function baselinesOf(
  code: CodeFacts,
  active: LoadedCard[],
  base: string | null,
  {lastAt, confirmed}: {lastAt: Map<string, string>; confirmed: Set<string>},
): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const verified = active.map(c => c.card.evidence.verified_commit).filter((v): v is string => !!v)
  if (base !== null) {
    const since = await code.commitsSince(base)
    // A card edited within the change and confirmed at a commit this clone holds (a shallow checkout may hold it
    // without its ancestry) counts from that commit: what the change did after it still shows.
    const edited = active.map(c => c.card.evidence.verified_commit).filter((v, i) => v && confirmed.has(active[i].path))
    const held = await code.known([...new Set(edited as string[])])
    for (const c of active) {
      const v = c.card.evidence.verified_commit
      if (v && (since.has(v) || (confirmed.has(c.path) && held.has(v)))) out.set(c.card.id, v)
      else if (!confirmed.has(c.path)) out.set(c.card.id, base)
    }
    return out
  }
  const known = await code.known([...new Set(verified)])
  const last = await code.lastCommits(active.map(c => c.path))
  for (const [p, {at}] of last) lastAt.set(p, at)
  for (const c of active) {
    const v = c.card.evidence.verified_commit
    const b = v && known.has(v) ? v : last.get(c.path)?.commit
    if (b) out.set(c.card.id, b)
  }
  return out
}

/**
 * The card files whose confirmation or citations the change since `ref` changed (cairn verify, or a modify of its
 * paths or symbols): a person looked at each card against the code within the change, so it counts from there. An
 * edit of anything else (load, triggers, the text) confirms nothing.
 */
async function confirmedWithin(stores: Stores, store: Store, ref: string): Promise<Set<string>> {
  const out = new Set<string>()
  const changed = await stores.changedCardsSince(store, ref)
  const files = new Map(changed.length ? stores.list(store).map(f => [f.path, f]) : [])
  const cites = (c: Card) => JSON.stringify([citedPaths(c), c.evidence.symbols, c.evidence.verified_commit])
  for (const {path, before} of changed) {
    const now = files.get(path)
    if (!now) continue
    try {
      if (cites(parseCard(before, path)) !== cites((await stores.load(now)).card)) out.add(path)
    } catch (error) {
      // A side that does not parse: lint reports it; the card is not known to be looked at.
      if (!(error instanceof CairnError && error.code === 'validation')) throw error
    }
  }
  return out
}

/** The paths git is asked about: every cited file and folder, and each glob's folder (none: the whole change). */
function limitOf(cards: Evidenced[], base: string | null): string[] | null {
  if (base !== null) return null // one change, as big as the pull request: filtered here
  const specs = new Set<string>()
  for (const c of cards) for (const p of c.cited) specs.add(isGlob(p) ? globBase(p) : p)
  if (specs.has('') || specs.size > MAX_PATHSPECS) return null
  return [...specs]
}

/**
 * Each card's cited symbols that HEAD's tree no longer holds. With a base, only those the change took away: found in
 * the baseline's copy of a file the change touched, and nowhere in HEAD's tree.
 */
async function goneSymbols(
  code: CodeFacts,
  groups: Map<string, Evidenced[]>,
  changes: Map<string, FileChange[]>,
  base: string | null,
): Promise<Map<string, Set<string>>> {
  if (base === null) return goneSinceConfirmed(code, groups)
  const out = new Map<string, Set<string>>()
  const candidates = new Map<string, Set<string>>() // card id → symbols to look for in HEAD
  for (const [b, cards] of groups) {
    const symbols = [...new Set(cards.flatMap(c => c.symbols))]
    const touched = (changes.get(b) ?? []).filter(ch => ch.status !== 'A').map(ch => ch.path)
    if (!symbols.length || !touched.length) continue
    const there = await code.symbolsFound(symbols, b, touched.length > MAX_PATHSPECS ? undefined : touched)
    for (const c of cards) {
      const mine = c.symbols.filter(s => there.has(s))
      if (mine.length) candidates.set(c.id, new Set(mine))
    }
  }
  const wanted = [...new Set([...candidates.values()].flatMap(s => [...s]))]
  if (!wanted.length) return out
  const head = await code.head()
  const found = await code.symbolsFound(wanted, head)
  for (const [id, symbols] of candidates) {
    const gone = new Set([...symbols].filter(s => !found.has(s)))
    if (gone.size) out.set(id, gone)
  }
  return out
}

/**
 * Without a base: each card's cited symbols that HEAD's tree lacks and that the tree held when the card was last
 * confirmed (a symbol already missing then was never the card's to lose). One grep over HEAD for every symbol, then one
 * per confirmation commit that has a card missing a symbol.
 */
async function goneSinceConfirmed(
  code: CodeFacts,
  groups: Map<string, Evidenced[]>,
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>()
  const all = [...new Set([...groups.values()].flat().flatMap(c => c.symbols))]
  if (!all.length) return out
  const found = await code.symbolsFound(all, await code.head())
  for (const [b, cards] of groups) {
    const missing = [...new Set(cards.flatMap(c => c.symbols.filter(s => !found.has(s))))]
    if (!missing.length) continue
    const then = await code.symbolsFound(missing, b)
    for (const c of cards) {
      const gone = new Set(c.symbols.filter(s => !found.has(s) && then.has(s)))
      if (gone.size) out.set(c.id, gone)
    }
  }
  return out
}
