import {type ContextPart, PART_PRIORITY} from '../app/hooks/types.js'
import {HOOK_TEXT} from '../domain/messages/hooks.js'
import {speak, type StoreLanguage} from '../domain/messages/language.js'
import type {SizeCap} from './adapter.js'

/**
 * Size of text in the client's unit. Tokens are estimated the way the issue asks: a CJK character
 * is one token, and other text about one token per three characters (an overestimate for English,
 * so the cap holds).
 */
export function sizeOf(text: string, unit: SizeCap['unit']): number {
  if (unit === 'chars') return [...text].length
  let cjk = 0
  let other = 0
  for (const ch of text) {
    if (/[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u.test(ch)) cjk++
    else other++
  }
  return cjk + Math.ceil(other / 3)
}

const SEPARATOR = '\n\n'

/**
 * Joins the parts within the cap. Parts are kept in priority order (enforced must-cards, core
 * cards and recalled cards, notices, the board brief, the catalog); the first part that does not
 * fit is cut at a line boundary, and everything after it is dropped.
 */
export function fitContext(parts: readonly ContextPart[], cap: SizeCap, language?: StoreLanguage): string {
  const sorted = parts
    .map((p, i) => ({...p, text: p.text.trimEnd(), i}))
    .filter(p => p.text)
    .sort((a, b) => PART_PRIORITY[a.kind] - PART_PRIORITY[b.kind] || a.i - b.i)
  const kept: string[] = []
  let used = 0
  for (const p of sorted) {
    const sep = kept.length ? sizeOf(SEPARATOR, cap.unit) : 0
    const n = sizeOf(p.text, cap.unit)
    if (used + sep + n <= cap.max) {
      kept.push(p.text)
      used += sep + n
      continue
    }
    const cut = cutLines(p.text, cap.max - used - sep, cap.unit, speak(HOOK_TEXT, language).cut)
    if (cut) kept.push(cut)
    break
  }
  return kept.join(SEPARATOR)
}

/** The lines of text that fit in room, then the note that says it was cut; '' when no line of content fits. */
function cutLines(text: string, room: number, unit: SizeCap['unit'], more: string): string {
  const lines = text.split('\n')
  const out: string[] = []
  let used = sizeOf(more, unit) + 1
  for (const line of lines) {
    const n = sizeOf(line, unit) + 1
    if (used + n > room) break
    out.push(line)
    used += n
  }
  // A heading alone says nothing; keep the part only when at least one line of content fits.
  return out.length > 1 ? [...out, more].join('\n') : ''
}
