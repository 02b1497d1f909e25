import {isLone, type MatchDoc, minCoverage, type Phrase, STRONG_FIELDS as STRONG} from './doc.js'
import {formTerms} from './expand.js'
import {phraseOccurrences} from './phrase.js'
import type {PromptView} from './prompt.js'
import {GENERIC_EN} from '../../domain/derive-words.js'
import {hasCjk, isSingleCjk, tokenize} from './tokenize.js'

/**
 * The admission score: how much of the card's own wording the prompt carries. It looks only at
 * the card and the prompt (never at other cards or corpus statistics), so adding cards to a
 * library cannot change whether a card is admitted.
 */
export const ADMIT_THRESHOLD = 0.5
/** An exact phrase counts fully; a scattered partial match counts less, and falls off quickly. */
export const PARTIAL = 0.8
/** How fast partial evidence falls off with the share of a phrase the prompt holds. */
const FALLOFF = 1.5
/** A phrase met through translations or synonyms counts this much of a direct match. */
const LEXICON = 0.85
export const SUPPORT = 0.5
/** A phrase met through the lexicon by a single word counts this much: below admission on its own. */
const ONE_WORD = 0.6
/** A derived trigger of one word, as written: support that needs other evidence to admit. */
const LONE_DERIVED = 0.45

/** What a phrase met through the lexicon keeps of its strength, by the weight of the words that met it. */
export const lexicalFactor = (weight: number): number => LEXICON * (weight >= 2 ? 1 : ONE_WORD)

/** The strength of a phrase the prompt holds a share of, but not as written. */
export const partial = (cov: number): number => PARTIAL * cov ** FALLOFF
const NEAR_MISS_FLOOR = 0.5

/** Whether a phrase match counts as admitting evidence. */
const admits = (m: PhraseMatch): boolean => STRONG.has(m.field) && (m.exact || m.coverage >= minCoverage(m.field))

export interface PhraseMatch {
  field: Phrase['field']
  text: string
  exact: boolean
  /** Share of the phrase's weighted terms present outside mention spans (of its words, when it matched word by word). */
  coverage: number
  /** Its contribution, each prompt term counted once across the card's phrases. */
  score: number
  /** Present only inside a mention span (negated or an example). */
  mentioned?: boolean
  /** Met through the lexicon: the forms that matched, each as "form (from the prompt's key)". */
  via?: string[]
}

export interface Evidence {
  score: number
  positive: number
  penalty: number
  matches: PhraseMatch[]
  nearMiss: PhraseMatch | null
  /** 1 when a short query has every word in the card's wording, else 0. */
  queryCoverage: number
  /** The prompt's terms behind the positive evidence, sorted: what select() compares between cards. */
  terms: string[]
  /** The prompt's intent (match.ts) lowered the score: by this factor, for these signals. */
  discount?: {factor: number; intents: string[]}
}

/**
 * English prompt terms too common to be evidence of a card by themselves ("add", "version"): a phrase
 * the prompt holds only in part, and only through such words, says nothing of the card. Chinese words
 * are left out: in a short Chinese prompt 版本 or 修改 carries meaning (evals/README.md).
 */
const GENERIC_TERMS: ReadonlySet<string> = new Set(
  [...GENERIC_EN].flatMap(w =>
    tokenize(w)
      .filter(t => t.weight > 0)
      .map(t => t.term),
  ),
)
const isGeneric = (term: string): boolean => GENERIC_TERMS.has(term)

const NEGATION_WORDS = /不是|不要|不用|无需|不需要|并非|没有|\bnot\b|\bno\b|\bwithout\b|\bdon't\b|\b\w+n't\b/g

/**
 * Whether the prompt holds a term outside mention spans as evidence. A stop word weighs nothing,
 * even when it is spelled like a word's stem ("own" against "owned").
 */
const holds = (pv: PromptView, term: string): boolean => (pv.active.get(term) ?? 0) > 0

