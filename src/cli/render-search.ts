import type {SearchResult} from '../app/search.js'
import {speak} from '../domain/messages/language.js'
import {SEARCH_TEXT} from '../domain/messages/search.js'
import {BOARD_STATE, type SearchHit, type SearchMatch} from '../domain/search.js'
import {type Palette, PLAIN} from './colour.js'
import {displayWidth, padEnd} from './width.js'

/**
 * `cairn search`'s text: one block per card (or board record), its id with type, state and store, then its path,
 * then each matched line with its number and field. On a terminal the matches are painted; elsewhere (a pipe, a file,
 * an agent's tool call) a line of carets under each matched line marks them. A long line is cut around its first
 * match to the width.
 */
export function renderSearch(r: SearchResult, options: {paint?: Palette; width?: number} = {}): string {
  const t = speak(SEARCH_TEXT, r.language)
  if (r.hits.length === 0) return t.noMatch(r.pattern, r.board)
  const paint = options.paint ?? PLAIN
  const width = options.width ?? 100
  const blocks: string[] = []
  for (const group of groups(r.hits)) {
    const first = group[0]
    const what = first.state === BOARD_STATE ? t.boardRecord : `${first.type}, ${first.state}`
    const lines = [`${paint.bold(first.id)}  ${what}, ${t.store(first.layer ?? first.store)}`, first.file]
    const numbers = Math.max(...group.map(h => String(h.line).length))
    const fields = Math.max(...group.map(h => displayWidth(h.field)))
    for (const hit of group) {
      const prefix = `  ${String(hit.line).padStart(numbers)}  ${padEnd(hit.field, fields)}  `
      lines.push(...matchedLine(prefix, hit, paint, width))
    }
    blocks.push(lines.join('\n'))
  }
  return `${blocks.join('\n\n')}\n\n${t.summary(r.hits.length, r.files, r.board)}`
}

/** Hits of one file, in their order. */
function groups(hits: SearchHit[]): SearchHit[][] {
  const out: SearchHit[][] = []
  for (const hit of hits) {
    const last = out[out.length - 1]
    if (last && last[0].store === hit.store && last[0].layer === hit.layer && last[0].file === hit.file) last.push(hit)
    else out.push([hit])
  }
  return out
}

/** The line after its prefix, cut to the width around its first match, with the matches painted or underlined. */
function matchedLine(prefix: string, hit: SearchHit, paint: Palette, width: number): string[] {
  const chars = Array.from(hit.text)
  const room = Math.max(20, width - displayWidth(prefix))
  const [from, to] = window(chars, hit.matches, room)
  const marked = (i: number) => hit.matches.some(m => i >= m.start && i < m.end)
  let text = from > 0 ? '…' : ''
  let carets = from > 0 ? ' ' : ''
  for (let i = from; i < to;) {
    let j = i
    while (j < to && marked(j) === marked(i)) j++
    const piece = chars.slice(i, j).join('')
    text += marked(i) ? paint.red(paint.bold(piece)) : piece
    carets += (marked(i) ? '^' : ' ').repeat(displayWidth(piece))
    i = j
  }
  if (to < chars.length) text += '…'
  const underline = paint === PLAIN && carets.includes('^')
  return underline ? [prefix + text, ' '.repeat(displayWidth(prefix)) + carets.trimEnd()] : [prefix + text]
}

/** Which characters of the line to show within `room` columns: from a little before the first match on. */
function window(chars: string[], matches: SearchMatch[], room: number): [number, number] {
  // A line that fits (most of them, and every ASCII one up to the room) is measured once.
  if (chars.length <= room && displayWidth(chars.join('')) <= room) return [0, chars.length]
  const widths = chars.map(displayWidth)
  const widthOf = (from: number, to: number) => widths.slice(from, to).reduce((a, b) => a + b, 0)
  if (widthOf(0, chars.length) <= room) return [0, chars.length]
  const first = matches.find(m => m.end > m.start) ?? matches[0]
  let from = first && widthOf(0, first.end) > room - 1 ? Math.max(0, first.start - 16) : 0
  // The cut leaves one column for each "…".
  let used = from > 0 ? 1 : 0
  let to = from
  while (to < chars.length && used + widths[to] <= room - 1) used += widths[to++]
  if (to === chars.length && from > 0) {
    while (from > 0 && used + widths[from - 1] <= room) used += widths[--from]
  }
  return [from, to]
}
