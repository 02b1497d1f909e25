/**
 * Parts of a prompt that talk about something without asking for it: "this is not a provider
 * adapter task", "no schema migration is involved", "比如当我说创建目标时". Words there are mentions,
 * not the task, so they give a card no evidence and fire no positive signal. Prohibitions
 * ("do not", "不要") are deliberately not here: a pitfall card is about exactly what not to do.
 */

export type SpanKind = 'negated' | 'example'

export interface Span {
  kind: SpanKind
  /** The marker that opened it, for --explain. */
  marker: string
  start: number
  end: number
}

const NEGATION = [
  '不是',
  '并非',
  '不属于',
  '不涉及',
  '而不是',
  'is not',
  "isn't",
  'are not',
  "aren't",
  'was not',
  'not a',
  'not an',
  'not about',
  'not related to',
  'nothing to do with',
  'no',
  'without',
  'rather than',
  'instead of',
]
const EXAMPLE = ['比如', '例如', '譬如', '举例来说', 'for example', 'for instance', 'e.g.']

const LATIN_EDGE = /[a-z0-9]/
// A clause ends at sentence or clause punctuation ("." only when not inside a token like design.md),
// or at a contrast, which starts what the prompt actually asks for.
const CLAUSE_END = /[，。；;！？!?,：:\n]|\.(?=\s|$)|但是|但|而是|\bbut\b|\bhowever\b/g

/**
 * Where the clause that starts at `from` ends, for rising `from`s: the end found last is the answer
 * again until `from` passes it, so the text is scanned once per marker word, not once per marker
 * ("no no no …" without punctuation scanned to its end from every "no": 20 s for 240 KB).
 */
function clauseEnds(text: string): (from: number) => number {
  let end = -1
  return from => {
    if (from <= end) return end
    CLAUSE_END.lastIndex = from
    const m = CLAUSE_END.exec(text)
    end = m ? m.index : text.length
    return end
  }
}

function markers(text: string, words: string[], kind: SpanKind): Span[] {
  const out: Span[] = []
  for (const w of words) {
    const clauseEnd = clauseEnds(text)
    for (let i = text.indexOf(w); i >= 0; i = text.indexOf(w, i + 1)) {
      if (LATIN_EDGE.test(w[0]) && LATIN_EDGE.test(text[i - 1] ?? '')) continue
      if (LATIN_EDGE.test(w[w.length - 1]) && LATIN_EDGE.test(text[i + w.length] ?? '')) continue
      out.push({kind, marker: w, start: i, end: clauseEnd(i + w.length)})
    }
  }
  return out
}

/** Mention spans of a normalised prompt, sorted by start. */
export function mentionSpans(text: string): Span[] {
  return [...markers(text, NEGATION, 'negated'), ...markers(text, EXAMPLE, 'example')].sort(
    (a, b) => a.start - b.start || b.end - a.end,
  )
}

export function inSpans(spans: readonly Span[], at: number): Span | undefined {
  return spans.find(s => at >= s.start && at < s.end)
}

/**
 * inSpans for rising positions (matches come leftmost first), over spans sorted by start: one pass
 * in all, where inSpans scans every span per call, which is quadratic on a long prompt full of mentions.
 */
export function spanCursor(spans: readonly Span[]): (at: number) => boolean {
  let next = 0
  let reach = -1
  return at => {
    while (next < spans.length && spans[next].start <= at) reach = Math.max(reach, spans[next++].end)
    return at < reach
  }
}

/**
 * inSpans for positions in any order: a binary search over the spans sorted by start, with the
 * furthest end reached so far, so a long prompt full of mentions costs n log n, not n².
 */
export function spanLookup(spans: readonly Span[]): (at: number) => boolean {
  const sorted = [...spans].sort((a, b) => a.start - b.start)
  const reach: number[] = []
  for (const s of sorted) reach.push(Math.max(reach.at(-1) ?? -1, s.end))
  return at => {
    let lo = 0
    let hi = sorted.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (sorted[mid].start <= at) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return found >= 0 && at < reach[found]
  }
}
