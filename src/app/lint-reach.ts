import type {StoreKind} from '../domain/org.js'
import type {Card} from '../domain/card/schema.js'
import {quietSay} from '../domain/errors.js'
import type {Problem} from '../domain/lint.js'
import {
  matchCards,
  type MatchDoc,
  openReachCache,
  type RecallIndex,
  scopeGate,
  signalRegistry,
  useIndex,
} from '../recall/index.js'
import type {Context} from '../context.js'
import {projectKeyOf} from '../store/stores.js'
import {promptQuery, recallStores} from './prompt-recall.js'
import {type Reach, reachInChunks} from './lint-reach-pool.js'

/** A reviewed card file lint read, with the store it lives in. */
export interface StoredCard {
  /** The file as lint names it (relative to its store's root). */
  file: string
  store: StoreKind
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
 * Each card's prompt is read and matched as runMatch does for `cairn recall` (promptQuery, then
 * matchCards, without the rendering it does not need), once, on one open of the index. The match is
 * given that card alone as its candidate: a whole-library match per card costs a candidate
 * search and a score for every card sharing a word, about 50 s for 1,000 cards of a small
 * vocabulary. Alone gives the same answer because admission is decided per card (gates, then its
 * own evidence) and the candidate search never drops a card that could be admitted (RecallIndex
 * candidates); test/lint-unreachable.test.ts holds the two answers equal on a library. For the same
 * reason no candidate search is run at all: the card's own record is matched, and a prompt that could
 * not reach it does not admit it. A search for every prompt's terms reaches most of a library and cost
 * a second a run at 10,000 cards; its absence lets a large library's prompts be matched in chunks on two
 * threads (lint-reach-pool.ts).
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
    const cache = openReachCache(stores[0], index, projectKey)
    const reached = todo.map((c, k) => cache.get(keyOf(c.store, c.card.id), prompts[k]))
    const ask = todo.flatMap((_, k) => (reached[k] === undefined ? [k] : []))
    if (ask.length) {
      const items = ask.map(k => ({store: todo[k].store, id: todo[k].card.id, prompt: prompts[k]}))
      const reach = await reacher(index, projectKey)
      const job = {stores, identity: index.identity(), projectKey, items}
      const answers = await reachInChunks(job, reach)
      ask.forEach((k, q) => {
        reached[k] = answers[q]
        cache.set(keyOf(items[q].store, items[q].id), prompts[k], answers[q])
      })
      cache.save()
    }
    const out: Problem[] = []
    todo.forEach(({file, card}, k) => {
      if (reached[k]) return
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
 * Whether each card's own prompt recalls it on this open index: the prompts read as runMatch reads them
 * (promptQuery), then each card matched alone (unreachableCards says why alone gives the library's answer).
 * lint-reach-worker.ts runs the same on its own open of the same index.
 */
export async function reacher(index: RecallIndex, projectKey: string | null): Promise<Reach> {
  const registry = await signalRegistry(index.signals)
  const lexicon = withExpand(index, memoExpand(index))
  const options = {registry, projectKey, maxCards: EVERY_CARD, hydrate: unranked}
  let docs: Map<string, MatchDoc> | undefined
  return items => {
    docs ??= new Map(index.records().map(d => [keyOf(d.store, d.id), d]))
    return items.map(({store, id, prompt}) => {
      const doc = docs!.get(keyOf(store, id))
      const query = promptQuery(lexicon, {prompt}, registry)
      const match = matchCards(doc ? [doc] : [], query.prompt, index.stats, options)
      return match.selected.some(c => c.doc.id === id && c.doc.store === store)
    })
  }
}

/**
 * A card matched alone is selected exactly when it is admitted: no other card is ranked beside it, crowds it
 * out or backs the same words more strongly (match.ts select). So an admitted card is not hydrated (its rank
 * half decoded) for a rank that decides nothing: it is given no rank fields, and its rank is 0.
 */
const unranked = (doc: MatchDoc): ReturnType<RecallIndex['hydrate']> => ({
  ...doc,
  summary: '',
  type: '',
  risk: '',
  language: '',
  use_when: [],
  ignore_when: [],
  tf: {},
  len: {},
  cited: [],
})

/**
 * The index's lexicon lookup, remembered per key: a library's titles and summaries share most of their words,
 * so each key is looked up once for all the prompts. Found keys come back in the order asked, as the index
 * gives them (analysePrompt keeps the first key of a form).
 */
function memoExpand(index: RecallIndex): RecallIndex['expand'] {
  const memo = new Map<string, readonly string[] | null>()
  return keys => {
    const unknown = keys.filter(k => !memo.has(k))
    if (unknown.length) {
      const found = index.expand(unknown)
      for (const k of unknown) memo.set(k, found.get(k) ?? null)
    }
    const out = new Map<string, readonly string[]>()
    for (const k of keys) {
      const forms = memo.get(k)
      if (forms) out.set(k, forms)
    }
    return out
  }
}

/** The index with its lexicon lookup replaced; everything else is its own. */
function withExpand(index: RecallIndex, expand: RecallIndex['expand']): RecallIndex {
  return Object.assign(Object.create(index) as RecallIndex, {expand})
}
