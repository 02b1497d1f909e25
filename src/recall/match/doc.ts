import type {StoreKind} from '../../domain/org.js'
import type {Card} from '../../domain/card/schema.js'
import {citedPaths, isGlob} from '../../domain/stale.js'
import {type Concept, conceptsOf, formTerms, type Translator} from './expand.js'
import {memo} from './memo.js'
import {normText} from './phrase.js'
import {hasCjk, isSingleCjk, type Token, tokensOf} from './tokenize.js'

/**
 * The matcher's view of one active card: what gates and scoring need, pre-tokenised, so the
 * index can store it and a warm prompt hook never parses a card file or tokenises card text.
 */
export const FIELDS = [
  'triggers',
  'derived',
  'aliases',
  'title',
  'use_when',
  'topics',
  'keywords',
  'summary',
  'rule',
  'xl',
] as const
export type Field = (typeof FIELDS)[number]

/** A phrase with its normalised text and its weighted terms: [term, weight][]. */
export interface Phrase {
  field: Field | 'ignore_when'
  text: string
  norm: string
  units: [string, number][]
  /**
   * Concept units (expand.ts), for matching across languages and wordings: each unit's own form
   * and its translations. Present when the card was indexed with a lexicon.
   */
  concepts?: Concept[]
}

/** What gates and admission need: small, so a prompt can afford it for every candidate. */
export interface MatchDoc {
  id: string
  title: string
  store: StoreKind
  /** An org card's layer, "org:<name>"; absent for a project or personal card. */
  layer?: string
  path: string
  policy: 'must' | 'should' | 'may'
  scope: {
    level: 'project' | 'project-family' | 'global'
    /** One key, or the keys of every project the card applies to. */
    project_key: string | string[] | null
    module_path: string | null
    paths: string[]
  }
  hints: {positive: string[]; required_all: string[]; negative: string[]}
  /** Phrases that can admit a card (triggers, aliases, use_when) or support it (title, topics, keywords). */
  phrases: Phrase[]
  ignores: Phrase[]
}

/** At most this many cited paths are kept for the hook's note (a stat each, for the few cards shown). */
const MAX_CITED = 24

/** What ranking and the light index need: loaded only for admitted cards. */
export interface RankDoc {
  summary: string
  type: string
  risk: string
  language: string
  use_when: string[]
  ignore_when: string[]
  /** Per field: [term, frequency] pairs, for BM25F (pairs, not objects: cheaper to build and store). */
  tf: Partial<Record<Field, [string, number][]>>
  len: Partial<Record<Field, number>>
  /** Files and folders the card cites by name (no globs), for the hook's "may be stale" note. */
  cited: string[]
}

export type CardDoc = MatchDoc & RankDoc

/** Fields whose phrases can admit a card; the title admits too, since most cards are found by what they are called. */
export const STRONG_FIELDS: ReadonlySet<string> = new Set(['triggers', 'derived', 'aliases', 'use_when', 'title'])

/**
 * The share of a title a prompt must hold for the title to admit: titles are long and made of a
 * topic's common words, so a part of one is supporting evidence, not admitting evidence.
 */
export const TITLE_MIN = 0.6
export const minCoverage = (field: string): number => (field === 'title' ? TITLE_MIN : 0)

export function phraseOf(
  field: Phrase['field'],
  text: string,
  tr?: Translator,
  tokens: (norm: string) => Token[] = tokensOf,
): Phrase {
  const norm = normText(text)
  const units = new Map<string, number>()
  for (const t of tokens(norm)) if (t.weight > 0) units.set(t.term, Math.max(units.get(t.term) ?? 0, t.weight))
  const p: Phrase = {field, text, norm, units: [...units]}
  if (tr && STRONG_FIELDS.has(field)) {
    const concepts = conceptsOf(norm, tr, tokens)
    if (concepts.length) p.concepts = concepts
  }
  return p
}