function coverage(p: Phrase, pv: PromptView): number {
  let total = 0
  let hit = 0
  for (const [term, w] of p.units) {
    total += w
    if (holds(pv, term)) hit += w
  }
  return total ? hit / total : 0
}

export function matchPhrase(p: Phrase, pv: PromptView): PhraseMatch {
  const at = phraseOccurrences(pv.text, p.norm)
  const exact = at.some(i => !pv.spans.some(s => i < s.end && i + p.norm.length > s.start))
  const cov = coverage(p, pv)
  // A phrase of stop words only ("do it") would occur everywhere: it carries no evidence.
  let strength = p.units.length === 0 ? 0 : writtenStrength(exact, cov)
  // A derived trigger of one word was picked by cairn, not by a person: alone it does not admit.
  if (p.field === 'derived' && weightOf(p) < 2) strength *= LONE_DERIVED
  let via: string[] | undefined
  let shown = cov
  if (!exact && p.concepts) {
    const c = conceptCoverage(p, pv)
    const words = wordStrength(c)
    if (words > strength) {
      strength = words
      shown = c.cov
      if (c.via.length) via = c.via
    }
  }
  const m: PhraseMatch = {
    field: p.field,
    text: p.text,
    exact,
    coverage: round(shown),
    score: 0,
    ...(!exact && at.length ? {mentioned: true} : {}),
    ...(via ? {via} : {}),
  }
  m.score = phraseScore(strength, admits(m))
  return m
}

/*
 * The pieces of matchPhrase's score, each with its upper bound beside it. The index (candidates.ts)
 * skips, without decoding them, cards that cannot reach ADMIT_THRESHOLD, from what its postings say
 * of each phrase: change a piece, and the bound next to it must still hold (test/recall-bounds.test.ts).
 */

/**
 * What the index's postings say a prompt holds of one admitting phrase, without the card: what
 * strengthBound reads. Weights are in words, shares are fractions.
 */
export interface PhraseReach {
  /**
   * Whether the prompt holds any of the phrase's terms as written (its direct postings); then the
   * weight of those it holds (compound tokens aside), the phrase's total and slack (its compound
   * tokens' weight), and the share a title needs to admit (minCoverage; 0 for the other fields).
   */
  written: boolean
  matched: number
  total: number
  slack: number
  min: number
  /**
   * The phrase's concept weight (0 when it has none), and the weight of its English words the
   * prompt holds in its own words: each of them is a concept unit of its own.
   */
  concepts: number
  english: number
  /**
   * Whether the prompt reached any of its concept units through their forms (the concept postings);
   * then the weight of the units met in the prompt's own words, of all units met, and of the English
   * words that met them, and the phrase's concept total and share as those postings give them.
   */
  units: boolean
  own: number
  got: number
  words: number
  unitTotal: number
  unitMin: number
}

/**
 * Upper bound of matchPhrase's strength (what phraseScore rounds): the better of writtenStrength's
 * bound and wordStrength's. With `admitting`, of a match that admits only: a title below its share
 * bounds to 0 (it supports instead); without, of any match.
 */
export function strengthBound(r: PhraseReach, admitting: boolean): number {
  const best = r.written ? phraseBound(r.matched, r.total, r.slack, admitting ? r.min : 0) : 0
  // Units met include the English words found (the index meets each as a unit of its own); without
  // any, each English word found is one met in the prompt's own words.
  if (r.units) return Math.max(best, unitsBound(r, admitting ? r.unitMin : 0))
  if (r.concepts) return Math.max(best, conceptBound(r.english, r.concepts, admitting ? r.min : 0))
  return best
}

/** A phrase as written: whole, or the share of its weighted terms the prompt holds. */
export const writtenStrength = (exact: boolean, cov: number): number => (exact ? 1 : partial(cov))

/**
 * Upper bound of writtenStrength, from the weight of the phrase's terms the prompt holds. Compound
 * tokens count as present (slack): an exact occurrence always holds every word, bigram and
 * character of the phrase, but may sit inside a longer compound. With min, of a match whose
 * coverage, rounded to thousandths, reaches it.
 */
