import {inlineHtmlEnd, markerFinder} from './markdown-html.js'

/**
 * Which lines of one paragraph begin in its plain text, read left to right as commonmark.js's inline
 * parser reads it. A line does not when it begins inside a code span, raw HTML or a link's destination or
 * title, or while a bracket is open (an image's description, which GitHub does not show, or a link's
 * text). Where the reading depends on more than this scan knows, the rest of the paragraph is not text:
 * after a reference link (its label shows or not as a definition anywhere decides), in brackets inside
 * brackets, after `~~` (GFM strikethrough) or `$` (GitHub's math). What ends the whole text is said too
 * (`endsAt`, the first line it takes): raw HTML, whose element or comment a browser keeps open past the
 * paragraph, and a link reference definition, never shown, which changes how the lines after it read.
 */

const PUNCTUATION = /^[!-/:-@[-`{-~]$/
const DOMAIN_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?'
const AUTOLINK = new RegExp(
  `<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\\x00-\\x20]*>|<[A-Za-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})*>`,
  'y',
)
const DEFINITION = /^\[(?:[^\\[\]]|\\[\s\S]){0,999}\]:/
const SPACES_AND_A_LINE_BREAK = / *(?:\n *)?/y
const LINK_TITLE = /"(?:\\[\s\S]|[^\\"\x00])*"|'(?:\\[\s\S]|[^\\'\x00])*'|\((?:\\[\s\S]|[^\\()\x00])*\)/y
const DESTINATION_IN_BRACES = /<(?:[^<>\n\\\x00]|\\[^\n])*>/y

const sticky = (re: RegExp, text: string, at: number): string | null => {
  re.lastIndex = at
  return re.exec(text)?.[0] ?? null
}
const spnl = (text: string, at: number): number => at + sticky(SPACES_AND_A_LINE_BREAK, text, at)!.length

export function lineStartsInText(lines: string[]): {inText: boolean[]; endsAt: number} {
  const text = lines.join('\n')
  const inText = lines.map(() => false)
  if (DEFINITION.test(text)) return {inText, endsAt: 0}
  let endsAt = -1
  const starts: number[] = []
  for (let at = 0, n = 0; n < lines.length; at += lines[n].length + 1, n++) starts.push(at)
  const find = markerFinder(text)
  const closer = backtickRuns(text)
  let line = 0
  let brackets = 0
  let hidden = false
  let i = 0
  /** Past a construct from i to end: a line that begins inside it is not text. */
  const skipTo = (end: number) => {
    while (line < starts.length && starts[line] < end) line++
    i = end
  }
  while (i < text.length) {
    if (starts[line] === i) inText[line++] = brackets === 0 && !hidden
    const c = text[i]
    if (c === '\\') {
      i += PUNCTUATION.test(text[i + 1] ?? '') ? 2 : 1
    } else if (c === '`') {
      let run = 1
      while (text[i + run] === '`') run++
      const close = closer(run, i + run)
      if (close === -1) i += run
      else skipTo(close + run)
    } else if (c === '<') {
      const auto = sticky(AUTOLINK, text, i)
      const html = auto === null ? inlineHtmlEnd(text, i, find) : -1
      if (auto !== null) skipTo(i + auto.length)
      else if (html === -1) i++
      else {
        hidden = true
        if (endsAt === -1) endsAt = line
        skipTo(html)
      }
    } else if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      if (brackets > 0) hidden = true
      brackets++
      i += c === '!' ? 2 : 1
    } else if (c === ']' && brackets > 0) {
      brackets--
      const end = text[i + 1] === '(' ? inlineLinkEnd(text, i + 1) : -1
      if (text[i + 1] === '[') hidden = true
      if (end === -1) i++
      else skipTo(end)
    } else if ((c === '~' && text[i + 1] === '~') || c === '$') {
      hidden = true
      i++
    } else i++
  }
  return {inText, endsAt}
}

/**
 * For each length, the positions of the backtick runs of exactly that length: a code span that opens with n
 * backticks closes at the next run of n (commonmark.js), found here without searching the text again.
 */
function backtickRuns(text: string): (length: number, from: number) => number {
  const runs = new Map<number, number[]>()
  for (const m of text.matchAll(/`+/g)) {
    const list = runs.get(m[0].length) ?? []
    list.push(m.index)
    runs.set(m[0].length, list)
  }
  return (length, from) => {
    const list = runs.get(length) ?? []
    let [lo, hi] = [0, list.length]
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (list[mid] < from) lo = mid + 1
      else hi = mid
    }
    return lo < list.length ? list[lo] : -1
  }
}

/**
 * Where an inline link's `(destination "title")` that opens at text[open] ends, as commonmark.js reads it;
 * -1 if it is none.
 */
function inlineLinkEnd(text: string, open: number): number {
  let j = spnl(text, open + 1)
  if (text[j] === '<') {
    const braced = sticky(DESTINATION_IN_BRACES, text, j)
    if (braced === null) return -1
    j += braced.length
  } else {
    const start = j
    let depth = 0
    for (; j < text.length; j++) {
      const c = text[j]
      if (c === '\\' && PUNCTUATION.test(text[j + 1] ?? '')) j++
      else if (c === '(') {
        if (++depth > 32) return -1
      } else if (c === ')') {
        if (depth === 0) break
        depth--
      } else if (/[ \t\n\v\f\r]/.test(c)) break
    }
    if ((j === start && text[j] !== ')') || depth > 0) return -1
  }
  const afterDestination = j
  j = spnl(text, j)
  const title = j > afterDestination ? sticky(LINK_TITLE, text, j) : null
  if (title !== null) j = spnl(text, j + title.length)
  return text[j] === ')' ? j + 1 : -1
}