export function buildDoc(
  card: Card,
  rule: string,
  where: {store: StoreKind; layer?: string; path: string},
  tr?: Translator,
): CardDoc {
  const texts = fieldTexts(card, rule)
  const tokens = memoTokens()
  const {phrases, norms} = collectPhrases(texts, tokens, tr)
  const {tf, len} = termCounts(texts, tokens, norms)
  countTranslations(phrases, tf, len)
  return {
    id: card.id,
    title: card.title,
    summary: card.summary,
    type: card.type,
    store: where.store,
    ...(where.layer ? {layer: where.layer} : {}),
    path: where.path,
    policy: card.recall.policy,
    risk: card.recall.risk,
    language: card.language,
    use_when: card.criteria.use_when,
    ignore_when: card.criteria.ignore_when,
    scope: {
      level: card.scope.level,
      project_key: card.scope.project_key,
      module_path: card.scope.module_path,
      paths: card.scope.paths,
    },
    hints: {
      positive: card.engine_hints.positive,
      required_all: card.engine_hints.required_all,
      negative: card.engine_hints.negative,
    },
    phrases,
    ignores: card.criteria.ignore_when.map(t => phraseOf('ignore_when', t)),
    tf,
    len,
    cited: citedPaths(card)
      .filter(p => !isGlob(p))
      .slice(0, MAX_CITED),
  }
}

/** The texts of each field, as buildDoc phrases and counts them. */
function fieldTexts(card: Card, rule: string): Record<Field, string[]> {
  const aliases = [...card.recall.aliases.en, ...card.recall.aliases.zh]
  return {
    // Derived triggers are cairn's guess for a card nobody gave triggers; they match as triggers do.
    triggers: card.recall.triggers,
    derived: card.recall.derived_triggers,
    aliases,
    title: [card.title],
    use_when: card.criteria.use_when,
    topics: card.recall.topics,
    keywords: card.keywords,
    summary: [card.summary],
    rule: [rule],
    xl: [],
  }
}

/** A phrase's text is counted in tf too: tokenised once (tokensOf is pure). */
function memoTokens(): (norm: string) => Token[] {
  const tokenised = new Map<string, Token[]>()
  return (norm: string): Token[] => {
    let out = tokenised.get(norm)
    if (!out) tokenised.set(norm, (out = tokensOf(norm)))
    return out
  }
}

/** The card's phrases, each normalised text once, in field order; and each text's normal form, for its tf count too. */
function collectPhrases(
  texts: Record<Field, string[]>,
  tokens: (norm: string) => Token[],
  tr?: Translator,
): {phrases: Phrase[]; norms: Map<string, string>} {
  const phrases: Phrase[] = []
  const seen = new Set<string>()
  const norms = new Map<string, string>()
  for (const field of ['triggers', 'derived', 'aliases', 'use_when', 'title', 'topics', 'keywords'] as const) {
    for (const text of texts[field]) {
      const p = phraseOf(field, text, tr, tokens)
      norms.set(text, p.norm)
      if (p.norm && !seen.has(p.norm)) {
        seen.add(p.norm)
        phrases.push(p)
      }
    }
  }
  return {phrases, norms}
}

/** Each field's term frequencies and length (weighted-out tokens aside); a field with no terms has neither. */
function termCounts(
  texts: Record<Field, string[]>,
  tokens: (norm: string) => Token[],
  norms: Map<string, string>,
): Pick<CardDoc, 'tf' | 'len'> {
  const tf: CardDoc['tf'] = {}
  const len: CardDoc['len'] = {}
  for (const field of FIELDS) {
    const counts = new Map<string, number>()
    let n = 0
    for (const text of texts[field]) {
      for (const t of tokens(norms.get(text) ?? normText(text))) {
        if (t.weight === 0) continue
        counts.set(t.term, (counts.get(t.term) ?? 0) + 1)
        n++
      }
    }
    if (n) {
      tf[field] = [...counts]
      len[field] = n
    }
  }
  return {tf, len}
}

/**
 * Translations and synonyms rank too, at the lowest weight (bm25.ts), and they are what a short
 * query in the other language finds the card by: counted into the xl field.
 */
function countTranslations(phrases: Phrase[], tf: CardDoc['tf'], len: CardDoc['len']): void {
  const xl = new Map<string, number>()
  for (const p of phrases) {
    for (const [forms] of p.concepts ?? []) {
      // A translation's single Chinese characters would rank every card that shares one: words and pairs only.
      for (const t of xlTerms(forms)) xl.set(t, (xl.get(t) ?? 0) + 1)
    }
  }
  if (xl.size) {
    tf.xl = [...xl]
    len.xl = [...xl.values()].reduce((a, b) => a + b, 0)
  }
}

