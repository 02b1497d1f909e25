import type {LedgerEvent} from '../../store/agents/local.js'
import type {PendingFacts} from '../../store/agents/hook-facts.js'
import type {HookSettings} from '../../recall/index.js'

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
  const due: DueSignal[] = []
  const archive = archiveSignal(session, events, s, now)
  if (archive) due.push(archive)
  const ageDays = pending.oldest ? (now.getTime() - pending.oldest.getTime()) / (24 * HOUR) : 0
  if (pending.count >= s.signals.reviewMaxPending || (pending.count > 0 && ageDays >= s.signals.reviewMaxAgeDays)) {
    const why =
      pending.count >= s.signals.reviewMaxPending
        ? `${pending.count} pending cards wait for review (the limit is ${s.signals.reviewMaxPending})`
        : `the oldest pending card has waited ${Math.floor(ageDays)} days (the limit is ${s.signals.reviewMaxAgeDays})`
    due.push({signal: 'review', why, action: 'run the cairn-review skill (`cairn review --format text`)'})
  }
  if (facts.pendingFix) {
    due.push({
      signal: 'maintain',
      why: 'the library needs upkeep (.cairn/.local/.pending-fix)',
      action: 'run `cairn maintain --dry-run`, then `cairn maintain --apply` (the cairn-review skill covers it)',
    })
  }
  const enrich = enrichSignal(facts)
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
  const why = byCount
    ? `${count} prompts and edits since the last proposed card`
    : `${Math.floor(hours)} hours since the last proposed card`
  return {
    signal: 'archive',
    why,
    action: 'run the cairn-archive skill: it reads the session digests and proposes cards with `cairn propose`',
  }
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
function enrichSignal(facts: SignalFacts): DueSignal | null {
  const min = facts.settings.signals.enrichMinCards
  const worked = facts.events.some(e => e.event === 'edit' && e.session === facts.session)
  const n = facts.bareCards
  if (!worked || min === 0 || n < min) return null
  const last = [...facts.events].reverse().find(e => e.event === ENRICH_RAISED)
  const at = Date.parse(String(last?.ts ?? ''))
  const quiet = !Number.isNaN(at) && facts.now.getTime() - at < ENRICH_QUIET_DAYS * 24 * HOUR
  if (last && quiet && n <= Number(last.count ?? 0)) return null
  return {
    signal: 'enrich',
    why: `${n} recall card${n === 1 ? ' has' : 's have'} no triggers, aliases or use_when (the limit is ${min}), so prompts in people's own words miss ${n === 1 ? 'it' : 'them'}`,
    action:
      'run the cairn-enrich skill (`cairn enrich --json`): it writes their phrases in one commit the team reviews',
  }
}

export function stopReason(due: readonly DueSignal[]): string {
  const lines = due.map(d => `- ${d.signal}: ${d.why}; ${d.action}.`)
  return [
    `cairn: before you finish, ${due.length === 1 ? 'one thing is' : `${due.length} things are`} due:`,
    ...lines,
    'If none of it is worth doing now, say so in one line and stop.',
  ].join('\n')
}
