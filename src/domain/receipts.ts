import type {StoreKind} from './org.js'
import {charCount} from './core.js'
import {normalizeTimestamp} from './board/time.js'

/**
 * Receipts (DESIGN: Trust and receipts). Every hook call that puts cards in front of an agent leaves one short JSON
 * line in .local/receipts.jsonl: when, the session and client, the event, each card with why it was chosen and the
 * characters its entry took, and the characters the hook added in all. `cairn receipts` lists them, `cairn stats`
 * sums them (receipt-stats.ts) and maintain plans with the sums. Pure and zod-free: the hooks load it.
 */

export interface ReceiptCard {
  id: string
  /** Why it was injected, in a few words: `trigger "flaky login test"`, `path db/migrations/**`, `core`, `catalog`. */
  why: string
  /** Characters (code points) of the card's entry in what the client was given. */
  chars: number
  /**
   * Set on a card of another store in the project store's receipts: a personal card (maintain counts it in the
   * personal store), or an org layer's (read-only: maintain never plans for it).
   */
  store?: 'personal' | 'org'
}

export interface Receipt {
  /** RFC 3339, seconds. */
  ts: string
  /** The client's session id ('' when its payload had none). */
  session: string
  client: string
  event: string
  cards: ReceiptCard[]
  /** Characters the hook added in all: the cards' entries, their headings and any notice beside them. */
  chars: number
  /** Cards left off the line to keep it short (a long catalog): counted, not named. */
  more?: number
}

/** A card as a hook's answer carries it: the text of its entry there, so the receipt sees whether it was printed. */
export interface CardEntry {
  id: string
  store: StoreKind
  why: string
  text: string
}

/** A card the client was given, and the store it comes from. */
export interface PrintedCard {
  id: string
  why: string
  chars: number
  home: StoreKind
}

/** A why longer than this is cut: it is a reason in a few words, not the card. */
export const WHY_CHARS = 80
/** A session id longer than this is cut (clients use UUIDs). */
const SESSION_CHARS = 128
/** One receipt line at most, so an append stays one small write (a session start's catalog may list dozens). */
export const MAX_RECEIPT_BYTES = 4096

export const clipText = (text: string, max: number): string => {
  const chars = [...text.replace(/\s+/g, ' ').trim()]
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`
}

/**
 * The cards the client was given, with the characters of each entry: an entry counts when its first line is in the
 * printed text, and its characters are as much of it as was printed there (a cut to the client's size limit keeps
 * whole lines). A card in two parts of one answer (a light index and a path card) is one card, its sizes added.
 */
export function printedCards(entries: readonly CardEntry[], printed: string): PrintedCard[] {
  const out = new Map<string, PrintedCard>()
  for (const e of entries) {
    const text = e.text.trimEnd()
    const head = text.split('\n', 1)[0]
    const at = head ? printed.indexOf(head) : -1
    if (at < 0) continue
    let n = head.length
    while (n < text.length && printed[at + n] === text[n]) n++
    const chars = charCount(text.slice(0, n))
    const seen = out.get(e.id)
    if (seen) {
      seen.chars += chars
      if (!seen.why.includes(e.why)) seen.why = clipText(`${seen.why}; ${e.why}`, WHY_CHARS)
    } else out.set(e.id, {id: e.id, why: clipText(e.why, WHY_CHARS), chars, home: e.store})
  }
  return [...out.values()]
}

/** The receipt as one line under MAX_RECEIPT_BYTES: past it, cards go from the end and `more` counts them. */
export function receiptLine(r: Receipt): string {
  const receipt = {...r, session: r.session.slice(0, SESSION_CHARS)}
  const whole = JSON.stringify(receipt)
  if (Buffer.byteLength(whole) < MAX_RECEIPT_BYTES) return `${whole}\n`
  const bare = Buffer.byteLength(JSON.stringify({...receipt, cards: [], more: r.cards.length}))
  let size = bare
  let kept = 0
  for (const c of r.cards) {
    const add = Buffer.byteLength(JSON.stringify(c)) + (kept ? 1 : 0)
    if (size + add >= MAX_RECEIPT_BYTES) break
    size += add
    kept++
  }
  return `${JSON.stringify({...receipt, cards: r.cards.slice(0, kept), more: r.cards.length - kept + (r.more ?? 0)})}\n`
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0

/** A receipt line's object as a Receipt, or null when it is not one (another tool's line, a hand edit). */
export function asReceipt(v: unknown): Receipt | null {
  if (!v || typeof v !== 'object') return null
  const o = v as Record<string, unknown>
  if (typeof o.ts !== 'string' || Number.isNaN(Date.parse(o.ts))) return null
  if (typeof o.session !== 'string' || typeof o.client !== 'string' || typeof o.event !== 'string') return null
  if (!Array.isArray(o.cards) || !isCount(o.chars)) return null
  const cards: ReceiptCard[] = []
  for (const c of o.cards as unknown[]) {
    const card = c as Record<string, unknown> | null
    if (!card || typeof card.id !== 'string' || typeof card.why !== 'string' || !isCount(card.chars)) return null
    cards.push({
      id: card.id,
      why: card.why,
      chars: card.chars,
      ...(card.store === 'personal' || card.store === 'org' ? {store: card.store} : {}),
    })
  }
  const more = isCount(o.more) && o.more > 0 ? {more: o.more} : {}
  // One form (UTC, seconds), so receipts sort and compare as text.
  const ts = new Date(Date.parse(o.ts)).toISOString().replace(/\.\d{3}Z$/, 'Z')
  return {ts, session: o.session, client: o.client, event: o.event, cards, chars: o.chars, ...more}
}

const DAY_MS = 86_400_000

/**
 * A --since value as an instant: a date (YYYY-MM-DD, from its midnight UTC), an RFC 3339 time, or a span back from
 * now (`7d`, `12h`, `2w`); undefined when it is none of them.
 */
export function sinceInstant(text: string, now: Date): Date | undefined {
  const t = text.trim()
  const span = /^(\d{1,5})([hdw])$/.exec(t)
  if (span) {
    const unit = {h: DAY_MS / 24, d: DAY_MS, w: 7 * DAY_MS}[span[2] as 'h' | 'd' | 'w']
    return new Date(now.getTime() - Number(span[1]) * unit)
  }
  const iso = normalizeTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00:00Z` : t)
  return iso ? new Date(iso) : undefined
}

export const SINCE_FORMS =
  'a date (2026-11-01), an RFC 3339 time (2026-11-01T09:00:00Z) or a span back from now (7d, 12h, 2w)'
