import type {StoreKind} from './org.js'
import type {Receipt} from './receipts.js'

/** The why of a card listed in session start's catalog: shown among all the others, not chosen for the task. */
export const CATALOG_WHY = 'catalog'

/** One card's injections, as `cairn stats` shows them and maintain plans with them. */
export interface CardStat {
  id: string
  store: StoreKind
  /** Hook calls that injected it. */
  injections: number
  /** Of those, the ones that injected it for itself (a prompt or path match, a core load): all but catalog lines. */
  matched: number
  /** Distinct sessions it was injected in. */
  sessions: number
  /** The latest injection. */
  last: string
  /** The latest matched injection; null when it was only ever a catalog line. */
  last_matched: string | null
  /** Characters of its entries. */
  chars: number
  /** Its characters over every character the hooks injected, from 0 to 1. */
  share: number
}

/** One session's injections. */
export interface SessionStat {
  session: string
  client: string
  injections: number
  /** Distinct cards. */
  cards: number
  chars: number
  first: string
  last: string
}

export interface ReceiptStats {
  receipts: number
  /** The first and the last receipt counted; null when there is none. */
  from: string | null
  to: string | null
  /** Characters injected in all. */
  chars: number
  /** Most injected first. */
  cards: CardStat[]
  /** Latest first. */
  sessions: SessionStat[]
}

const later = (a: string, b: string): string => (b > a ? b : a)

/** The receipts summed per card and per session; `home` is the store they were read from. */
export function receiptStats(receipts: readonly Receipt[], home: 'project' | 'personal'): ReceiptStats {
  const cards = new Map<string, CardStat & {seen: Set<string>}>()
  const sessions = new Map<string, SessionStat & {seen: Set<string>}>()
  let chars = 0
  for (const r of receipts) {
    chars += r.chars
    let s = sessions.get(r.session)
    if (!s) sessions.set(r.session, (s = {...emptySession(r), seen: new Set<string>()}))
    s.injections++
    s.chars += r.chars
    s.first = r.ts < s.first ? r.ts : s.first
    s.last = later(s.last, r.ts)
    for (const c of r.cards) {
      s.seen.add(c.id)
      const store = c.store ?? home
      const key = `${store}:${c.id}`
      const stat = cards.get(key) ?? {...emptyStat(c.id, store, r.ts), seen: new Set<string>()}
      const matched = c.why !== CATALOG_WHY
      stat.injections++
      stat.chars += c.chars
      stat.last = later(stat.last, r.ts)
      if (matched) {
        stat.matched++
        stat.last_matched = stat.last_matched ? later(stat.last_matched, r.ts) : r.ts
      }
      stat.seen.add(r.session)
      cards.set(key, stat)
    }
  }
  const share = (n: number) => (chars ? Math.round((n / chars) * 10_000) / 10_000 : 0)
  return {
    receipts: receipts.length,
    from: receipts.length ? receipts.reduce((a, r) => (r.ts < a ? r.ts : a), receipts[0].ts) : null,
    to: receipts.length ? receipts.reduce((a, r) => later(a, r.ts), receipts[0].ts) : null,
    chars,
    cards: [...cards.values()]
      .map(({seen, ...c}) => ({...c, sessions: seen.size, share: share(c.chars)}))
      .sort((a, b) => b.injections - a.injections || b.chars - a.chars || a.id.localeCompare(b.id)),
    sessions: [...sessions.values()]
      .map(({seen, ...s}) => ({...s, cards: seen.size}))
      .sort((a, b) => b.last.localeCompare(a.last) || a.session.localeCompare(b.session)),
  }
}

const emptySession = (r: Receipt): SessionStat => ({
  session: r.session,
  client: r.client,
  injections: 0,
  cards: 0,
  chars: 0,
  first: r.ts,
  last: r.ts,
})

const emptyStat = (id: string, store: CardStat['store'], ts: string): CardStat => ({
  id,
  store,
  injections: 0,
  matched: 0,
  sessions: 0,
  last: ts,
  last_matched: null,
  chars: 0,
  share: 0,
})
