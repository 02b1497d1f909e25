import type {StoreKind} from '../domain/org.js'
import type {Config} from '../domain/config.js'
import type {Load} from '../domain/card/types.js'
import {speak, type StoreLanguage} from '../domain/messages/language.js'
import {RECALL_TEXT} from '../domain/messages/recall.js'
import type {CorpusStats} from './match/bm25.js'
import type {CardDoc, Field, MatchDoc} from './match/doc.js'
import type {ShortReach} from './match/evidence.js'
import type {Signal} from './match/signals.js'
import type {BoundedCandidates} from './match/topk.js'

/**
 * Byte layout of the recall index, built so a warm read parses almost nothing:
 *   "cairn-recall-index <version> <header bytes> <table bytes> <file bytes> <head crc>\n", the header
 *   JSON, the block table (one little-endian uint32 CRC-32 per BLOCK bytes of body; the head CRC
 *   covers the header and the table), then the body, in regions:
 *   stamps  "store\tpath\tsize\tctime\n" per card file, compared as one string for freshness
 *   files   JSON FileEntry per card file, with the blob id of the bytes it was built from (rebuilds, and
 *           the proof check of proof.ts)
 *   terms   "term\tdf\tstrong\tsupport\town\talt\n" sorted by term, found by binary search over termAt
 *           and termHeads. Each posting list is a flat comma-separated list of integers, a fixed
 *           count per entry, so a lookup parses it as one JSON array; weights (total, slack,
 *           concepts, weight) are in quarters, shares (min) in thousandths:
 *           strong: record, phrase, total, slack, min, concepts, lone, compound per admitting phrase
 *           (min: the share a title needs to admit; concepts: the phrase's concept weight; lone: 1
 *           when its terms are all single CJK characters, which then anchor it; compound: 1 under a
 *           compound token, whose weight is in slack); support: record, phrase, total, slack,
 *           compound per supporting phrase (topics, keywords);
 *           own, alt: record, phrase, unit, form, need, total, weight, min per concept unit of an
 *           admitting phrase, under each term a form needs (need: how many); own forms are met by
 *           any prompt term, translations only by the prompt's own words
 *   ranks   "df\trank" per term, in the terms' order, over rankAt: what ranking and bm25 read
 *           without the term's line; rank: record, impact per card holding the term in any field
 *           (record: its gap from the entry before; impact: termImpact in thousandths, rounded
 *           up), so the hook ranks candidates before decoding them
 *   termAt, lexiconAt, recordAt, rankAt   little-endian uint32 offsets
 *   termHeads, lexiconHeads   each key's first HEAD bytes, zero-padded (keys hold no NUL): a lookup
 *           reads them whole and compares in memory, reading a line's key only when HEAD bytes tie
 *   records   each record's two JSON halves, match then rank, record after record, so the rank
 *           half of a decoded candidate is mostly in blocks already read; over recordAt
 *           (record i's match half spans offsets 2i..2i+1, its rank half 2i+1..2i+2)
 *   lexicon "key\tform|form\n" sorted by key, over lexiconAt: the prompt side of the lexicon (expand.ts)
 *   core, catalog, paths   JSON arrays of CoreEntry, CatalogEntry, PathEntry: what session start and
 *           pre-tool-use need, each one small read
 * A truncated or padded file fails the length check at open; a damaged header or block table fails
 * the head CRC; a damaged body block fails its CRC when a read first touches it. Either way the
 * file is corrupt, which callers treat as no cache.
 */
export const INDEX_VERSION = 22
export const MAGIC = 'cairn-recall-index'
/**
 * Body bytes per checksum. A warm prompt reads scattered term lines and records, and each block it
 * touches is read and checked whole once: at 10,000 cards a prompt whose words hundreds of cards
 * share touches 700 blocks of 4 KiB (2.9 MB) against 185 of 64 KiB (12 MB); measured, 4 KiB blocks
 * cost that prompt nothing over the unchecked index and 64 KiB blocks about 25% more. The block
 * table (4 bytes per block, 28 KB at 10,000 cards) is read and checked whole at open.
 */
