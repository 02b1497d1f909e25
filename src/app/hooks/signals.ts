import type {LedgerEvent} from '../../store/agents/local.js'
import type {PendingFacts} from '../../store/agents/hook-facts.js'
import type {HookSettings} from '../../recall/index.js'
import {HOOK_TEXT, type HookText} from '../../domain/messages/hooks.js'
import {speak, type StoreLanguage} from '../../domain/messages/language.js'

/**
 * The stop hook's signals (DESIGN "Hooks and agents"; seed 000's archive signal, seed 001's
 * .pending-fix): each names why it is due and the skill that handles it.
 */
export interface DueSignal {
  signal: 'archive' | 'review' | 'maintain' | 'enrich'
  why: string
  action: string
}

/** Events that show the session doing work worth remembering: prompts and edits. */
const CONTEXT_EVENTS = new Set(['prompt', 'edit'])
const HOUR = 3600 * 1000

/** What the stop hook's signals are decided from: the session and its ledger, the settings, and the store's facts. */
export interface SignalFacts {
  session: string
  events: readonly LedgerEvent[]
  settings: HookSettings
  now: Date
  /** The cards waiting for review (Stores.pendingFacts). */
  pending: PendingFacts
  /** Whether the .pending-fix marker asks for maintain. */
  pendingFix: boolean
  /** Active cards with no triggers, aliases or use_when (RecallIndex.bareCards). */
  bareCards: number
}

export function dueSignals(facts: SignalFacts): DueSignal[] {
  const {session, events, settings: s, now, pending} = facts
  const t = speak(HOOK_TEXT, s.language)
  const due: DueSignal[] = []
  const archive = archiveSignal(session, events, s, now)
  if (archive) due.push(archive)
  const ageDays = pending.oldest ? (now.getTime() - pending.oldest.getTime()) / (24 * HOUR) : 0
  if (pending.count >= s.signals.reviewMaxPending || (pending.count > 0 && ageDays >= s.signals.reviewMaxAgeDays)) {
    const why =
      pending.count >= s.signals.reviewMaxPending
        ? t.reviewMany(pending.count, s.signals.reviewMaxPending)
        : t.reviewOld(Math.floor(ageDays), s.signals.reviewMaxAgeDays)
    due.push({signal: 'review', why, action: t.reviewAction})
  }
  if (facts.pendingFix) due.push({signal: 'maintain', why: t.maintainWhy, action: t.maintainAction})
  const enrich = enrichSignal(facts, t)
  if (enrich) due.push(enrich)
  return due
}

/**
 * Due when the session edited files and either enough context events piled up since the last
 * proposal, or enough hours passed since it (since the first recorded event, when nothing was
 * ever proposed).
 */
function archiveSignal(session: string, events: readonly LedgerEvent[], s: HookSettings, now: Date): DueSignal | null {
  if (!events.some(e => e.event === 'edit' && e.session === session)) return null
  let anchor = -1
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].event === 'card_proposed') {
      anchor = i
      break
    }
  }
  const since = events.slice(anchor + 1)
  const count = since.filter(e => CONTEXT_EVENTS.has(e.event)).length
  const from = Date.parse(String((anchor >= 0 ? events[anchor] : events[0])?.ts ?? ''))
  const hours = Number.isNaN(from) ? 0 : (now.getTime() - from) / HOUR
  const byCount = count >= s.signals.archiveMinEvents
  const byTime = hours >= s.signals.archiveMinHours
  if (!byCount && !byTime) return null
  const t = speak(HOOK_TEXT, s.language)
  const why = byCount ? t.archiveEvents(count) : t.archiveHours(Math.floor(hours))
  return {signal: 'archive', why, action: t.archiveAction}
}

/** The ledger event the stop hook records when it raises the enrich signal, with the count it named. */
export const ENRICH_RAISED = 'enrich_raised'
/** After the enrich signal was raised, it waits this long unless more cards are bare. */
export const ENRICH_QUIET_DAYS = 7

/**
 * Due when the session edited files (a working session, as for archive) and at least enrichMinCards active recall cards
 * (core cards are in every session anyway) have none of the phrases a person or agent writes. Once raised it keeps
 * quiet for ENRICH_QUIET_DAYS, unless more cards are bare than it said: a user who chose not to enrich now is not
 * asked again at the end of every session.
 */
function enrichSignal(facts: SignalFacts, t: HookText): DueSignal | null {
  const min = facts.settings.signals.enrichMinCards
  const worked = facts.events.some(e => e.event === 'edit' && e.session === facts.session)
  const n = facts.bareCards
  if (!worked || min === 0 || n < min) return null
  const last = [...facts.events].reverse().find(e => e.event === ENRICH_RAISED)
  const at = Date.parse(String(last?.ts ?? ''))
  const quiet = !Number.isNaN(at) && facts.now.getTime() - at < ENRICH_QUIET_DAYS * 24 * HOUR
  if (last && quiet && n <= Number(last.count ?? 0)) return null
  return {signal: 'enrich', why: t.enrichWhy(n, min), action: t.enrichAction}
}

export function stopReason(due: readonly DueSignal[], language?: StoreLanguage): string {
  const t = speak(HOOK_TEXT, language)
  return [t.stopHead(due.length), ...due.map(d => t.stopLine(d.signal, d.why, d.action)), t.stopTail].join('\n')
}
