/**
 * The recall module's one door (README.md beside it): everything outside src/recall/ imports recall
 * from here. The pure matcher is in match/; the index on disk, its freshness proof and its rebuilds
 * are the files beside this one. What loads the YAML parser, zod or re2js (the team lexicon, project
 * signal patterns) is reached through a loader, so a hook that needs none of them never loads them.
 */
export type {ColdIndex} from './cold.js'
export type {CardPlace, CatalogEntry, CoreEntry, HookSettings, PathEntry, RecallIndex, SkippedCard} from './format.js'
export {cannotLoad, hookSettings} from './format.js'
export {type IndexMode, openIndex, refreshIndex, useIndex} from './open.js'
export {writeThrough} from './write-through.js'
export {openReachCache, type ReachCache} from './reach-cache.js'
export {lexiconRel} from './lexicon-version.js'
export {mentionSpans} from './match/context.js'
export type {MatchDoc} from './match/doc.js'
export {isShortQuery, shortReach} from './match/evidence.js'
export {globsMatch, inModule, scopeGate} from './match/gates.js'
export {type Considered, type MatchResult, matchCards} from './match/match.js'
export {withoutOwnText} from './match/own-text.js'
export {normText} from './match/phrase.js'
export {analysePrompt, type PromptView} from './match/prompt.js'
export {lightIndex, renderLightIndex} from './match/render.js'
export {
  BUILTIN_SIGNALS,
  buildRegistry,
  detectSignals,
  type Registry,
  type Signal,
  signalRegistry,
} from './match/signals.js'
export {matchTopK} from './match/topk.js'

/** The team's lexicon.yaml reader (loads the YAML parser and zod). */
export const loadTeamLexicon = (): Promise<typeof import('./team-lexicon.js')> => import('./team-lexicon.js')

/** Recall from the card files while the index is cold (ripgrep, the card parser, YAML and zod). */
export const loadColdRecall = (): Promise<typeof import('./cold.js')> => import('./cold.js')