export const BLOCK = 4 * 1024

/** Posting weights are in quarters of a word (a single CJK character weighs one), shares in thousandths. */
export const QUARTERS = 4
export const THOUSANDTHS = 1000
/** Rank impacts are in thousandths (as bm25 rounds), rounded up: a sum of them bounds bm25 from above. */
export const IMPACT = 1000

/** Key bytes kept per term for lookups (termHeads, lexiconHeads): a bigram of CJK is 6. */
export const HEAD = 8

/** A failed length or checksum test: the file is to be treated as absent and rebuilt. */
export class IndexCorruptError extends Error {
  constructor(what: string) {
    super(`the recall index is corrupt (${what}); it is rebuilt`)
    this.name = 'IndexCorruptError'
  }
}

export const isIndexCorrupt = (error: unknown): error is IndexCorruptError => error instanceof IndexCorruptError

/** [size, ctime] of a file, or null when it is absent. */
export type Stamp = [number, number] | null

export const sameStamp = (a: Stamp, b: Stamp): boolean =>
  a === null ? b === null : b !== null && a[0] === b[0] && a[1] === b[1]

export interface Settings {
  maxCards: number
  budgetChars: number
  /** project_key from config, if set; the origin remote is read fresh each time. */
  projectKey: string | null
  /** What the hooks need from config.yaml, cached here so a hook never loads the YAML parser or zod. */
  hooks: HookSettings
}

export interface HookSettings {
  /** knowledge_language: what the hooks' own text is written in (domain/messages/hooks.ts). */
  language: StoreLanguage
  coreBudget: number
  catalogBudget: number
  enforceMust: boolean
  /** hooks.path_cards: before_write denies a session's first write to a card's paths once, with the cards. */
  pathCardsBeforeWrite: boolean
  /** hooks.deadline_ms: the prompt and tool hooks'. */
  deadlineMs: number
  /** hooks.session_deadline_ms: session start's, stop's and session end's. */
  sessionDeadlineMs: number
  signals: {
    archiveMinEvents: number
    archiveMinHours: number
    reviewMaxPending: number
    reviewMaxAgeDays: number
    enrichMinCards: number
  }
}

/**
 * Where a card lives, and the fields scopeGate reads (a personal card may belong to another
 * project: `{store, scope: {...scope, module_path: null, paths: []}}` passes as its MatchDoc).
 */
export interface CardPlace {
  id: string
  title: string
  store: StoreKind
  /** An org card's layer, "org:<name>"; absent for a project or personal card. */
  layer?: string
  /** Path of the card file relative to its store's repository root. */
  path: string
  scope: Pick<MatchDoc['scope'], 'level' | 'project_key'>
}

export type Risk = 'high' | 'medium' | 'low'

/** A visible active `load: core` card, for session start. */
export interface CoreEntry extends CardPlace {
  policy: MatchDoc['policy']
  risk: Risk
  /** coreText(card): what the card contributes to session start, counted against core_budget. */
  text: string
}

/** A visible active `load: recall` card, one catalog line (domain/catalog.ts renders it). */
export interface CatalogEntry extends CardPlace {
  policy: MatchDoc['policy']
  category: string
  /** catalogPhrase(card): its first use_when phrase (useWhen), else its summary, kept short. */
  when: string
  useWhen?: boolean
}

/** A visible active card with non-empty scope.paths, for pre-tool-use. */
export interface PathEntry extends CardPlace {
  summary: string
  policy: MatchDoc['policy']
  risk: Risk
  module_path: string | null
  /** scope.paths: the globs, negations included, in the card's order. */
  paths: string[]
  /** The card's rule section (getRule), else its summary: the reason an enforced must-card denies with. */
  rule: string
  /** Files and folders the card cites by name, for the "may be stale" note. */
  cited: string[]
}