export function phraseBound(matched: number, total: number, slack: number, min = 0): number {
  const covered = matched + slack
  if (covered >= total - 1e-9) return 1
  // A match admits when its coverage, rounded to thousandths, reaches min: below that by more, none.
  return covered / total < min - 0.0005 ? 0 : partial(covered / total)
}

/**
 * A phrase word by word (Chinese by ICU words, not bigrams that cross them): its concept units met
 * in any form. Through translations it counts less, and one translated word is weak evidence (a word
 * has many senses): alone it never admits.
 */
export const wordStrength = (c: Pick<ConceptCoverage, 'cov' | 'weight' | 'via'>): number =>
  c.via.length ? lexicalFactor(c.weight) * partial(c.cov) : partial(c.cov)

/**
 * Upper bound of wordStrength for units met in the prompt's own words (no lexicon factor), from
 * their weight. Word by word is never an exact occurrence, so even a phrase met whole scores as a
 * partial match. With min, as phraseBound.
 */
export function conceptBound(matched: number, total: number, min = 0): number {
  const cov = Math.min(1, matched / total)
  return cov < min - 0.0005 ? 0 : partial(cov)
}

/**
 * Upper bound of wordStrength, from the units the postings met: all of them in the prompt's own
 * words (no lexicon factor), or some through the lexicon, at lexicalFactor of the English words
 * that met them. With min, as phraseBound.
 */
export function unitsBound(r: Pick<PhraseReach, 'own' | 'got' | 'words' | 'unitTotal'>, min = 0): number {
  const own = conceptBound(r.own, r.unitTotal, min)
  return Math.max(own, lexicalFactor(r.words) * conceptBound(r.got, r.unitTotal, min))
}

/** A phrase's score from its strength: in full when it admits, at SUPPORT when it only supports; in thousandths. */
export const phraseScore = (strength: number, admitting: boolean): number =>
  round(admitting ? strength : SUPPORT * strength)

/** Upper bound of phraseScore, from an upper bound of the strength (strengthBound, phraseBound). */
export const phraseScoreBound = (strength: number, admitting: boolean): number =>
  roundUp(admitting ? strength : SUPPORT * strength)

const round = (x: number): number => Math.round(x * 1000) / 1000
/** An upper bound of round(x) (what the index compares with ADMIT_THRESHOLD). */
export const roundUp = (x: number): number => Math.ceil(x * 1000) / 1000

const weightOf = (p: Phrase): number => p.units.reduce((a, [, w]) => a + w, 0)

/** Whether a form (expand.ts) is in the prompt: every stem of an English form, or a Chinese word in the text. */
/**
 * formPresent, remembered per prompt: the same forms ("cach|缓存") recur in card after card, so a
 * prompt that meets hundreds of candidates asks about each form once.
 */
const presence = new WeakMap<PromptView, Map<string, boolean>>()
function present(form: string, pv: PromptView, expanded: boolean): boolean {
  let memo = presence.get(pv)
  if (!memo) presence.set(pv, (memo = new Map()))
  const key = expanded ? `+${form}` : form
  let hit = memo.get(key)
  if (hit === undefined) memo.set(key, (hit = formPresent(form, pv, expanded)))
  return hit
}

const splits = new Map<string, string[]>()
/** A unit's forms, split once (bounded: a long-running process meets many). */
function formsOf(forms: string): string[] {
  let list = splits.get(forms)
  if (!list) {
    if (splits.size > 50_000) splits.clear()
    splits.set(forms, (list = forms.split('|')))
  }
  return list
}

export function formPresent(form: string, pv: PromptView, expanded = true): boolean {
  if (!hasCjk(form)) return form.split(' ').every(t => holds(pv, t) || (expanded && pv.expanded.has(t)))
  if (expanded && pv.expandedForms.has(form)) return true
  if (form.length === 1) return (pv.active.get(form) ?? 0) > 0
  if (!pv.text.includes(form)) return false
  for (let i = 0; i + 1 < form.length; i++) if (!pv.active.has(form.slice(i, i + 2))) return false
  return true
}

