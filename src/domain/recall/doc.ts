import type {Card} from '../card/schema.js'
import {type Concept, conceptsOf, formTerms, type Translator} from './expand.js'
import {normText} from './phrase.js'
import {candidateTerms, tokensOf} from './tokenize.js'

/**
 * The matcher's view of one active card: what gates and scoring need, pre-tokenised, so the
 * index can store it and a warm prompt hook never parses a card file or tokenises card text.
 */
export const FIELDS = ['triggers', 'derived', 'aliases', 'title', 'use_when', 'topics', 'keywords', 'summary', 'rule', 'xl'] as const
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
  store: 'project' | 'personal'
  path: string
  policy: 'must' | 'should' | 'may'
  scope: {level: 'project' | 'project-family' | 'global'; project_key: string | null; module_path: string | null; paths: string[]}
  hints: {positive: string[]; required_all: string[]; negative: string[]}
  /** Phrases that can admit a card (triggers, aliases, use_when) or support it (title, topics, keywords). */
  phrases: Phrase[]
  ignores: Phrase[]
}

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
}

export type CardDoc = MatchDoc & RankDoc

/** Fields whose phrases can admit a card; the title admits too, since most cards are found by what they are called. */
export const STRONG_FIELDS: ReadonlySet<string> = new Set(['triggers', 'derived', 'aliases', 'use_when', 'title'])

export function phraseOf(field: Phrase['field'], text: string, tr?: Translator): Phrase {
  const norm = normText(text)
  const units = new Map<string, number>()
  for (const t of tokensOf(norm)) if (t.weight > 0) units.set(t.term, Math.max(units.get(t.term) ?? 0, t.weight))
  const p: Phrase = {field, text, norm, units: [...units]}
  if (tr && STRONG_FIELDS.has(field)) {
    const concepts = conceptsOf(norm, tr)
    if (concepts.length) p.concepts = concepts
  }
  return p
}

export function buildDoc(card: Card, rule: string, where: {store: 'project' | 'personal'; path: string}, tr?: Translator): CardDoc {
  const aliases = [...card.recall.aliases.en, ...card.recall.aliases.zh]
  const texts: Record<Field, string[]> = {
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
  const phrases: Phrase[] = []
  const seen = new Set<string>()
  for (const field of ['triggers', 'derived', 'aliases', 'use_when', 'title', 'topics', 'keywords'] as const) {
    for (const text of texts[field]) {
      const p = phraseOf(field, text, tr)
      if (p.norm && !seen.has(p.norm)) {
        seen.add(p.norm)
        phrases.push(p)
      }
    }
  }
  const tf: CardDoc['tf'] = {}
  const len: CardDoc['len'] = {}
  for (const field of FIELDS) {
    const counts = new Map<string, number>()
    let n = 0
    for (const text of texts[field]) {
      for (const t of tokensOf(normText(text))) {
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
  // Translations and synonyms rank too, at the lowest weight (bm25.ts), and they are what a short
  // query in the other language finds the card by.
  const xl = new Map<string, number>()
  for (const p of phrases) {
    for (const [forms] of p.concepts ?? []) for (const form of forms.split('|').slice(1)) for (const t of formTerms(form)) xl.set(t, (xl.get(t) ?? 0) + 1)
  }
  if (xl.size) {
    tf.xl = [...xl]
    len.xl = [...xl.values()].reduce((a, b) => a + b, 0)
  }
  return {
    id: card.id,
    title: card.title,
    summary: card.summary,
    type: card.type,
    store: where.store,
    path: where.path,
    policy: card.recall.policy,
    risk: card.recall.risk,
    language: card.language,
    use_when: card.criteria.use_when,
    ignore_when: card.criteria.ignore_when,
    scope: {level: card.scope.level, project_key: card.scope.project_key, module_path: card.scope.module_path, paths: card.scope.paths},
    hints: {positive: card.engine_hints.positive, required_all: card.engine_hints.required_all, negative: card.engine_hints.negative},
    phrases,
    ignores: card.criteria.ignore_when.map(t => phraseOf('ignore_when', t)),
    tf,
    len,
  }
}

/**
 * Candidate terms of a card: `strong` from the phrases that can admit it, `support` from the
 * rest. A prompt longer than a short query can only admit a card through a strong term.
 */
export function candidateTermsOf(doc: MatchDoc): {strong: Set<string>; support: Set<string>} {
  const pick = (strong: boolean) => {
    const weights = new Map<string, number>()
    for (const p of doc.phrases) if (STRONG_FIELDS.has(p.field) === strong) for (const [t, w] of p.units) weights.set(t, Math.max(weights.get(t) ?? 0, w))
    return new Set(candidateTerms(weights))
  }
  return {strong: pick(true), support: pick(false)}
}

const COMPOUND = /[._\-/+#]/

/**
 * Per admitting phrase: its index, the terms the index posts for it, its total and slack weight
 * (see phraseBound). Compound tokens are slack: an exact occurrence may sit inside a longer one.
 */
export function strongPhrases(doc: MatchDoc): {index: number; terms: string[]; total: number; slack: number}[] {
  const out = []
  for (let index = 0; index < doc.phrases.length; index++) {
    const p = doc.phrases[index]
    if (!STRONG_FIELDS.has(p.field) || p.units.length === 0) continue
    let total = 0
    let slack = 0
    const terms: string[] = []
    for (const [t, w] of p.units) {
      total += w
      if (COMPOUND.test(t)) slack += w
      else terms.push(t)
    }
    out.push({index, terms, total, slack})
  }
  return out
}

/**
 * Per admitting phrase with concept units: its index, total weight, and each unit's anchor terms
 * with the unit's weight. A form is present in a prompt only if its first term is (expand.ts), so
 * posting that term is enough for the index to find the card; a bound that counts several forms of
 * one unit only over-counts, which never loses a card.
 */
export function conceptPostings(doc: MatchDoc): [number, number, [string, number][]][] {
  const out: [number, number, [string, number][]][] = []
  doc.phrases.forEach((p, index) => {
    if (!STRONG_FIELDS.has(p.field) || !p.concepts) return
    let total = 0
    const anchors: [string, number][] = []
    for (const [forms, w] of p.concepts) {
      total += w
      for (const f of forms.split('|')) {
        const first = formTerms(f)[0]
        if (first) anchors.push([first, w])
      }
    }
    out.push([index, total, anchors])
  })
  return out
}
