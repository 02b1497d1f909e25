import type {Context} from '../context.js'
import {CairnError} from '../domain/errors.js'
import {speak, type StoreLanguage} from '../domain/messages/language.js'
import {SEARCH_TEXT} from '../domain/messages/search.js'
import {lineEndEscape, PatternRefused} from '../domain/search-pattern.js'
import {SEARCH_STATES, SEARCH_TIMEOUT_MS, type SearchHit, type SearchState, SearchTooLarge} from '../domain/search.js'
import type {CardType} from '../domain/card/types.js'
import {layerOf, type StoreChoice} from '../store/stores.js'
import {openStores, storeLanguage} from './stores.js'
import {readLayers, shadowing} from './layers.js'

export interface SearchInput {
  pattern: string
  /** The pattern is a literal string, not a regular expression (rg --fixed-strings). */
  fixedStrings?: boolean
  ignoreCase?: boolean
  /** Only cards in these states; every state when none is given. */
  states?: readonly SearchState[]
  /** Only cards of these types. */
  types?: readonly CardType[]
  /** Board records too (board/batches/). */
  board?: boolean
  store?: StoreChoice
}

export interface SearchResult {
  pattern: string
  /** `ripgrep`, or `node` when rg is missing for this platform (a warning says so). */
  engine: 'ripgrep' | 'node'
  /** Whether board records were searched too. */
  board: boolean
  /** Every matched line: by store (project first), state, id, file and line. */
  hits: SearchHit[]
  /** How many cards (and board records) matched. */
  files: number
  /** The language the text output speaks: the first store's knowledge_language. */
  language: StoreLanguage
}

/**
 * cairn search: every line of every card file (and board record, with `board`) that matches the pattern, in every
 * store and state asked for. The pattern is ripgrep's (Rust's regex syntax); without rg the search runs in Node with
 * the same answers, or refuses a pattern it cannot answer the same way.
 */
export async function search(ctx: Context, input: SearchInput): Promise<SearchResult> {
  const stores = openStores(ctx)
  const readable = readLayers(stores, input.store)
  const language = await storeLanguage(stores, readable)
  const t = speak(SEARCH_TEXT, language)
  if (input.pattern === '') throw new CairnError('usage', t.emptyPattern)
  if (/[\r\n]/.test(input.pattern)) throw new CairnError('usage', t.lineBreak(input.pattern.replace(/\r?\n/g, '\\n')))
  const escape = input.fixedStrings ? undefined : lineEndEscape(input.pattern)
  if (escape) throw new CairnError('usage', t.lineEnd(input.pattern, escape))
  stores.noteInterrupted(readable.filter(s => s.kind !== 'org'))
  const searcher = await stores.cardSearch()
  const chosen = ctx.env.CAIRN_RG?.trim()
  if (searcher.engine === 'node') ctx.warn(chosen ? t.ripgrepOff(chosen) : t.noRipgrep(searcher.platform))
  const states = input.states?.length ? [...new Set(input.states)] : [...SEARCH_STATES]
  let hits: SearchHit[]
  try {
    hits = await searcher.search(readable, {
      pattern: input.pattern,
      fixedStrings: input.fixedStrings ?? false,
      ignoreCase: input.ignoreCase ?? false,
      states: SEARCH_STATES.filter(s => states.includes(s)),
      types: [...new Set(input.types ?? [])],
      board: input.board ?? false,
    })
  } catch (error) {
    throw refusal(error, input.pattern, searcher.engine, t, ctx)
  }
  // A card overridden by a higher layer's card of the same id is none of the hits (a board record is no card).
  const shadowed = shadowing(readable, s => stores.list(s, {archive: true}).map(f => f.name))
  const layerAt = new Map(readable.map(s => [layerOf(s), s]))
  hits = hits.filter(h => h.type === null || !shadowed(layerAt.get(h.layer ?? h.store)!, h.id))
  return {
    pattern: input.pattern,
    engine: searcher.engine,
    board: input.board ?? false,
    hits,
    files: countFiles(hits),
    language,
  }
}

function refusal(
  error: unknown,
  pattern: string,
  engine: 'ripgrep' | 'node',
  t: (typeof SEARCH_TEXT)['en'],
  ctx: Context,
): unknown {
  if (error instanceof PatternRefused) {
    const say = engine === 'ripgrep' ? t.refusedByRipgrep : t.refusedInNode
    return new CairnError('usage', say(pattern, error.reason), {pattern, reason: error.reason, engine})
  }
  if (error instanceof SearchTooLarge) {
    const seconds = Math.round((Number(ctx.env.CAIRN_SEARCH_TIMEOUT_MS) || SEARCH_TIMEOUT_MS) / 1000)
    return new CairnError('usage', error.why === 'time' ? t.tooLong(seconds) : t.tooMuch)
  }
  return error
}

const countFiles = (hits: SearchHit[]): number => new Set(hits.map(h => `${h.layer ?? h.store}\n${h.file}`)).size
