import {withoutOwnText} from './own-text.js'
import {mentionSpans, type Span, spanLookup} from './context.js'
import {formTerms, promptKeys, promptWords} from './expand.js'
import {normText} from './phrase.js'
import {detectSignals, type Fired, type Registry} from './signals.js'
import {tokensOf} from './tokenize.js'

/** A request analysed once: normalised text, terms in and out of mention spans, fired signals. */
export interface PromptView {
  text: string
  spans: Span[]
  /** Terms outside mention spans, with their weight. */
  active: Map<string, number>
  /** Terms that occur only inside mention spans. */
  mentioned: Set<string>
  /**
   * Terms the lexicon adds (translations and synonyms of the active words), each with the prompt
   * key it came from and the form it is part of. They count as present for concept units only.
   */
  expanded: Map<string, {key: string; form: string}>
  /** The whole forms the lexicon added, each with the prompt key it came from: a Chinese form counts as present only whole. */
  expandedForms: Map<string, string>
  /** The prompt's words as concepts (English stems, compounds, Chinese ICU words), when it was expanded. */
  words: string[]
  signals: Map<string, Fired>
  paths: string[]
}

/** Forms of the same concept for each prompt key that has any (the index's lexicon table, or a Translator). */
export type Expand = (keys: string[]) => Map<string, readonly string[]>

export function analysePrompt(
  prompt: string,
  registry: Registry,
  paths: readonly string[] = [],
  expand?: Expand,
): PromptView {
  // What cairn injected earlier and a client echoed back is not the user's task.
  const text = normText(withoutOwnText(prompt))
  const spans = mentionSpans(text)
  const active = new Map<string, number>()
  const inside = new Set<string>()
  const mentioned = spanLookup(spans)
  for (const t of tokensOf(text)) {
    if (mentioned(t.start)) inside.add(t.term)
    else active.set(t.term, Math.max(active.get(t.term) ?? 0, t.weight))
  }
  const expanded = new Map<string, {key: string; form: string}>()
  const expandedForms = new Map<string, string>()
  let words: string[] = []
  if (expand) {
    // Mentioned words are no evidence, so they are not translated either.
    const unmentioned = spans.length ? blank(text, spans) : text
    const found = expand(promptKeys(unmentioned))
    words = promptWords(unmentioned, w => found.has(w))
    for (const [key, forms] of found) {
      for (const form of forms) {
        if (!expandedForms.has(form)) expandedForms.set(form, key)
        for (const t of formTerms(form))
          if (!((active.get(t) ?? 0) > 0) && !expanded.has(t)) expanded.set(t, {key, form})
      }
    }
  }
  return {
    text,
    spans,
    active,
    mentioned: new Set([...inside].filter(t => !active.has(t))),
    expanded,
    expandedForms,
    words,
    signals: detectSignals(registry, text, spans),
    paths: paths.map(p => p.replace(/\\/g, '/').replace(/^\.\//, '')),
  }
}

/** The text with its mention spans replaced by spaces (offsets kept), in one pass. */
function blank(text: string, spans: readonly Span[]): string {
  const parts: string[] = []
  let at = 0
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const start = Math.max(at, s.start)
    if (s.end <= start) continue
    parts.push(text.slice(at, start), ' '.repeat(s.end - start))
    at = s.end
  }
  parts.push(text.slice(at))
  return parts.join('')
}
