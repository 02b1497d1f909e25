import path from 'node:path'
import {getRule} from '../domain/card/sections.js'
import type {Config} from '../domain/config.js'
import {CairnError} from '../domain/errors.js'
import {statsOf} from '../domain/recall/bm25.js'
import {buildDoc, type CardDoc, type MatchDoc} from '../domain/recall/doc.js'
import {canAdmit, isShortQuery} from '../domain/recall/evidence.js'
import {matchCards} from '../domain/recall/match.js'
import {analysePrompt, type PromptView} from '../domain/recall/prompt.js'
import {renderLightIndex} from '../domain/recall/render.js'
import {compileRe2} from '../domain/recall/re2-pattern.js'
import {buildRegistry, type Registry} from '../domain/recall/signals.js'
import {candidateTerms} from '../domain/recall/tokenize.js'
import {readCardFile} from '../store/cards.js'
import type {Context} from '../store/context.js'
import {abs, rel, type Store} from '../store/layout.js'
import {type CachedRecord, cachedRecords, indexPath, isIndexCorrupt, stamp} from '../store/recall-index.js'
import {filesContaining} from '../store/ripgrep.js'
import {readProjectSignals} from '../store/signals.js'
import {openStores, type Stores} from '../store/stores.js'
import type {PromptRecallInput, PromptRecallResult} from './prompt-recall.js'

/**
 * Explicit `cairn recall`: ripgrep over the card files finds candidates (so uncommitted edits
 * count and no index is needed), then the hook's scorer ranks them. A candidate whose size and
 * mtime match the index cache reuses its cached record rather than being parsed again. Corpus statistics for BM25
 * come from the candidates and the file count, so ranking can differ slightly from the hook's;
 * admission never depends on them, so what is admitted is the same.
 */
export async function recall(ctx: Context, input: PromptRecallInput & {explain?: boolean}): Promise<PromptRecallResult & {candidates: number}> {
  const open = openStores(ctx)
  const stores = open.readable()
  open.noteInterrupted(stores)
  const primary = stores[0]
  const project = stores.find(s => s.kind === 'project')
  // The prompt needs the registry, so signals come first; ripgrep then runs while config and the cache are read.
  const registry = buildRegistry(readProjectSignals(project), compileRe2)
  const prompt = analysePrompt(input.prompt, registry, input.paths)
  const dirs = stores.filter(s => open.exists(s, rel(s, 'cards'))).map(s => abs(s, rel(s, 'cards')))
  const search = filesContaining(dirs, candidateTerms(prompt.active).map(searchForm))
  search.catch(() => {}) // awaited below; this only keeps a failure from going unhandled meanwhile
  const config = open.config(primary)
  const cache = cachedRecords(indexPath(primary))
  try {
    const files = await search
    try {
      return rank(open, stores, files, prompt, registry, config, cache.records, input)
    } catch (error) {
      // A cached record in a block that fails its check: rank again from the card files alone.
      if (!isIndexCorrupt(error)) throw error
      return rank(open, stores, files, prompt, registry, config, new Map(), input)
    }
  } finally {
    cache.close()
  }
}

function rank(open: Stores, stores: Store[], files: string[], prompt: PromptView, registry: Registry, config: Config, memo: Map<string, CachedRecord>, input: PromptRecallInput & {explain?: boolean}): PromptRecallResult & {candidates: number} {
  const project = stores.find(s => s.kind === 'project')
  // Every candidate is decoded or parsed; without --explain, only those that can still be
  // admitted are scored (the rule the index applies to its postings).
  const docs: MatchDoc[] = []
  const full = new Map<MatchDoc, () => CardDoc>()
  const seen = new Set<string>()
  const short = isShortQuery(prompt)
  for (const store of stores) {
    for (const file of files.filter(f => f.startsWith(abs(store, rel(store, 'cards')) + path.sep))) {
      const found = activeDoc(store, file, memo)
      if (!found || seen.has(found.doc.id)) continue
      // The project copy wins even when only the personal copy matched the search.
      if (store.kind === 'personal' && project && open.find(project, found.doc.id).some(f => f.location === 'cards')) continue
      seen.add(found.doc.id)
      if (!input.explain && !canAdmit(found.doc, prompt, short)) continue
      docs.push(found.doc)
      full.set(found.doc, found.full)
    }
  }
  const hydrated = [...full.values()].map(f => f())
  const stats = {...statsOf(hydrated), n: Math.max(hydrated.length, open.count(stores))}
  const maxCards = input.limit ?? config.recall.max_cards
  const byMatch = new Map(docs.map((d, i) => [d, hydrated[i]]))
  const match = matchCards(docs, prompt, stats, {registry, projectKey: open.projectKey, maxCards, hydrate: d => byMatch.get(d)!})
  return {
    text: renderLightIndex(match.selected, registry, config.recall.budget_chars),
    cards: match.selected.map(c => ({id: c.doc.id, title: c.doc.title, policy: c.doc.policy, store: c.doc.store, path: c.doc.path, score: c.evidence.score, rank: c.rank})),
    total: stats.n,
    considered: docs.length,
    candidates: files.length,
    match,
    prompt,
    registry,
    rebuiltIndex: false,
  }
}

/** The stemmer turns "entries" into "entry"; searching "entr" still finds every spelling. */
const searchForm = (term: string): string => (term.length > 3 && term.endsWith('y') ? term.slice(0, -1) : term)

/** A candidate's match half and a loader of its full record: cached when its stamp matches, else parsed. */
function activeDoc(store: Store, file: string, memo: Map<string, CachedRecord>): {doc: MatchDoc; full: () => CardDoc} | undefined {
  const cached = memo.get(file)
  if (cached) {
    const s = stamp(file)
    if (s && s[0] === cached.size && s[1] === cached.mtime) {
      const doc = cached.match()
      return doc && {doc, full: () => cached.hydrate(doc)}
    }
  }
  try {
    const card = readCardFile(file, path.relative(store.root, file))
    if (card.status !== 'active') return undefined
    const doc = buildDoc(card, getRule(card.body) ?? '', {store: store.kind, path: path.relative(store.root, file).split(path.sep).join('/')})
    return {doc, full: () => doc}
  } catch (error) {
    if (error instanceof CairnError) return undefined // unreadable cards are lint's to report
    throw error
  }
}
