import {detectSignals, mentionSpans, normText, type Signal, signalRegistry} from '../recall/index.js'
import type {Context} from '../context.js'
import {openStores} from './stores.js'

/** The registry: built-in generic signals, then the project's .cairn/signals.yaml. */
export async function listSignals(ctx: Context): Promise<{signals: Signal[]}> {
  const registry = await projectRegistry(ctx)
  return {signals: [...registry.signals.values()]}
}

export interface SignalTest {
  prompt: string
  fired: {id: string; polarity: string; match: string; description: string}[]
  /** Parts of the prompt that only mention things ("this is not ...", "for example ..."). */
  mentions: {kind: string; marker: string; text: string}[]
}

/** Which signals fire for a prompt, and which parts of it are mentions that fire no positive signal. */
export async function testSignals(ctx: Context, prompt: string): Promise<SignalTest> {
  const registry = await projectRegistry(ctx)
  const text = normText(prompt)
  const spans = mentionSpans(text)
  const fired = [...detectSignals(registry, text, spans).values()].map(f => {
    const s = registry.signals.get(f.id)!
    return {id: f.id, polarity: s.polarity, match: f.match, description: s.description}
  })
  return {prompt, fired, mentions: spans.map(s => ({kind: s.kind, marker: s.marker, text: text.slice(s.start, s.end)}))}
}

async function projectRegistry(ctx: Context): ReturnType<typeof signalRegistry> {
  const stores = openStores(ctx)
  return signalRegistry(await stores.signals(stores.project))
}
