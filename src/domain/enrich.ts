import {getRule} from './card/sections.js'
import {type Card, controlCharProblem} from './card/schema.js'
import {CJK} from './derive-phrases.js'
import {GENERIC_EN, GENERIC_ZH, STOP_EN, STOP_ZH} from './derive-words.js'
import type {Issue} from './errors.js'
import {normText} from './text.js'
import {type Missing, missingFields} from './thin.js'
import type {StoreKind} from './org.js'

export type {Missing}
export {missingFields}

/**
 * `cairn enrich`: the recall fields an agent writes for a card (DESIGN "Recall fields are written by the agent").
 * A lexical matcher finds what prompts say, so the words a colleague would type are written at write time, by the
 * agent the user already runs. This module says which cards are thin, what brief the agent gets, and checks and
 * merges the phrases it gives back. Pure: the app reads the cards and writes them in one transaction.
 */

/** The phrase fields an entry may give, in the order a card file holds them. */
export const ENRICH_FIELDS = ['triggers', 'aliases.en', 'aliases.zh', 'use_when', 'ignore_when'] as const
export type EnrichField = (typeof ENRICH_FIELDS)[number]

/** At most this many phrases per field once merged: more dilutes a card's evidence and slows nothing but review. */
export const MAX_PHRASES: Readonly<Record<EnrichField, number>> = {
  triggers: 16,
  'aliases.en': 12,
  'aliases.zh': 12,
  use_when: 8,
  ignore_when: 8,
}
/** A phrase is what a prompt says in passing, not a paragraph. */
export const MAX_PHRASE_CHARS = 120
/** The rule text a brief carries: enough to see what the card is about. */
const BRIEF_RULE_CHARS = 600

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The rules an agent follows when it writes recall phrases; the cairn-enrich skill says the same. */
export const ENRICH_RULES: readonly string[] = [
  'Write what a colleague would type when this card applies: the situation, the symptom or the task, often without naming the topic ("CI is green but the deploy used an old lockfile").',
  'Both languages, whatever language the card is in: triggers, use_when and ignore_when take either language; aliases.en takes English only, aliases.zh Chinese only (Chinese cut into words a person types, never a whole clause).',
  'triggers: 3 to 8 new phrases of 2 to 8 words (Chinese: 3 to 12 characters); aliases: other names for the same thing; use_when: 1 to 4 situations; ignore_when: exact phrases of two words or more, of prompts that name the topic but ask for something else (explain it, rename it, docs only): one found anywhere in a prompt rules the card out.',
  'No lone common word ("test", "config", "文件") as a phrase, no repeat of the title, no secret, no instruction to an agent. A card holds at most 16 triggers, 12 aliases per language, 8 use_when and 8 ignore_when (derived triggers aside).',
]

/** The phrases a card has in one field. */
export function phrasesOf(card: Card, field: EnrichField): string[] {
  switch (field) {
    case 'triggers':
      return card.recall.triggers
    case 'aliases.en':
      return card.recall.aliases.en
    case 'aliases.zh':
      return card.recall.aliases.zh
    case 'use_when':
      return card.criteria.use_when
    case 'ignore_when':
      return card.criteria.ignore_when
  }
}

export interface EnrichBrief {
  id: string
  store: StoreKind
  path: string
  status: 'active' | 'pending'
  type: string
  language: string
  title: string
  summary: string
  /** The rule, cut to a few hundred characters. */
  rule: string
  has: {
    triggers: string[]
    derived_triggers: string[]
    aliases: {en: string[]; zh: string[]}
    use_when: string[]
    ignore_when: string[]
  }
  missing: Missing[]
}

export function briefOf(card: Card, place: {store: StoreKind; path: string; pending: boolean}): EnrichBrief {
  const rule = (getRule(card.body) ?? '').trim()
  return {
    id: card.id,
    store: place.store,
    path: place.path,
    status: place.pending ? 'pending' : 'active',
    type: card.type,
    language: card.language,
    title: card.title,
    summary: card.summary,
    rule: rule.length > BRIEF_RULE_CHARS ? `${rule.slice(0, BRIEF_RULE_CHARS).trimEnd()}…` : rule,
    has: {
      triggers: card.recall.triggers,
      derived_triggers: card.recall.derived_triggers,
      aliases: card.recall.aliases,
      use_when: card.criteria.use_when,
      ignore_when: card.criteria.ignore_when,
    },
    missing: missingFields(card),
  }
}

/** One card's phrases, as `cairn enrich --apply` takes them. */
export interface EnrichEntry {
  id: string
  /** Its place in the array given, for messages. */
  at: number
  phrases: Partial<Record<EnrichField, string[]>>
}