type ConceptCoverage = {cov: number; weight: number; via: string[]; hit: string[][]}
const coverages = new WeakMap<Phrase, {pv: PromptView; c: ConceptCoverage}>()

/** Concept coverage, once per phrase and prompt: matchPhrase and evidence both ask. */
function conceptCoverage(p: Phrase, pv: PromptView): ConceptCoverage {
  const known = coverages.get(p)
  if (known?.pv === pv) return known.c
  const c = unitsMet(p, pv)
  coverages.set(p, {pv, c})
  return c
}

/** Share of a phrase's concept units the prompt holds in any form, and the forms met only through the lexicon. */
function unitsMet(p: Phrase, pv: PromptView): ConceptCoverage {
  let total = 0
  let got = 0
  let weight = 0
  const via: string[] = []
  // Per unit met: the prompt's terms that met it (its own words, or the key its translation came from).
  const hit: string[][] = []
  for (const [forms, w] of p.concepts!) {
    total += w
    const u = unitMet(forms, pv)
    if (!u) continue
    got += w
    weight += Math.max(w, u.words) - w
    hit.push(u.hit)
    if (u.via) via.push(u.via)
  }
  return {cov: total ? got / total : 0, weight: got + weight, via, hit}
}

type UnitMet = {words: number; hit: string[]; via: string | null} | null
const unitsByPrompt = new WeakMap<PromptView, Map<string, UnitMet>>()

/**
 * How the prompt meets one concept unit (its forms joined by "|"), remembered per prompt: the same
 * units recur in card after card. Null when it does not; else the words of the English that met
 * it ("merg conflict" weighs two), the prompt's terms behind it, and the form met through the
 * lexicon, if it was.
 */
function unitMet(forms: string, pv: PromptView): UnitMet {
  let memo = unitsByPrompt.get(pv)
  if (!memo) unitsByPrompt.set(pv, (memo = new Map()))
  const known = memo.get(forms)
  if (known !== undefined) return known
  const list = formsOf(forms)
  // A form in the prompt's own words first; else the unit's own form through the prompt's
  // translations. A unit's translations are never met through translations, so no word comes
  // back to its own language as a synonym.
  const direct = list.find(f => present(f, pv, false))
  const found = direct ?? (present(list[0], pv, true) ? list[0] : undefined)
  let met: UnitMet = null
  if (found !== undefined) {
    const english = !hasCjk(found) ? found : direct === undefined ? pv.expandedForms.get(found) : undefined
    met = {
      words: english && !hasCjk(english) ? english.split(' ').length : 0,
      hit: promptTermsOf(found, direct !== undefined, pv),
      via: direct !== list[0] ? viaText(found, pv) : null,
    }
  }
  memo.set(forms, met)
  return met
}

/** The prompt's own terms behind a form that was met: the form's own, or those of the keys it was translated from. */
function promptTermsOf(form: string, direct: boolean, pv: PromptView): string[] {
  const from = direct ? [] : [pv.expandedForms.get(form), ...formTerms(form).map(t => pv.expanded.get(t)?.key)]
  const terms = [...formTerms(form), ...from.flatMap(k => (k ? formTerms(k) : []))]
  return [...new Set(terms.filter(t => holds(pv, t)))]
}

function viaText(form: string, pv: PromptView): string {
  const from =
    pv.expandedForms.get(form) ??
    form
      .split(' ')
      .map(t => pv.expanded.get(t)?.key)
      .find(Boolean)
  return from ? `${form} (from ${from})` : form
}

/**
 * A fuzzy ignore_when overlap, judged on the phrase's distinctive words: those not already in the
 * card's own phrases. "invoice dashboard only" on an invoice card is a near miss when the prompt
 * speaks of a dashboard, not because it says "invoice". A negated ignore phrase ("不是 npm pack")
 * is no near miss for a prompt without that negation.
 */
