import {mentionSpans, type Span, spanLookup} from './context.js'
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
  signals: Map<string, Fired>
  paths: string[]
}

export function analysePrompt(prompt: string, registry: Registry, paths: readonly string[] = []): PromptView {
  const text = normText(prompt)
  const spans = mentionSpans(text)
  const active = new Map<string, number>()
  const inside = new Set<string>()
  const mentioned = spanLookup(spans)
  for (const t of tokensOf(text)) {
    if (mentioned(t.start)) inside.add(t.term)
    else active.set(t.term, Math.max(active.get(t.term) ?? 0, t.weight))
  }
  return {text, spans, active, mentioned: new Set([...inside].filter(t => !active.has(t))), signals: detectSignals(registry, text, spans), paths: paths.map(p => p.replace(/\\/g, '/').replace(/^\.\//, ''))}
}