/** The index as the matcher and the session hooks use it (read.ts view). */
export interface RecallIndex {
  settings: Settings
  signals: Signal[]
  stats: CorpusStats
  /**
   * Visible records that could be admitted: for a short query, any sharing a phrase word or bigram;
   * else those whose phrases can still reach ADMIT_THRESHOLD (phraseBound: admitting phrases, plus
   * supporting ones up to what admitting ones gave), so none is missed.
   * `terms` are all weighted prompt terms, single CJK characters included; `expanded` the terms the
   * lexicon added, which meet only the own forms of concept units; `whole` says which terms are
   * whole forms or the prompt's own words (a lone CJK character reaches a short query's cards only
   * as one of them). A short query also reaches cards through its translations.
   */
  candidates(
    terms: Iterable<string>,
    expanded: Iterable<string>,
    short: boolean,
    whole: {has(term: string): boolean},
  ): MatchDoc[]
  /**
   * The cards for these terms before any is decoded (matchTopK decodes only those that can be
   * shown): must cards that could be admitted, the others by an upper bound of their bm25 for
   * these weighted prompt terms, and the candidates above on demand. Given a short query's
   * ShortReach (evidence.ts), the candidates it reaches by its wording are only the cards that hold
   * what shortQueryCoverage needs, not every card that holds one of its words.
   */
  bounded(
    terms: Iterable<string>,
    expanded: Iterable<string>,
    short: boolean | ShortReach,
    whole: {has(term: string): boolean},
    weights: Iterable<[string, number]>,
  ): BoundedCandidates
  /** Forms of the same concept for each of these prompt keys that the lexicon table holds. */
  expand(keys: string[]): Map<string, readonly string[]>
  /**
   * Every record, decoded, in the index's order: lint matches each card alone against its own prompt, and
   * a card that prompt cannot reach is not admitted by it, candidate or not.
   */
  records(): MatchDoc[]
  /** The full record of a candidate (for admitted cards). */
  hydrate(doc: MatchDoc): CardDoc
  /**
   * What this index holds, as a digest of its header (its build time, settings, signals, lexicon, stats)
   * and its block table, whose checksums cover its whole body: a derived answer kept with it (lint's
   * reach cache) is trusted only while the index it came from is the one open.
   */
  identity(): string
  /** Core cards, project first, then by id. One small region: no record is decoded. */
  coreCards(): CoreEntry[]
  /** Recall-tier cards, project first, then by id. */
  catalog(): CatalogEntry[]
  /** Cards with scope.paths, project first, then by id. */
  pathCards(): PathEntry[]
  /** How many visible cards have none of the phrases a person or agent writes (domain/thin.ts isBare): counted at build. */
  bareCards(): number
  close(): void
  /** Card files that cannot be loaded, so are left out. */
  skipped: SkippedCard[]
  /** Built by this call (not read from the file). */
  rebuilt: boolean
  /** Read from a file that no longer matches the card files (hook mode answers from it while a rebuild runs). */
  stale: boolean
}

export const REGIONS = [
  'stamps',
  'files',
  'terms',
  'termAt',
  'termHeads',
  'ranks',
  'rankAt',
  'recordAt',
  'records',
  'core',
  'catalog',
  'paths',
  'lexicon',
  'lexiconAt',
  'lexiconHeads',
] as const
export type Region = (typeof REGIONS)[number]

export interface Header {
  version: number
  /** Card files under cards/ that fail to parse, with why (recall warns of each, hooks log each once). */
  skipped: SkippedCard[]
  stores: string[]
  config: {stamp: Stamp; settings: Settings}
  signals: {stamp: Stamp; list: Signal[]}
  /** The lexicon the records were built with: the shipped data's version and .cairn/lexicon.yaml's stamp. */
  lexicon: {version: string; stamp: Stamp}
  n: number
  avgLen: Partial<Record<Field, number>>
  /** Date.now() before the card files were stamped: a file changed within RACY_MS of it is not trusted (racy). */
  scanned: number
  /** SHA-1 of each racy file's content (by its path) when the index was built: it proves such a file unchanged. */
  pins: Record<string, string>
  /** Visible records of must cards, ascending. */
  must: number[]
  /** Visible cards with no triggers, aliases or use_when: the stop hook's enrich signal. */
  bare: number
  /** Body bytes per entry of the block table. */
  block: number
  /** [offset from the start of the body, length] of each region. */
  regions: Record<Region, [number, number]>
}

