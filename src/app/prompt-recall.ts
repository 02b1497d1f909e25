import type {StoreKind} from '../domain/org.js'
import {
  analysePrompt,
  buildRegistry,
  type IndexMode,
  isShortQuery,
  lightIndex,
  type MatchDoc,
  matchCards,
  type MatchResult,
  matchTopK,
  type PromptView,
  type RecallIndex,
  type Registry,
  shortReach,
  signalRegistry,
  type SkippedCard,
  useIndex,
} from '../recall/index.js'
import type {Context} from '../context.js'
import type {CardEntry} from '../domain/receipts.js'
import type {StoreLanguage} from '../domain/messages/language.js'
import type {Store} from '../store/layout.js'
import {projectKeyOf} from '../store/stores.js'
import {type StaleNote, staleNotes} from './hooks/stale-note.js'
import {openStores} from './stores.js'

/**
 * The matcher path behind the prompt hook: the function `cairn hook user-prompt-submit` is to
 * call, and that bin/prompt-recall.js and `cairn eval recall` run today. Cached index, one match,
 * the light index text. It loads no oclif, git library, YAML or zod, so a warm call costs a stat
 * per card file plus the cards the prompt can actually admit.
 */
export interface PromptRecallInput {
  prompt: string
  /** Repo-relative paths the request is about (narrow cards need one of them to match). */
  paths?: string[]
  /** Overrides recall.max_cards. */
  limit?: number
  /** 'hook' never waits for a large index rebuild: it answers from a stale index, or nothing (openIndex). */
  mode?: IndexMode
  /**
   * Judge only the candidates that can still be shown (matchTopK): the same cards and text, but
   * `match.considered` and `considered` hold only the cards judged. The hook's path; --explain and
   * lint need every candidate judged.
   */
  bounded?: boolean
}

export interface RecalledCard {
  id: string
  title: string
  policy: string
  store: StoreKind
  /** An org card's layer, "org:<name>"; absent for a project or personal card. */
  layer?: string
  path: string
  score: number
  rank: number
}

export interface PromptRecallResult {
  /** The primary store's knowledge_language, which the text and its renderings speak. */
  language: StoreLanguage
  /** The light index to inject; empty when nothing applies. */
  text: string
  /** Each card's entry in the text, with why it matched in a few words (the hook's receipt). */
  entries: CardEntry[]
  cards: RecalledCard[]
  /** Cards in the index. */
  total: number
  /** Cards judged: every one that could be admitted, or with `bounded` only those that could still be shown. */
  considered: number
  match: MatchResult
  /** Card files the index left out because they cannot be loaded. */
  skipped: SkippedCard[]
  prompt: PromptView
  registry: Registry
  rebuiltIndex: boolean
}

/** Stores the matcher reads, in precedence order: the project's, its org layers, then the personal one. */
export function recallStores(ctx: Context): Store[] {
  return openStores(ctx).layers()
}

export async function promptRecall(ctx: Context, input: PromptRecallInput): Promise<PromptRecallResult> {
  const door = openStores(ctx)
  const stores = door.layers()
  if (stores.length === 0) return empty(input)
  // Hooks never repair a store; they only say that a write was interrupted.
  door.noteInterrupted(stores)
  const mode = input.mode ?? 'inline'
  const result = await useIndex(
    stores,
    async index =>
      runMatch(
        stores,
        index,
        input,
        await signalRegistry(index.signals),
        staleNotes(door, stores, index.settings.hooks.language),
      ),
    {mode},
  )
  return result ?? empty(input)
}

/** What runMatch reads of an index: the index itself, or the cold path's parsed candidates (ColdIndex), which rank unbounded. */
export type MatchSource = Pick<
  RecallIndex,
  'expand' | 'candidates' | 'stats' | 'hydrate' | 'settings' | 'skipped' | 'rebuilt'
> & {
  bounded?: RecallIndex['bounded']
}

/** A prompt as the matcher reads it, with the terms its candidate search is asked for and which of them are whole. */
export interface PromptQuery {
  prompt: PromptView
  /** The weighted prompt terms. */
  terms: string[]
  /** Whole forms the lexicon added, or the prompt's own words. */
  whole: {has(term: string): boolean}
}

export function promptQuery(
  index: Pick<RecallIndex, 'expand'>,
  input: PromptRecallInput,
  registry: Registry,
): PromptQuery {
  const prompt = analysePrompt(input.prompt, registry, input.paths, keys => index.expand(keys))
  const terms = [...prompt.active].filter(([, w]) => w > 0).map(([t]) => t)
  const words = new Set(prompt.words)
  return {prompt, terms, whole: {has: (t: string) => prompt.expandedForms.has(t) || words.has(t)}}
}

export function runMatch(
  stores: Store[],
  index: MatchSource,
  input: PromptRecallInput,
  registry: Registry,
  note?: StaleNote,
): PromptRecallResult {
  const {prompt, terms, whole} = promptQuery(index, input, registry)
  const project = stores.find(s => s.kind === 'project')
  const projectKey = projectKeyOf(project?.root, index.settings.projectKey)
  const maxCards = input.limit ?? index.settings.maxCards
  const options = {registry, projectKey, maxCards, hydrate: (d: MatchDoc) => index.hydrate(d)}
  const match =
    input.bounded && index.bounded
      ? matchTopK(
          index.bounded(terms, prompt.expanded.keys(), shortReach(prompt), whole, prompt.active),
          prompt,
          index.stats,
          options,
        )
      : matchCards(
          index.candidates(terms, prompt.expanded.keys(), isShortQuery(prompt), whole),
          prompt,
          index.stats,
          options,
        )
  const language = index.settings.hooks.language
  const {text, entries} = lightIndex(match.selected, registry, index.settings.budgetChars, note, language)
  return {
    language,
    text,
    entries,
    cards: match.selected.map(c => ({
      id: c.doc.id,
      title: c.doc.title,
      policy: c.doc.policy,
      store: c.doc.store,
      ...(c.doc.layer ? {layer: c.doc.layer} : {}),
      path: c.doc.path,
      score: c.evidence.score,
      rank: c.rank,
    })),
    total: index.stats.n,
    considered: match.considered.length,
    match,
    skipped: index.skipped,
    prompt,
    registry,
    rebuiltIndex: index.rebuilt,
  }
}

function empty(input: PromptRecallInput): PromptRecallResult {
  const registry = buildRegistry()
  return {
    language: 'en',
    text: '',
    entries: [],
    cards: [],
    total: 0,
    considered: 0,
    match: {considered: [], selected: []},
    skipped: [],
    prompt: analysePrompt(input.prompt, registry, input.paths),
    registry,
    rebuiltIndex: false,
  }
}