export function nearMiss(p: Phrase, pv: PromptView, own: ReadonlySet<string> = new Set()): PhraseMatch {
  const m = matchPhrase(p, pv)
  const distinctive = {...p, units: p.units.filter(([t]) => !own.has(t))}
  const cov = coverage(distinctive, pv)
  const negations = p.norm.match(NEGATION_WORDS) ?? []
  const counts =
    !m.exact && distinctive.units.length > 0 && cov >= NEAR_MISS_FLOOR && negations.every(n => pv.text.includes(n))
  return {...m, coverage: round(cov), score: counts ? round(cov * cov) : 0}
}

/**
 * Positive evidence counts each prompt term once: phrases are taken strongest first (admitting
 * fields before supporting ones) and a phrase earns only the share of its matched terms not
 * already used, so one common word repeated across a card's fields cannot add up to admission.
 * Supporting fields (title, topics, keywords) never add more than the admitting ones did.
 */
export function evidence(doc: MatchDoc, pv: PromptView): Evidence {
  const scored = doc.phrases.map(p => ({p, m: matchPhrase(p, pv)})).filter(x => x.m.score > 0 || x.m.mentioned)
  scored.sort((a, b) => Number(admits(b.m)) - Number(admits(a.m)) || b.m.score - a.m.score)
  const used = new Set<string>()
  const behind = new Set<string>()
  let strong = 0
  let support = 0
  const matches: PhraseMatch[] = []
  let anchored = false
  for (const {p, m} of scored) {
    let matched = 0
    let fresh = 0
    // A partial match through common words only ("add", "version") is no evidence of this card.
    // Met through the lexicon: each unit counts once, by the prompt's words that met it, so a word
    // already counted in a phrase of the other language is not counted again. As written: the terms.
    const units: [keys: string[], weight: number][] = m.via
      ? conceptCoverage(p, pv).hit.map(keys => [keys, 1])
      : p.units.filter(([t, w]) => w > 0 && holds(pv, t)).map(([t, w]) => [[t], w])
    // A partial match through common words only ("add", "version") is no evidence of this card, and
    // uses up no word that a telling phrase of the card counts.
    const telling = m.exact || !!m.via || units.some(([keys]) => keys.some(k => !isGeneric(k)))
    for (const [keys, w] of telling ? units : []) {
      matched += w
      if (!keys.every(k => used.has(k))) fresh += w
      for (const k of keys) used.add(k)
    }
    const score = round(matched ? (m.score * fresh) / matched : 0)
    if (score > 0) for (const [keys] of units) for (const k of keys) behind.add(k)
    matches.push({...m, score})
    if (admits(m)) strong += score
    else support += score
    if (admits(m) && score > 0 && anchors(p, pv)) anchored = true
  }
  const queryCoverage = shortQueryCoverage(doc, pv)
  const positive = Math.max(anchored ? positiveScore(strong, support) : 0, queryCoverage)
  let best: PhraseMatch | null = null
  const own = new Set(doc.phrases.flatMap(p => p.units.map(u => u[0])))
  for (const p of doc.ignores) {
    const m = nearMiss(p, pv, own)
    if (m.score > 0 && (!best || m.score > best.score)) best = m
  }
  const penalty = best?.score ?? 0
  if (queryCoverage > 0 && positive === queryCoverage) for (const [t, w] of pv.active) if (w > 0) behind.add(t)
  return {
    score: round(positive - penalty),
    positive: round(positive),
    penalty,
    matches,
    nearMiss: best,
    queryCoverage,
    terms: [...behind].sort(),
  }
}

/** A card's phrase evidence: its admitting phrases' scores, and its supporting ones' up to as much again. */
export const positiveScore = (strong: number, support: number): number => strong + Math.min(support, strong)

