import {mentionSpans} from '../domain/recall/context.js'
import {normText} from '../domain/recall/phrase.js'
import {compileRe2} from '../domain/recall/re2-pattern.js'
import {buildRegistry, detectSignals, type Signal} from '../domain/recall/signals.js'
import type {Context} from '../store/context.js'
import {openStores} from '../store/stores.js'
import {readProjectSignals} from '../store/signals.js'

/** The registry: built-in generic signals, then the project's .cairn/signals.yaml. */
export function listSignals(ctx: Context): {signals: Signal[]} {
  const registry = buildRegistry(readProjectSignals(openStores(ctx).project), compileRe2)
  return {signals: [...registry.signals.values()]}
}

export interface SignalTest {
  prompt: string
  fired: {id: string; polarity: string; match: string; description: string}[]
  /** Parts of the prompt that only mention things ("this is not ...", "for example ..."). */
  mentions: {kind: string; marker: string; text: string}[]
}

/** Which signals fire for a prompt, and which parts of it are mentions that fire no positive signal. */
export function testSignals(ctx: Context, prompt: string): SignalTest {
  const registry = buildRegistry(readProjectSignals(openStores(ctx).project), compileRe2)
  const text = normText(prompt)
  const spans = mentionSpans(text)
  const fired = [...detectSignals(registry, text, spans).values()].map(f => {
    const s = registry.signals.get(f.id)!
    return {id: f.id, polarity: s.polarity, match: f.match, description: s.description}
  })
  return {prompt, fired, mentions: spans.map(s => ({kind: s.kind, marker: s.marker, text: text.slice(s.start, s.end)}))}
}
