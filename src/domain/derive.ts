import {MAX_DERIVED_CHARS} from './card/schema.js'
import type {Language} from './card/types.js'
import {type Candidate, candidatesOf, CJK, MAX_ZH_CHARS} from './derive-phrases.js'
import {GENERIC_EN, GENERIC_ZH} from './derive-words.js'
import {atxHeading} from './markdown-blocks.js'

/**
 * Key phrases a user's prompt is likely to contain, derived from a card that has no triggers
 * (RAKE-style: runs of content words between stop words and punctuation). Title phrases and
 * multi-word phrases rank first; code-like tokens stay whole. The language of each text is
 * read from its characters, not from `language`: a Chinese card quotes English commands too.
 */
export interface DeriveInput {
  title: string
  summary: string
  rule?: string
  language: Language
}

/** How many phrases a card gets; fewer only when the text has no more worth keeping. */
export const MIN_DERIVED = 2
export const MAX_DERIVED_PHRASES = 5
/** A long rule organised by headings (an imported rule file) names its topics there: up to this many phrases in all. */
export const MAX_DERIVED_WITH_HEADINGS = 8
/** Past the minimum, a phrase needs this score: a title phrase, or a multi-word or code phrase from the summary. */
const KEEP_SCORE = 2.5
// Title, summary, the rule's first sentence, its own headings, and the rest of its opening.
const SOURCE_WEIGHTS = [3, 1.5, 1, 2, 0.5]

interface Scored extends Candidate {
  key: string
  score: number
  order: number
}

/** Key phrases come from the opening of each field: bad input (a 10 MB summary) stays cheap until validation refuses it. */
const SOURCE_CHARS = 1000

export function deriveTriggers(input: DeriveInput): string[] {
  // Cut at a space (or anywhere in Chinese), never in the middle of a word that could become a phrase.
  const full = input.rule ?? ''
  const body = full.length > SOURCE_CHARS ? full.slice(0, SOURCE_CHARS).replace(/[A-Za-z0-9_.-]+$/, '') : full
  const rule = firstSentence(body)
  const title = input.title.slice(0, SOURCE_CHARS)
  const summary = input.summary.slice(0, SOURCE_CHARS)
  // The rest of the rule's body weighs least: it adds a phrase of its own only to reach the
  // minimum, and says again, for a phrase the title or summary has, that it is central.
  const rest = body.includes(rule) ? body.slice(body.indexOf(rule) + rule.length) : ''
  const headings = ruleHeadings(full)
  const sources = [
    title,
    summary,
    summary.includes(rule) ? '' : rule,
    headings,
    summary.includes(rest.trim()) ? '' : rest,
  ]
  const found = new Map<string, Scored>()
  sources.forEach((source, s) => {
    // Each heading apart: a phrase never runs from one heading into the next.
    for (const c of typeof source === 'string' ? candidatesOf(source) : source.flatMap(candidatesOf)) {
      const key = keyOf(c)
      const seen = found.get(key)
      // Said again (in the summary after the title, say): the phrase is central to the card.
      if (seen) seen.score += 0.5
      else found.set(key, {...c, key, score: SOURCE_WEIGHTS[s] + bonus(c), order: found.size})
    }
  })
  const whole = title
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[.。!！?？]+$/, '')
  const longTitle = CJK.test(whole) ? cjkCount(whole) > MAX_ZH_CHARS : whole.split(/\s+/).length > 4
  const ranked = [...found.values()]
    .filter(c => allowed(c) && !(longTitle && c.text.toLowerCase() === whole))
    .sort((a, b) => b.score - a.score || a.order - b.order)
  const kept: Scored[] = []
  const max = headings.length ? MAX_DERIVED_WITH_HEADINGS : MAX_DERIVED_PHRASES
  for (const c of ranked) {
    if (kept.length >= max || (kept.length >= MIN_DERIVED && c.score < KEEP_SCORE)) break
    // One of two phrases where one holds the other: the better ranked (a title phrase over a summary one).
    if (!kept.some(k => contains(k, c) || contains(c, k))) kept.push(c)
  }
  return kept.map(c => c.text)
}

/** Case and plural do not make another phrase: "Shared branches" and "shared branch" are one. */
const keyOf = (c: Candidate): string =>
  c.text
    .toLowerCase()
    .split(' ')
    .map(w => (c.code || w.length <= 4 || w.endsWith('ss') ? w : w.replace(/(?<=s|x|z|ch|sh)es$|(?<!s)s$/, '')))
    .join(' ')

const cjkCount = (s: string): number => [...s].filter(ch => CJK.test(ch)).length

function bonus(c: Candidate): number {
  if (c.code) return 1
  if (c.words >= 3) return 1.2
  return c.words === 2 ? 1 : 0
}

/** A single word must be code-like, or a specific word: not generic, at least 5 letters (2 CJK characters). */
function allowed(c: Scored): boolean {
  if (c.text.length > MAX_DERIVED_CHARS) return false
  if (c.code || c.words > 1) return c.text.length >= 2
  if (c.cjk) return c.text.length >= 2 && !GENERIC_ZH.has(c.text)
  return c.text.replace(/[^a-z]/g, '').length >= 5 && !GENERIC_EN.has(c.text.toLowerCase())
}

function contains(long: Scored, short: Scored): boolean {
  if (long.key === short.key) return true
  if (long.cjk || short.cjk) return long.key.includes(short.key)
  return ` ${long.key} `.includes(` ${short.key} `)
}

/** At most this many of a rule's headings are read, from its start. */
const MAX_HEADINGS = 40

/**
 * The rule's own Markdown headings (outside code), without marks, numbering or emphasis: "## 🚨 Diff Baseline Testing"
 * gives "Diff Baseline Testing". One per line, so a phrase never runs from one heading into the next.
 */
export function ruleHeadings(rule: string): string[] {
  const out: string[] = []
  let fence = false
  for (const line of rule.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence
    const heading = fence ? undefined : atxHeading(line)
    if (!heading) continue
    const text = heading.text
      .replace(/[*_`]/g, '')
      .replace(/^[^\p{L}\p{N}]+/u, '')
      .replace(/^(\d+[.)、]|[一二三四五六七八九十]+、)\s*/u, '')
      .trim()
    // A heading in capitals ("CRITICAL INSTRUCTIONS") is shouted words, not code names.
    const words = /\p{Ll}/u.test(text) || !/\s/.test(text) ? text : text.toLowerCase()
    if (words) out.push(words.slice(0, 120))
    if (out.length >= MAX_HEADINGS) break
  }
  return out
}

function firstSentence(text: string): string {
  const line =
    text
      .split('\n')
      .map(l => l.trim())
      .find(l => l && !l.startsWith('```')) ?? ''
  return line.split(/(?<=[.!?])\s+|(?<=[。！？])/)[0]
}
