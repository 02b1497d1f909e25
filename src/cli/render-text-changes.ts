import type {ProposedCard} from '../app/propose.js'
import type {TextChange, TextValue} from '../domain/propose-text.js'
import {speak, type StoreLanguage} from '../domain/messages/language.js'
import {PROPOSE_TEXT} from '../domain/messages/propose.js'

/** Characters of context kept around the part of a long value that changed. */
const CONTEXT = 16
/** At most this many characters of a value are shown. */
const MAX = 72

/** What a repeated proposal did to a pending card's text, when it gave any differently; empty otherwise. */
export function renderTextOutcome(c: ProposedCard, language?: StoreLanguage): string[] {
  const t = speak(PROPOSE_TEXT, language)
  if (c.replaced_text?.length)
    return [t.replaced(c.id, c.replaced_text.length), ...changeLines(c.replaced_text, t.noValue)]
  if (!c.kept_text?.length) return []
  return [
    t.keptText(c.id, c.outcome === 'merged', c.kept_text.length),
    ...changeLines(c.kept_text, t.noValue),
    t.replaceHint,
  ]
}

/**
 * One line per change, old → new, each value cut to the part that changed; fields that changed alike share a line (a
 * problem and a rule that follow the summary).
 */
export function changeLines(changes: TextChange[], none = '(none)'): string[] {
  const lines: {fields: string[]; change: TextChange}[] = []
  for (const c of changes) {
    const same = lines.find(l => sameValue(l.change.old, c.old) && sameValue(l.change.new, c.new))
    if (same) same.fields.push(c.field)
    else lines.push({fields: [c.field], change: c})
  }
  const label = (l: {fields: string[]}) => `${l.fields.join(', ')}:`
  const width = Math.max(...lines.map(l => label(l).length))
  return lines.map(l => {
    const [before, after] = clip(shown(l.change.old, none), shown(l.change.new, none))
    return `  ${label(l).padEnd(width)} ${before} → ${after}`
  })
}

const sameValue = (a: TextValue, b: TextValue) => JSON.stringify(a) === JSON.stringify(b)

/** A value as its text without the quotes a string gets, which a cut value keeps at both ends. */
interface Shown {
  text: string
  quoted: boolean
}

function shown(v: TextValue, none: string): Shown {
  if (v === null || (Array.isArray(v) && v.length === 0)) return {text: none, quoted: false}
  if (Array.isArray(v)) return {text: v.map(x => JSON.stringify(x)).join(', '), quoted: false}
  return {text: JSON.stringify(v).slice(1, -1), quoted: true}
}

/**
 * Two values as shown: whole when both are short; else with what they share at either end cut away, keeping some
 * context, so a long summary that changed one word shows that word. Whatever is still too long is cut at MAX.
 */
function clip(a: Shown, b: Shown): [string, string] {
  const x = Array.from(a.text)
  const y = Array.from(b.text)
  const quote = (v: Shown, text: string) => (v.quoted ? `"${text}"` : text)
  if (x.length <= MAX && y.length <= MAX) return [quote(a, a.text), quote(b, b.text)]
  let head = 0
  while (head < x.length && head < y.length && x[head] === y[head]) head++
  let tail = 0
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++
  let start = head > CONTEXT + 1 ? head - CONTEXT : 0
  // The context starts at a word: "…arrays; append" rather than "…s arrays; append".
  const space = x.slice(start, head).indexOf(' ')
  if (start > 0 && space >= 0) start += space + 1
  const cut = (s: string[]) => {
    let end = s.length - tail + CONTEXT
    if (end >= s.length - 1) end = s.length
    let out = s.slice(start, end)
    let more = end < s.length
    if (out.length > MAX) {
      out = out.slice(0, MAX - 1)
      more = true
    }
    return `${start > 0 ? '…' : ''}${out.join('')}${more ? '…' : ''}`
  }
  return [quote(a, cut(x)), quote(b, cut(y))]
}
