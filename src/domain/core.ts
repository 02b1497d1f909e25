import {getRule} from './card/sections.js'
import type {Card} from './card/schema.js'

/** The text a load: core card contributes to session start; its length counts against core_budget. */
export function coreText(card: Pick<Card, 'id' | 'title' | 'summary' | 'body'>): string {
  return `### ${card.title} (${card.id})\n${getRule(card.body) ?? card.summary}\n`
}

/** Characters, not bytes or UTF-16 units: a Chinese card is not penalised threefold. */
export const charCount = (text: string): number => [...text].length