export interface Found {
  store: number
  rel: string
  file: string
  size: number
  mtime: number
  /**
   * The inode's change time, the stamp (with the size): it moves with every write, and with a rename
   * or a checkout, and unlike the mtime nothing sets it back (touch -d, rsync -t, an editor keeping it).
   */
  ctime: number
}

export const stampsText = (found: readonly Found[]): string =>
  found.map(f => `${f.store}\t${f.rel}\t${f.size}\t${f.ctime}\n`).join('')

/** The stamps region read back: per card file, in the files region's order, its store, path and stamp. */
export const parseStamps = (text: string): {store: number; rel: string; size: number; ctime: number}[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map(line => {
      const [store, rel, size, ctime] = line.split('\t')
      return {store: Number(store), rel, size: Number(size), ctime: Number(ctime)}
    })

/**
 * How close to the scan a file's ctime may be before its stamp proves nothing: a write in the same
 * clock tick as the scan (or the read that followed it), keeping the size, leaves the same stamp, as
 * git's "racy clean" entries. A timestamp on whole seconds may come from a file system that keeps
 * only seconds (HFS+, ext3) or two (FAT); sub-second ones see the kernel's coarse clock (1 to 16 ms).
 */
export const RACY_MS = {fine: 100, coarse: 2000}
export const racy = (ctime: number, scanned: number): boolean =>
  ctime >= scanned - (ctime % 1000 === 0 ? RACY_MS.coarse : RACY_MS.fine)
/** A stamp that proves the file unchanged since `scanned` when it is the same: absent, or not racy. */
export const settled = (s: Stamp, scanned: number): boolean => s === null || !racy(s[1], scanned)

/** What a card file contributes beyond its record, carried over while the file is unchanged. */
export interface SessionFacts {
  load: Load
  /** coreText(card), for a core card. */
  core?: string
  /** getRule(body) ?? summary, for a card with scope.paths. */
  rule?: string
  /** The card's category, for its catalog line. */
  category?: string
  /** A recall card with no triggers, aliases or use_when of its own (domain/thin.ts), for the enrich signal. */
  bare?: boolean
}

/**
 * One card file: its record (-1 when it is not an active card), whether that record is visible, its
 * facts, and for a file that fails to parse the problem, carried over while the file is unchanged.
 */
export interface FileEntry {
  record: number
  visible: boolean
  facts?: SessionFacts
  problem?: string
  /** The git blob id of the bytes the record was built from (blobHash), when the file could be read: proof.ts checks git's against it. */
  blob?: string
}

/** A card file left out of the index because it cannot be loaded. */
export interface SkippedCard {
  /** Repo-relative for the project store; absolute for the personal one. */
  path: string
  /** Each broken field with its fix ("load: has an invalid value. Fix: use one of ..."), or why the file cannot be read. */
  problem: string
  size: number
  mtime: number
}

/** What the hook error log says about a card file that cannot be loaded (`cairn recall` warns it in the store's language). */
export const cannotLoad = (s: SkippedCard, language?: StoreLanguage): string =>
  speak(RECALL_TEXT, language).cannotLoad(s.path, s.problem)

/** The config values the hooks read, cached in the index so a warm hook loads neither YAML nor zod. */
export function hookSettings(c: Config): HookSettings {
  const s = c.signals
  return {
    language: c.knowledge_language,
    coreBudget: c.core_budget,
    catalogBudget: c.recall.catalog_budget,
    enforceMust: c.hooks.enforce_must,
    pathCardsBeforeWrite: c.hooks.path_cards === 'before_write',
    deadlineMs: c.hooks.deadline_ms,
    sessionDeadlineMs: c.hooks.session_deadline_ms,
    signals: {
      archiveMinEvents: s.archive_min_events,
      archiveMinHours: s.archive_min_hours,
      reviewMaxPending: s.review_max_pending,
      reviewMaxAgeDays: s.review_max_age_days,
      enrichMinCards: s.enrich_min_cards,
    },
  }
}
