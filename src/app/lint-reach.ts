import type {Card} from '../domain/card/schema.js'
import {quietSay} from '../domain/errors.js'
import type {Problem} from '../domain/lint.js'
import {type MatchDoc, type RecallIndex, type Registry, scopeGate, signalRegistry, useIndex} from '../recall/index.js'
import type {Context} from '../context.js'
import type {Store} from '../store/layout.js'
import {projectKeyOf} from '../store/stores.js'
import {recallStores, runMatch} from './prompt-recall.js'

/** A reviewed card file lint read, with the store it lives in. */
export interface StoredCard {
  /** The file as lint names it (relative to its store's root). */
  file: string
  store: 'project' | 'personal'
  card: Card
}

/** More than any library's cards: the match keeps every card it admits, so only admission decides. */
const EVERY_CARD = 1000

const keyOf = (store: string, id: string) => `${store}\n${id}`

/**
 * The `unreachable` warnings: active cards that their own title and summary, sent as a prompt with
 * no paths, do not recall. Such a card is unlikely to meet a user's words either (issue 10: a card
 * proposed with a title and summary only). Cards the index does not show here are skipped: a
 * personal card shadowed by a project card of the same id, or one whose scope keeps it out of this
 * project.
 *
 * Each card's prompt goes through runMatch, as `cairn recall` runs it, on one open of the index. The
 * match is given that card alone as its candidate: a whole-library match per card costs a candidate
 * search and a score for every card sharing a word, about 50 s for 1,000 cards of a small
 * vocabulary. Alone gives the same answer because admission is decided per card (gates, then its
 * own evidence) and the candidate search never drops a card that could be admitted (RecallIndex
 * candidates); test/lint-unreachable.test.ts holds the two answers equal on a library.
 */
export async function unreachableCards(ctx: Context, cards: readonly StoredCard[]): Promise<Problem[]> {
  const stores = recallStores(ctx)
  if (stores.length === 0 || cards.length === 0) return []
  return useIndex(stores, async index => {
    const project = stores.find(s => s.kind === 'project')
    const projectKey = projectKeyOf(project?.root, index.settings.projectKey)
    const shown = [...index.coreCards(), ...index.catalog()].filter(c => scopeGate(c, {projectKey}).pass)
    const visible = new Set(shown.map(c => keyOf(c.store, c.id)))
    const todo = cards.filter(c => c.card.status === 'active' && visible.has(keyOf(c.store, c.card.id)))
    const prompts = todo.map(c => `${c.card.title}\n${c.card.summary}`)
    const registry = await signalRegistry(index.signals)
    const docs = reachableDocs(stores, index, prompts, registry)
    const out: Problem[] = []
    todo.forEach(({file, store, card}, k) => {
      const doc = docs.get(keyOf(store, card.id))
      const alone = withCandidates(index, () => (doc ? [doc] : []))
      const r = runMatch(stores, alone, {prompt: prompts[k], limit: EVERY_CARD}, registry)
      if (r.cards.some(c => c.id === card.id && c.store === store)) return
      out.push(
        quietSay({
          file,
          field: 'recall.triggers',
          rule: 'unreachable',
          severity: 'warning',
          message: "its own title and summary, as a prompt, do not recall it, so a user's words are unlikely to",
          fix: `give it the words a user would type when it applies: cairn review modify ${card.id} --set triggers=<phrase>,<phrase> (or add criteria.use_when phrases)`,
          say: {key: 'unreachable', id: card.id},
        }),
      )
    })
    return out
  })
}

/**
 * The records any of these prompts can reach, each decoded once: runMatch names the terms it would
 * search for each prompt, and one candidate search with all of them, short-query rules on (which
 * only widen it), returns a superset of every prompt's own candidates.
 */
function reachableDocs(
  stores: Store[],
  index: RecallIndex,
  prompts: readonly string[],
  registry: Registry,
): Map<string, MatchDoc> {
  const terms = new Set<string>()
  const expanded = new Set<string>()
  const whole = new Set<string>()
  const asking = withCandidates(index, (asked, added, _short, isWhole) => {
    for (const t of asked) terms.add(t)
    for (const t of added) expanded.add(t)
    for (const t of [...terms, ...expanded]) if (isWhole.has(t)) whole.add(t)
    return []
  })
  for (const prompt of prompts) runMatch(stores, asking, {prompt, limit: EVERY_CARD}, registry)
  return new Map(index.candidates(terms, expanded, true, whole).map(d => [keyOf(d.store, d.id), d]))
}

/** The index with its candidate search replaced; everything else (stats, hydrate, settings) is its own. */
function withCandidates(index: RecallIndex, candidates: RecallIndex['candidates']): RecallIndex {
  return Object.assign(Object.create(index) as RecallIndex, {candidates})
}
