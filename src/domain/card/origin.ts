import type {Card} from './schema.js'

/**
 * Who proposed a card and from where, in one line (review, the pull request comment), or null for a card from before
 * cairn recorded it: "alice · claude session 3f2a… · via cli · 2026-12-03T07:00:00Z".
 */
export function originLine(card: Pick<Card, 'provenance' | 'created'>, language: 'en' | 'zh-CN' = 'en'): string | null {
  const {proposed_by, client, session, via} = card.provenance
  if (proposed_by === null && client === null && session === null && via === null) return null
  const l = LABELS[language]
  const from = [client, session && `${l.session} ${session}`].filter(Boolean).join(' ')
  return [proposed_by ?? l.unknown, from, via && `${l.via} ${via}`, card.created].filter(Boolean).join(' · ')
}

const LABELS = {
  en: {session: 'session', via: 'via', unknown: 'unknown'},
  'zh-CN': {session: '会话', via: '经由', unknown: '未知'},
}

/** The card's provenance for `cairn show --section provenance`: who proposed it, from where, who approved it. */
export function provenanceText(card: Omit<Card, 'body'>): string {
  const p = card.provenance
  const lines = [
    `proposed_by: ${p.proposed_by ?? '(not recorded)'}`,
    `client: ${p.client ?? '(not recorded)'}`,
    `session: ${p.session ?? '(not recorded)'}`,
    `via: ${p.via ?? '(not recorded)'}`,
    `created: ${card.created ?? '(not recorded)'}`,
    `approved: ${card.approved ? `${card.approved.by} at ${card.approved.at}` : 'not yet'}`,
  ]
  if (p.source_sessions.length) lines.push(`source_sessions: ${p.source_sessions.join(', ')}`)
  if (p.proposed_reason) lines.push(`proposed_reason: ${p.proposed_reason}`)
  return lines.join('\n')
}