/**
 * Upper bound of positiveScore, from upper bounds of both sums (phraseScoreBound's, summed): it
 * rises with each, so it is the same formula.
 */
export const positiveBound = positiveScore

/**
 * Whether a phrase's match puts its card in play, as the index finds cards: a word, compound or
 * bigram of it in the prompt, a concept unit met, or a phrase made only of lone CJK characters.
 * Lone characters elsewhere only add to a match (部门署名 holds 部 and 署, not 部署).
 */
function anchors(p: Phrase, pv: PromptView): boolean {
  if (isLone(p)) return true
  if (p.units.some(([t, w]) => w >= 0.5 && holds(pv, t))) return true
  return !!p.concepts && conceptCoverage(p, pv).hit.length > 0
}

/** A query of at most three word-equivalents can be answered by any of the card's wording. */
const SHORT_QUERY = 3

export function isShortQuery(pv: PromptView): boolean {
  let total = 0
  for (const w of pv.active.values()) total += w
  return total > 0 && total <= SHORT_QUERY
}

/**
 * What a card's wording must hold for shortQueryCoverage to be above zero, as the index can check it
 * (its bound, beside it): false when the query is not short. `direct`: every term, when the card
 * holds every word as written; `translated`: per word of the query, terms of which the card holds
 * at least one for that word in some form (its own terms, its translations', and the first two
 * characters a Chinese form is posted under). Null for a way that cannot succeed.
 */
export interface ShortReach {
  direct: string[] | null
  translated: string[][] | null
}

export function shortReach(pv: PromptView): ShortReach | false {
  if (!isShortQuery(pv)) return false
  const terms = [...pv.active].filter(([, w]) => w > 0).map(([t]) => t)
  if (!terms.some(t => !isSingleCjk(t))) return {direct: null, translated: null}
  if (pv.words.length === 0) return {direct: terms, translated: null}
  const byKey = new Map<string, string[]>()
  // A lone CJK character counts only as a whole translation, as shortQueryCoverage has it.
  for (const [t, {key}] of pv.expanded)
    if (!isSingleCjk(t) || pv.expandedForms.has(t)) byKey.set(key, [...(byKey.get(key) ?? []), t])
  const posted = (x: string): string[] => [x, ...formTerms(x), ...(hasCjk(x) && x.length > 2 ? [x.slice(0, 2)] : [])]
  const translated: string[][] = []
  for (const w of pv.words) {
    // A word of no terms is held by every card (formTerms(w).every): it asks nothing.
    if (formTerms(w).length === 0) continue
    translated.push([...new Set([...posted(w), ...(byKey.get(w) ?? []).flatMap(posted)])])
  }
  return {direct: terms, translated}
}

function shortQueryCoverage(doc: MatchDoc, pv: PromptView): number {
  // Like the index, a query of single Chinese characters only ("锁") anchors nothing.
  if (!isShortQuery(pv) || ![...pv.active].some(([t, w]) => w > 0 && !isSingleCjk(t))) return 0
  const have = new Set<string>()
  for (const p of doc.phrases) for (const [t] of p.units) have.add(t)
  let direct = true
  for (const [t, w] of pv.active) if (w > 0 && !have.has(t)) direct = false
  if (direct) return 1
  // Across languages: every word of the query is a concept of the card, in some form.
  if (pv.words.length === 0) return 0
  const forms = new Set<string>()
  for (const p of doc.phrases) for (const [f] of p.concepts ?? []) for (const x of f.split('|')) forms.add(x)
  const translated = new Set<string>()
  // A lone CJK character counts only as a whole translation ("lock": 锁), not as part of one ("test": 测试's 试).
  for (const [t, {key}] of pv.expanded)
    if ((have.has(t) || forms.has(t)) && (!isSingleCjk(t) || pv.expandedForms.has(t))) translated.add(key)
  return pv.words.every(w => forms.has(w) || translated.has(w) || formTerms(w).every(t => have.has(t))) ? LEXICON : 0
}
