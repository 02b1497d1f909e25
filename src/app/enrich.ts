import type {StoreKind} from '../domain/org.js'
import {parseCard, patchCard} from '../domain/card/format.js'
import {
  briefOf,
  ENRICH_RULES,
  type EnrichBrief,
  type EnrichEntry,
  type EnrichField,
  fieldPath,
  mergePhrases,
  parseEntries,
} from '../domain/enrich.js'
import {CairnError, type Issue, validationError} from '../domain/errors.js'
import {isRetired, isSafeId} from '../domain/card/types.js'
import {parseStructured} from '../domain/structured.js'
import type {Context} from '../context.js'
import type {LoadedCard} from '../store/cards/cards.js'
import type {ChangeSet} from '../store/cards/transaction.js'
import {type Stores, writable} from '../store/stores.js'
import {openStores} from './stores.js'
import {refuseOrgCard} from './layers.js'

/** How many briefs a listing gives by default: an agent enriches a handful per turn. */
export const DEFAULT_LIMIT = 20

export interface EnrichListInput {
  /** Only these cards, thin or not. */
  ids?: string[]
  limit?: number
}

export interface EnrichList {
  /** Thin active and pending cards in all (or the ids asked for). */
  total: number
  cards: EnrichBrief[]
  rules: readonly string[]
  /** How to give the phrases back. */
  apply: string
}

const APPLY_HINT =
  'cairn enrich --apply <file|-> with a JSON array of {"id", "triggers": [], "aliases": {"en": [], "zh": []}, "use_when": [], "ignore_when": []}'

/** The live cards (active in cards/, and pending), project first, as the stores hold them. */
async function liveCards(stores: Stores): Promise<LoadedCard[]> {
  const out: LoadedCard[] = []
  const seen = new Set<string>()
  for (const store of stores.readable()) {
    for (const c of (await stores.loadAll(store)).cards) {
      // A pending record of a retired decision (a deprecated ADR) will never be recalled: nothing to enrich.
      const live =
        c.location === 'pending' ? !isRetired(c.card.status) : c.location === 'cards' && c.card.status === 'active'
      if (!live || seen.has(c.card.id)) continue
      seen.add(c.card.id)
      out.push(c)
    }
  }
  return out
}

const briefFor = (c: LoadedCard): EnrichBrief =>
  briefOf(c.card, {store: c.store.kind, path: c.path, pending: c.location === 'pending'})

/**
 * The cards whose recall fields are thin, each with a brief for the agent that writes their phrases: active cards
 * first (prompts find them today), then pending ones, each by id.
 */
export async function enrichList(ctx: Context, input: EnrichListInput = {}): Promise<EnrichList> {
  const stores = openStores(ctx)
  stores.noteInterrupted(stores.readable())
  const limit = input.limit ?? DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1)
    throw validationError([{field: '--limit', message: `is ${limit}`, fix: 'give a whole number of 1 or more'}])
  let briefs: EnrichBrief[]
  if (input.ids?.length) {
    const live = new Map((await liveCards(stores)).map(c => [c.card.id, c]))
    briefs = input.ids.map(id => {
      const c = live.get(id)
      if (!c)
        throw new CairnError('not_found', `No active or pending card "${id}". Fix: give an id as "cairn list" shows it`)
      return briefFor(c)
    })
  } else {
    // A core card is in every session whatever its words: it needs no recall phrases unless asked for by id.
    briefs = (await liveCards(stores))
      .filter(c => c.card.load !== 'core')
      .map(briefFor)
      .filter(b => b.missing.length)
      .sort((a, b) => (a.status === b.status ? (a.id < b.id ? -1 : 1) : a.status === 'active' ? -1 : 1))
  }
  return {total: briefs.length, cards: briefs.slice(0, limit), rules: ENRICH_RULES, apply: APPLY_HINT}
}

export interface EnrichApplyInput {
  /** A file, or "-" for stdin, holding the JSON array of entries. */
  file: string
  /** Replace each field an entry gives, instead of adding to it. */
  replace?: boolean
  noCommit?: boolean
}

export interface EnrichApplied {
  cards: {id: string; store: StoreKind; path: string; changed: EnrichField[]}[]
  /** Entries that changed nothing: every phrase was already there. */
  unchanged: string[]
  commits: {project?: string | null; personal?: string | null}
}