const ENTRY_KEYS = new Set(['id', 'triggers', 'aliases', 'use_when', 'ignore_when'])
const ENTRY_FIX = 'give {"id", "triggers": [], "aliases": {"en": [], "zh": []}, "use_when": [], "ignore_when": []}'

/** The entries of an --apply file, each checked; every problem is reported at once, naming the entry's id and field. */
export function parseEntries(raw: unknown, file: string): {entries: EnrichEntry[]; issues: Issue[]} {
  const issues: Issue[] = []
  const fail = (field: string, message: string, fix: string) => issues.push({file, field, message, fix})
  if (!Array.isArray(raw) || raw.length === 0) {
    fail('(root)', 'must be a non-empty array of entries', ENTRY_FIX)
    return {entries: [], issues}
  }
  const entries: EnrichEntry[] = []
  const seen = new Set<string>()
  raw.forEach((item, i) => {
    const entry = parseEntry(item, i, fail)
    if (!entry) return
    if (seen.has(entry.id))
      fail(`[${i}].id`, `"${entry.id}" is given twice`, 'give each card once, with all its phrases')
    seen.add(entry.id)
    entries.push(entry)
  })
  return {entries, issues}
}

type Fail = (field: string, message: string, fix: string) => void

function parseEntry(item: unknown, index: number, fail: Fail): EnrichEntry | null {
  const at = `[${index}]`
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    fail(at, 'must be an object', ENTRY_FIX)
    return null
  }
  const obj = item as Record<string, unknown>
  const id = typeof obj.id === 'string' && obj.id.trim() ? obj.id.trim() : null
  if (!id)
    fail(
      `${at}.id`,
      obj.id === undefined || obj.id === ''
        ? 'is required: the id of the card'
        : 'must be a string: the id of the card',
      'give the card\'s id, as "cairn enrich --json" lists it',
    )
  const label = id ? `${at} (${id})` : at
  for (const key of Object.keys(obj))
    if (!ENTRY_KEYS.has(key)) fail(`${label}.${key}`, 'is not a field enrich takes', ENTRY_FIX)
  const phrases: EnrichEntry['phrases'] = {}
  const take = (field: EnrichField, value: unknown) => {
    if (value === undefined) return
    const list = phraseList(value, `${label}.${field}`, field, fail)
    if (list) phrases[field] = list
  }
  take('triggers', obj.triggers)
  if (obj.aliases !== undefined) {
    const a = obj.aliases
    if (a === null || typeof a !== 'object' || Array.isArray(a)) {
      fail(`${label}.aliases`, 'must be an object with "en" and "zh" lists', 'give {"en": [...], "zh": [...]}')
    } else {
      for (const key of Object.keys(a))
        if (key !== 'en' && key !== 'zh')
          fail(`${label}.aliases.${key}`, 'is not a language enrich takes', 'give aliases under "en" and "zh"')
      take('aliases.en', (a as Record<string, unknown>).en)
      take('aliases.zh', (a as Record<string, unknown>).zh)
    }
  }
  take('use_when', obj.use_when)
  take('ignore_when', obj.ignore_when)
  const given = (v: unknown) => Array.isArray(v) && v.length > 0
  const aliases = (obj.aliases ?? {}) as Record<string, unknown>
  const none = ![obj.triggers, obj.use_when, obj.ignore_when, aliases.en, aliases.zh].some(given)
  if (id && none)
    fail(label, 'gives no phrase', 'give at least one phrase in triggers, aliases, use_when or ignore_when')
  return id ? {id, at: index, phrases} : null
}

function phraseList(value: unknown, at: string, field: EnrichField, fail: Fail): string[] | null {
  if (!Array.isArray(value)) {
    fail(at, 'must be a list of phrases', `give ${field} as ["a phrase", "another phrase"]`)
    return null
  }
  const out: string[] = []
  value.forEach((v, i) => {
    const problem = phraseProblem(v, field)
    if (problem) fail(`${at}[${i}]`, problem.message, problem.fix)
    else out.push((v as string).replace(/\s+/g, ' ').trim())
  })
  return out
}