const COMPOUND = /[._\-/+#]/

/**
 * A phrase of lone CJK characters ("锁"), compounds aside: it shares no word or bigram with any
 * prompt, so its characters anchor it (in the index and in evidence.ts alike).
 */
export function isLone(p: Phrase): boolean {
  const plain = p.units.map(([t]) => t).filter(t => !COMPOUND.test(t))
  return plain.length > 0 && plain.every(isSingleCjk)
}

/** What the index posts for a phrase (see strongPhrases). */
export interface PhraseTerms {
  index: number
  /** Its terms, compounds aside: a prompt that holds them adds their weight. */
  terms: string[]
  /** Its compound tokens: posted too, so a prompt holding one finds the card, but their weight is slack already. */
  compounds: string[]
  total: number
  slack: number
  min: number
  concepts: number
  /** All its terms are lone CJK characters: they anchor it. */
  lone: boolean
}

/**
 * Per admitting phrase: its index, the terms the index posts for it, its total and slack weight
 * (see phraseBound). Compound tokens are slack: an exact occurrence may sit inside a longer one.
 */
export function strongPhrases(doc: MatchDoc): PhraseTerms[] {
  return phraseTerms(doc, true)
}

/**
 * The same for the supporting phrases (topics, keywords): the index bounds what they can add, and a
 * short query (three words or fewer) may find a card by any of its wording.
 */
export function supportPhrases(doc: MatchDoc): PhraseTerms[] {
  return phraseTerms(doc, false)
}

function phraseTerms(doc: MatchDoc, strong: boolean): PhraseTerms[] {
  const out = []
  for (let index = 0; index < doc.phrases.length; index++) {
    const p = doc.phrases[index]
    if (STRONG_FIELDS.has(p.field) !== strong || p.units.length === 0) continue
    let total = 0
    let slack = 0
    const terms: string[] = []
    const compounds: string[] = []
    for (const [t, w] of p.units) {
      total += w
      if (COMPOUND.test(t)) {
        slack += w
        compounds.push(t)
      } else terms.push(t)
    }
    const concepts = (p.concepts ?? []).reduce((a, [, w]) => a + w, 0)
    out.push({index, terms, compounds, total, slack, min: minCoverage(p.field), concepts, lone: isLone(p)})
  }
  return out
}

/**
 * A concept unit's postings: its forms, each as the terms it cannot be present without (every stem
 * of an English form; a Chinese form's first two characters, or its one character), the own form
 * first (empty when the phrase's direct postings stand for it); and the unit's weight.
 */
export interface ConceptUnitPosting {
  forms: (readonly string[])[]
  weight: number
}

/**
 * Per admitting phrase with concept units: its index, total weight, the coverage it needs to
 * admit, and each unit's anchors. A form is present in a prompt only if its anchor is (its first
 * stem; a Chinese form's first two characters, or its one character), so posting the anchors is
 * enough for the index to find the card. The own form may be met through the prompt's
 * translations, a translation only by the prompt's own words (evidence.ts), hence two lists.
 */
export function conceptPostings(
  doc: MatchDoc,
): {index: number; total: number; min: number; units: ConceptUnitPosting[]}[] {
  const out: {index: number; total: number; min: number; units: ConceptUnitPosting[]}[] = []
  doc.phrases.forEach((p, index) => {
    if (!STRONG_FIELDS.has(p.field) || !p.concepts) return
    let total = 0
    const units: ConceptUnitPosting[] = []
    const direct = new Set(p.units.map(u => u[0]).filter(t => !COMPOUND.test(t)))
    for (const [forms, weight] of p.concepts) {
      total += weight
      const list = [...unitAnchors(forms)]
      // An own form that is one of the phrase's own words is found through the phrase's direct
      // postings (the index marks the unit met there), so it is not posted twice.
      if (list[0].length === 1 && !hasCjk(list[0][0]) && direct.has(list[0][0])) list[0] = []
      units.push({forms: list, weight})
    }
    out.push({index, total, min: minCoverage(p.field), units})
  })
  return out
}

/** The terms a form cannot be present without (see formPresent in evidence.ts). */
const anchorsOf = (form: string): readonly string[] =>
  hasCjk(form) ? [form.slice(0, Math.min(2, form.length))] : [...new Set(form.split(' '))]

/** Each form's anchors, worked out once per process: a library's cards share their concepts, and the lexicon's translations of them. */
const unitAnchors = memo((forms): readonly (readonly string[])[] => forms.split('|').map(anchorsOf))

/** The terms a unit's translations add to the xl field, in order and repeated as they come; single CJK characters left out. */
const xlTerms = memo((forms): readonly string[] =>
  forms
    .split('|')
    .slice(1)
    .flatMap(form => formTerms(form).filter(t => !isSingleCjk(t))),
)