/**
 * Adds the agent's phrases to each card, checked first (every problem at once, naming the entry's id and field, and
 * nothing written), then written in one transaction: one commit per store. Each card is read again inside the lock,
 * so a parallel edit keeps its change.
 */
export async function enrichApply(ctx: Context, input: EnrichApplyInput): Promise<EnrichApplied> {
  const stores = openStores(ctx)
  const {text, label} = await (await stores.input()).read(input.file)
  const {entries, issues} = parseEntries(parseStructured(text, label).data, label)
  const live = new Map((await liveCards(stores)).map(c => [c.card.id, c]))
  // An org card is read-only: its id is refused as such, not as an unknown card.
  for (const e of entries) if (!live.has(e.id) && isSafeId(e.id)) refuseOrgCard(stores, e.id)
  entries.forEach(e => {
    if (!live.has(e.id))
      issues.push({
        file: label,
        field: `[${e.at}].id`,
        message: `no active or pending card "${e.id}"`,
        fix: 'give an id "cairn enrich --json" lists',
      })
  })
  if (issues.length) throw refused(issues, label)
  // Checked against the cards as they are now, so a count over the limit is refused before the lock.
  for (const e of entries) issues.push(...mergeIssues(live.get(e.id)!.card, e, input.replace, label))
  if (issues.length) throw refused(issues, label)
  const targets = [...new Set(entries.map(e => writable(live.get(e.id)!.store)))]
  const {result, commits} = await stores.tx(
    {
      op: 'enrich',
      // Named after the build, from the cards each store's commit changes: a whole file applied again after adding a few
      // phrases counts those few (an interrupted write is recovered first, inside the lock, and the cards read after).
      summary: ids => `recall phrases for ${ids.length === 1 ? ids[0] : `${ids.length} cards`}`,
      store: targets,
      cards: entries.map(e => e.id),
      noCommit: input.noCommit,
    },
    tx => entries.map(e => applyOne(tx.in(live.get(e.id)!.store), live.get(e.id)!, e, input.replace ?? false)),
  )
  const out: EnrichApplied = {cards: [], unchanged: [], commits: {}}
  result.forEach((changed, i) => {
    const c = live.get(entries[i].id)!
    if (changed.length) out.cards.push({id: c.card.id, store: c.store.kind, path: c.path, changed})
    else out.unchanged.push(c.card.id)
  })
  for (const s of targets) out.commits[s.kind] = commits[s.kind] ?? null
  return out
}

/** A refusal shows this many problems: a file of thousands of bad entries gets a message a person can read. */
const MAX_ISSUES = 50

function refused(issues: Issue[], file: string): CairnError {
  const shown = issues.slice(0, MAX_ISSUES)
  if (issues.length > MAX_ISSUES) {
    const more = issues.length - MAX_ISSUES
    shown.push({file, field: '(more)', message: `and ${more} more problem(s)`, fix: 'fix these, then apply again'})
  }
  return validationError(shown, `Refused ${file}; nothing was written`)
}

function mergeIssues(card: LoadedCard['card'], e: EnrichEntry, replace: boolean | undefined, file: string) {
  return mergePhrases(card, e, replace ?? false).issues.map((p): Issue => ({
    file,
    field: `[${e.at}] (${e.id}).${p.field}`,
    message: p.message,
    fix: p.fix,
  }))
}

/** One card patched inside the lock; the fields that changed. */
function applyOne(cs: ChangeSet, c: LoadedCard, e: EnrichEntry, replace: boolean): EnrichField[] {
  const current = cs.readFound(c.path, `card "${c.card.id}"`)
  const card = parseCard(current, c.path)
  const {changed, issues} = mergePhrases(card, e, replace)
  if (issues.length)
    throw validationError(
      issues.map(p => ({file: c.path, field: p.field, message: p.message, fix: p.fix})),
      'The card changed meanwhile; nothing was written',
    )
  const fields = Object.keys(changed) as EnrichField[]
  if (!fields.length) return []
  // The triggers cairn derived stay: they are evidence too, and a reviewer replaces them with review modify.
  const patches = fields.map(f => ({path: fieldPath(f), value: changed[f]}))
  cs.write(c.path, patchCard(current, c.path, patches))
  return fields
}