/** Why a phrase cannot go in this field, or null. */
export function phraseProblem(value: unknown, field: EnrichField): {message: string; fix: string} | null {
  if (typeof value !== 'string') return {message: 'must be a string', fix: 'give each phrase as text'}
  const p = value.replace(/\s+/g, ' ').trim()
  if (!p) return {message: 'is empty', fix: 'remove it, or write the phrase'}
  const control = controlCharProblem(value.replace(/[\t\r\n]/g, ' '))
  if (control) return {message: control, fix: 'remove it'}
  if (LONE_SURROGATE.test(value))
    return {message: 'holds half of a UTF-16 pair (a lone surrogate), no character', fix: 'remove it'}
  // Characters as a person counts them: an emoji or a rare CJK character is one, not two UTF-16 units.
  const chars = [...p].length
  if (chars > MAX_PHRASE_CHARS)
    return {
      message: `is ${chars} characters; a phrase is at most ${MAX_PHRASE_CHARS}`,
      fix: 'cut it to the words a prompt would say',
    }
  if (field === 'aliases.en' && CJK.test(p))
    return {message: 'is Chinese, under aliases.en', fix: 'put it under aliases.zh'}
  if (field === 'aliases.zh' && !CJK.test(p))
    return {message: 'has no Chinese, under aliases.zh', fix: 'put it under aliases.en, or write it in Chinese'}
  if (isCommonWord(p))
    return {
      message: `"${p}" is one common word, which a prompt about anything holds`,
      fix: 'write the phrase a colleague would say, of two words or more',
    }
  // An ignore_when phrase anywhere in a prompt rules the card out: one word would for every prompt that names it.
  if (field === 'ignore_when' && wordCount(p) < 2)
    return {
      message: `"${p}" is one word: every prompt that says it would rule the card out`,
      fix: 'write the narrow request that does not need the card ("explain what a lockfile is", "只改文档里的链接")',
    }
  return null
}

const CJK_RUNS = new RegExp(`${CJK.source}+`, 'g')

/**
 * Words in a phrase, roughly: each Latin word or number, and a Chinese run as one word up to three characters
 * (改文档, 锁文件) or two from four on (解释变基原理); "只改 README" is two.
 */
function wordCount(phrase: string): number {
  const latin = phrase.match(/[\p{L}\p{N}][\p{L}\p{N}._-]*/gu)?.filter(w => !CJK.test(w)).length ?? 0
  const cjk = (phrase.match(CJK_RUNS) ?? []).reduce((n, run) => n + (run.length >= 4 ? 2 : 1), 0)
  return latin + cjk
}

/** One word too common to recall anything by: a function word, a generic software word, or one Chinese character. */
export function isCommonWord(phrase: string): boolean {
  const p = normText(phrase)
  if (CJK.test(p)) return [...p].length === 1 || STOP_ZH.has(p) || GENERIC_ZH.has(p)
  return !/\s/.test(p) && (STOP_EN.has(p) || GENERIC_EN.has(p) || p.length < 2)
}

/**
 * The card's fields once an entry is applied: its phrases added after the card's own, repeats (by normalised text)
 * dropped; with `replace`, each field the entry gives is replaced instead. Only changed fields are returned.
 */
export function mergePhrases(
  card: Card,
  entry: EnrichEntry,
  replace: boolean,
): {changed: Partial<Record<EnrichField, string[]>>; issues: {field: EnrichField; message: string; fix: string}[]} {
  const changed: Partial<Record<EnrichField, string[]>> = {}
  const issues: {field: EnrichField; message: string; fix: string}[] = []
  for (const field of ENRICH_FIELDS) {
    const given = entry.phrases[field]
    if (!given) continue
    const own = phrasesOf(card, field)
    const merged: string[] = []
    const seen = new Set<string>()
    for (const p of replace ? given : [...own, ...given]) {
      if (seen.has(normText(p))) continue
      seen.add(normText(p))
      merged.push(p)
    }
    if (merged.length > MAX_PHRASES[field])
      issues.push({
        field,
        message: `would hold ${merged.length} phrases; at most ${MAX_PHRASES[field]}`,
        fix: replace ? 'give fewer phrases' : 'give fewer, or replace the field with --replace',
      })
    else if (merged.length !== own.length || merged.some((p, i) => p !== own[i])) changed[field] = merged
  }
  return {changed, issues}
}

/** Where a field sits in a card's frontmatter, for patchCard. */
export const fieldPath = (field: EnrichField): string[] =>
  field === 'use_when' || field === 'ignore_when' ? ['criteria', field] : ['recall', ...field.split('.')]

/** The recall phrases one field gained and lost, by normalised text. */
export interface FieldChange {
  field: EnrichField
  added: string[]
  removed: string[]
}

/** What changed in a card's recall phrases between two versions of it: the fields that changed, in card order. */
export function recallChanges(before: Card, after: Card): FieldChange[] {
  const out: FieldChange[] = []
  for (const field of ENRICH_FIELDS) {
    const [was, is] = [phrasesOf(before, field), phrasesOf(after, field)]
    const [wasKeys, isKeys] = [new Set(was.map(normText)), new Set(is.map(normText))]
    const added = is.filter(p => !wasKeys.has(normText(p)))
    const removed = was.filter(p => !isKeys.has(normText(p)))
    if (added.length || removed.length) out.push({field, added, removed})
  }
  return out
}
