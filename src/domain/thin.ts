/**
 * Which recall fields a card lacks (cairn enrich's "thin"), from its phrases alone: the card file (domain/enrich.ts)
 * and the recall index's records (the stop hook's enrich signal) give the same answer. No zod, no YAML: the hooks load
 * it.
 */

/** What a card lacks: no triggers of a person's or agent's own, no aliases, no use_when, or no phrase in a language. */
export type Missing = 'triggers' | 'aliases' | 'use_when' | 'en' | 'zh'

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/

/** The card fields the recall phrases are in (a Card has them). */
export interface PhraseFields {
  recall: {triggers: readonly string[]; aliases: {en: readonly string[]; zh: readonly string[]}}
  criteria: {use_when: readonly string[]}
}

/** What the card lacks for recall; empty when its fields are rich enough. Derived triggers are cairn's guess, not enough. */
export function missingFields(card: PhraseFields): Missing[] {
  const {triggers, aliases} = card.recall
  return missingOf([
    ...triggers.map(text => ({field: 'triggers', text})),
    ...[...aliases.en, ...aliases.zh].map(text => ({field: 'aliases', text})),
    ...card.criteria.use_when.map(text => ({field: 'use_when', text})),
  ])
}

/**
 * What a card lacks, from its phrases by field (triggers, aliases, use_when; any other field is not counted): the
 * card as the recall index holds it says the same as the card file.
 */
export function missingOf(phrases: readonly {field: string; text: string}[]): Missing[] {
  const own = phrases.filter(p => p.field === 'triggers' || p.field === 'aliases' || p.field === 'use_when')
  const missing: Missing[] = []
  for (const field of ['triggers', 'aliases', 'use_when'] as const)
    if (!own.some(p => p.field === field)) missing.push(field)
  if (!own.some(p => !CJK.test(p.text))) missing.push('en')
  if (!own.some(p => CJK.test(p.text))) missing.push('zh')
  return missing
}

/** A card with none of the phrases a person or agent writes (triggers, aliases, use_when): only its title and cairn's guesses find it. */
export const isBare = (missing: readonly Missing[]): boolean =>
  missing.includes('triggers') && missing.includes('aliases') && missing.includes('use_when')
