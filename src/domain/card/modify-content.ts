import type {z} from '../vendor/zod.js'
import {CJK} from '../derive-phrases.js'
import type {Issue} from '../errors.js'
import type {Patch} from './format.js'
import {criteriaSchema, frontmatterSchema, recallSchema, text, type Card} from './schema.js'
import {fence, getRule, getSection, headingLanguage, renderCriteria, setSection} from './sections.js'

/**
 * What `review modify` changes in a card's text: title, summary, rule, use_when, ignore_when, aliases, policy and
 * risk. Each value is checked by the card schema's own rule for that field; the rule lives in the body's Rule section.
 */

export const CONTENT_FIELDS = [
  'title',
  'summary',
  'rule',
  'use_when',
  'ignore_when',
  'aliases',
  'policy',
  'risk',
] as const
export type ContentField = (typeof CONTENT_FIELDS)[number]

export interface ContentPlan {
  patches: Patch[]
  issues: Issue[]
  /** The new body, from the card as it is when written (read inside the transaction's lock); none when unchanged. */
  body?: (current: Card) => string
}

/** What to do when the schema gives no fix of its own. */
const FIX: Record<ContentField, string> = {
  title: 'give a short title',
  summary: 'give one sentence: when it applies, the common wrong turn, and the right action',
  rule: 'give the full reusable rule',
  use_when: 'give comma-separated phrases, such as use_when=installing hooks,merging config',
  ignore_when: 'give comma-separated phrases, such as ignore_when=reading docs only',
  aliases: 'give comma-separated names, in English or Chinese',
  policy: 'use must, should or may',
  risk: 'use high, medium or low',
}

const ENUMS = {policy: recallSchema.shape.policy.unwrap(), risk: recallSchema.shape.risk.unwrap()}
const LISTS = {use_when: criteriaSchema.shape.use_when, ignore_when: criteriaSchema.shape.ignore_when}

/** A value shown in a message: quoted, with control characters escaped, and cut when long. */
const shown = (value: string): string =>
  JSON.stringify([...value].length > 60 ? `${[...value].slice(0, 59).join('')}…` : value)

/** Phrases split at commas; between Chinese phrases a Chinese comma separates too. */
const phrases = (value: string): string[] =>
  value
    .split(/[,，]/)
    .map(p => p.trim())
    .filter(Boolean)

/** The value as the schema takes it, or the issue naming the field, the value and the fix. */
function check<T>(
  field: ContentField,
  schema: z.ZodType<T>,
  value: unknown,
  given: string,
  file: string,
): {value: T} | {issue: Issue} {
  const r = schema.safeParse(value)
  if (r.success) return {value: r.data}
  const first = r.error.issues[0] as z.core.$ZodIssue & {params?: {fix?: string}}
  // An item of a list is named by its place: use_when[1].
  const where = first.path.map(p => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
  const item = first.path.reduce<unknown>((v, p) => (v as Record<PropertyKey, unknown> | undefined)?.[p], value)
  const message = `${shown(typeof item === 'string' ? item : given)} ${first.message}`
  return {issue: {file, field: `${field}${where}`, message, fix: first.params?.fix ?? FIX[field]}}
}

export function planContent(card: Card, sets: ReadonlyMap<string, string>, file: string): ContentPlan {
  const patches: Patch[] = []
  const issues: Issue[] = []
  const take = <T>(field: ContentField, schema: z.ZodType<T>, value: unknown, path: string[]) => {
    const c = check(field, schema, value, sets.get(field)!, file)
    if ('issue' in c) issues.push(c.issue)
    else patches.push({path, value: c.value})
    return 'value' in c
  }
  for (const field of ['title', 'summary'] as const) {
    const v = sets.get(field)
    if (v !== undefined) take(field, frontmatterSchema.shape[field], v, [field])
  }
  for (const field of ['policy', 'risk'] as const) {
    const v = sets.get(field)
    if (v === undefined) continue
    if (ENUMS[field].safeParse(v).success) patches.push({path: ['recall', field], value: v})
    else issues.push({file, field, message: `${shown(v)} is not a ${field}`, fix: FIX[field]})
  }
  for (const field of ['use_when', 'ignore_when'] as const) {
    const v = sets.get(field)
    if (v !== undefined) take(field, LISTS[field], phrases(v), ['criteria', field])
  }
  const aliases = sets.get('aliases')
  if (aliases !== undefined) {
    const list = phrases(aliases)
    const byLanguage = {en: list.filter(a => !CJK.test(a)), zh: list.filter(a => CJK.test(a))}
    const c = check('aliases', recallSchema.shape.aliases, byLanguage, aliases, file)
    if ('issue' in c) issues.push(c.issue)
    // One list per language, each patched on its own, so both stay one-line lists as cairn writes them.
    else
      patches.push(
        {path: ['recall', 'aliases', 'en'], value: c.value.en},
        {path: ['recall', 'aliases', 'zh'], value: c.value.zh},
      )
  }
  const rule = sets.get('rule')
  // The rule's own check; a value with a line break stays as given (a rule is often several lines).
  if (rule !== undefined) {
    const c = check('rule', text, rule, rule, file)
    if ('issue' in c) issues.push(c.issue)
  }
  const touchesBody = ['summary', 'rule', 'use_when', 'ignore_when', 'policy', 'risk'].some(f => sets.has(f))
  if (issues.length || !touchesBody) return {patches, issues}
  return {patches, issues, body: current => rewriteBody(current, sets)}
}

/**
 * The body after a modify: the Rule section holds a new rule. Text cairn wrote from the frontmatter follows it: a
 * Problem section or rule that repeats the old summary takes the new one, and a Criteria section as cairn renders it
 * is rendered again. Text a person wrote differently is left as it is.
 */
export function rewriteBody(card: Card, sets: ReadonlyMap<string, string>): string {
  const language = headingLanguage(card.body) ?? card.language
  let body = card.body
  const summary = sets.get('summary')
  const repeatsSummary = (s: string | undefined) => s !== undefined && s.trim() === card.summary.trim()
  const rule = sets.get('rule') ?? (summary !== undefined && repeatsSummary(getRule(body)) ? summary : undefined)
  if (rule !== undefined) body = setSection(body, 'rule', fence(rule.replace(/\s+$/, '')), language)
  if (summary !== undefined && repeatsSummary(getSection(body, 'problem')))
    body = setSection(body, 'problem', summary, language)
  const was = {
    use_when: card.criteria.use_when,
    ignore_when: card.criteria.ignore_when,
    policy: card.recall.policy,
    risk: card.recall.risk,
  }
  const now = {
    ...was,
    ...(sets.has('use_when') ? {use_when: phrases(sets.get('use_when')!)} : {}),
    ...(sets.has('ignore_when') ? {ignore_when: phrases(sets.get('ignore_when')!)} : {}),
    ...(sets.has('policy') ? {policy: sets.get('policy')! as Card['recall']['policy']} : {}),
    ...(sets.has('risk') ? {risk: sets.get('risk')! as Card['recall']['risk']} : {}),
  }
  const criteria = getSection(body, 'criteria')
  if (criteria !== undefined && criteria === renderCriteria(was, language).trim())
    body = setSection(body, 'criteria', renderCriteria(now, language), language)
  return body
}
