import {getRule} from './card/sections.js'
import type {Card} from './card/schema.js'
import {HOOK_TEXT} from './messages/hooks.js'
import {speak, type StoreLanguage} from './messages/language.js'

/** The first ids of a list, then how many more: a notice names a few cards, never hundreds. */
export const someIds = (ids: readonly string[], shown = 8, language?: StoreLanguage): string =>
  ids.length > shown
    ? speak(HOOK_TEXT, language).someIds(ids.slice(0, shown).join(', '), ids.length - shown)
    : ids.join(', ')

/** The text a load: core card contributes to session start; its length counts against core_budget. */
export function coreText(card: Pick<Card, 'id' | 'title' | 'summary' | 'body'>): string {
  return coreEntry(card.id, card.title, getRule(card.body) ?? card.summary)
}

/** coreText of a card not yet written (an import's proposal): its id, title, and rule or summary. */
export const coreEntry = (id: string, title: string, rule: string): string => `### ${title} (${id})\n${rule}\n`

/** Characters, not bytes or UTF-16 units: a Chinese card is not penalised threefold. */
export const charCount = (text: string): number => [...text].length

export interface CoreSelection<T> {
  shown: T[]
  /** The cards after the first that did not fit, in the same order. */
  omitted: T[]
  /** Characters of the shown cards' core text. */
  chars: number
}

/**
 * The load: core cards a session sees, as session start and the agents-md export pick them: in the
 * order given (by id; the hooks put project cards first), each added while its core text still
 * fits the budget. The first card that does not fit ends the list, so "N left out" means the last
 * N in that order.
 */
export function selectCore<T>(cards: readonly T[], budget: number, textOf: (card: T) => string): CoreSelection<T> {
  let chars = 0
  let i = 0
  for (; i < cards.length; i++) {
    const n = charCount(textOf(cards[i]))
    if (chars + n > budget) break
    chars += n
  }
  return {shown: cards.slice(0, i), omitted: cards.slice(i), chars}
}

/** Cards in id order, the order selectCore expects when they come from one store. */
export const byId = <T extends {id: string}>(cards: readonly T[]): T[] =>
  [...cards].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
