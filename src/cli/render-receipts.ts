import type {ReceiptsResult, StatsResult} from '../app/receipts.js'
import type {CardStat} from '../domain/receipt-stats.js'
import {table} from './render.js'
import {padEnd} from './width.js'

const FILE = {project: '.cairn/.local/receipts.jsonl', personal: '$CAIRN_HOME/.local/receipts.jsonl'}

/** Why there is nothing to show: no receipt at all, or none the filters kept. */
function none(store: 'project' | 'personal', kept: number, from: string | null): string {
  const where = `the hooks add one line to ${FILE[store]} each time they inject cards`
  if (kept === 0) return `No receipts in the ${store} store yet: ${where}.`
  return `No receipt matches (${kept} kept${from ? `, since ${from}` : ''}).`
}

/** Each receipt: when, client, event, session and size, then its cards with their size and why. */
export function renderReceipts(r: ReceiptsResult): string {
  if (r.receipts.length === 0) return none(r.store, r.kept, r.from)
  const width = Math.max(...r.receipts.flatMap(x => x.cards.map(c => c.id.length)))
  const digits = Math.max(...r.receipts.flatMap(x => x.cards.map(c => String(c.chars).length)))
  const blocks = r.receipts.map(x => {
    const head = `${x.ts}  ${x.client}  ${x.event}  session ${x.session || '-'}  ${x.chars} chars`
    const cards = x.cards.map(
      c =>
        `  ${padEnd(c.id, width)}  ${String(c.chars).padStart(digits)}  ${c.why}${c.store ? ` (${c.store} card)` : ''}`,
    )
    const more = x.more ? [`  … and ${x.more} more card(s), left off the line to keep it short`] : []
    return [head, ...cards, ...more].join('\n')
  })
  return blocks.join('\n')
}

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`

/** The cards' table (most injected first): the one `cairn stats` prints and maintain's plan ends with. */
export function cardTable(cards: readonly CardStat[]): string {
  return table(
    cards.map(c => [
      c.store === 'personal' ? `${c.id} (personal)` : c.id,
      String(c.injections),
      String(c.matched),
      String(c.sessions),
      c.last,
      String(c.chars),
      percent(c.share),
    ]),
    ['CARD', 'INJECTIONS', 'MATCHED', 'SESSIONS', 'LAST', 'CHARS', 'SHARE'],
  )
}

/** The most recent sessions the text shows; --json has them all. */
const SESSIONS_SHOWN = 20

export function renderStats(r: StatsResult): string {
  if (r.receipts === 0) return none(r.store, r.kept, null)
  const sessions = r.sessions.length
  const head =
    `${r.receipts} injection(s) in ${sessions} session(s), ${r.from} to ${r.to}: ${r.chars} characters ` +
    `(MATCHED: injected for itself, not as a catalog line; SHARE: of every character injected).`
  const rows = r.sessions
    .slice(0, SESSIONS_SHOWN)
    .map(s => [s.session || '-', s.client, String(s.injections), String(s.cards), String(s.chars), s.last])
  const more =
    sessions > SESSIONS_SHOWN ? [`… and ${sessions - SESSIONS_SHOWN} earlier session(s) (--json lists them all)`] : []
  return [
    head,
    '',
    cardTable(r.cards),
    '',
    table(rows, ['SESSION', 'CLIENT', 'INJECTIONS', 'CARDS', 'CHARS', 'LAST']),
    ...more,
  ].join('\n')
}
