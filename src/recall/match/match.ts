import {bm25, type CorpusStats} from './bm25.js'
import {type CardDoc, type MatchDoc, STRONG_FIELDS} from './doc.js'
import {ADMIT_THRESHOLD, type Evidence, evidence} from './evidence.js'
import {type Gate, type GateEnv, gates} from './gates.js'
import type {PromptView} from './prompt.js'
import type {Registry, Signal} from './signals.js'

/** The one matcher behind `cairn recall`, the prompt hook and eval: gates, admission, rank, select. */
export interface MatchOptions extends GateEnv {
  maxCards: number
  /** Loads the ranking half of a record; called only for admitted cards. */
  hydrate?: (doc: MatchDoc) => CardDoc
}

export interface Considered {
  doc: MatchDoc
  /** The full record, for admitted cards. */
  card?: CardDoc
  gates: Gate[]
  evidence: Evidence
  rank: number
  admitted: boolean
  selected: boolean
  /** Why it is in or out, in a few words. */
  verdict: string
}

export interface MatchResult {
  considered: Considered[]
  selected: (Considered & {card: CardDoc})[]
}

export function matchCards(
  docs: readonly MatchDoc[],
  pv: PromptView,
  stats: CorpusStats,
  options: MatchOptions,
): MatchResult {
  return select(docs.map(judge(pv, stats, options)), options.maxCards)
}

/** Gates, admission and, for an admitted card, its rank: one card's whole verdict. */
export function judge(pv: PromptView, stats: CorpusStats, options: MatchOptions): (doc: MatchDoc) => Considered {
  const intents = [...pv.signals.keys()]
    .map(id => options.registry.signals.get(id)!)
    .filter(s => s.discount !== undefined)
  return doc => {
    const g = gates(doc, pv, options)
    const ev = discounted(evidence(doc, pv), doc, intents, options.registry)
    const failed = g.find(x => !x.pass)
    const admitted = !failed && ev.score >= ADMIT_THRESHOLD
    const verdict = failed
      ? `excluded by ${failed.gate}`
      : admitted
        ? 'admitted'
        : `below the admission threshold (${ev.score} < ${ADMIT_THRESHOLD})`
    const card = admitted ? (options.hydrate ? options.hydrate(doc) : (doc as CardDoc)) : undefined
    return {
      doc,
      card,
      gates: g,
      evidence: ev,
      rank: card ? bm25(card, pv, stats) : 0,
      admitted,
      selected: false,
      verdict,
    }
  }
}

/** The selection among judged cards: every admitted must card, then the best ranked up to maxCards. */
export function select(considered: Considered[], maxCards: number): MatchResult {
  const admitted = considered.filter(c => c.admitted).sort(byRank)
  // Must cards are never crowded out; the rest fill what max_cards leaves.
  const must = admitted.filter(c => c.doc.policy === 'must')
  const room = Math.max(0, maxCards - must.length)
  const others = admitted.filter(c => c.doc.policy !== 'must').slice(0, room)
  const chosen = new Set([...must, ...others])
  const within = new Map([...chosen].map(c => [c, strongerWithAll(c, chosen)]))
  for (const c of admitted) {
    const over = within.get(c)
    if (over) {
      chosen.delete(c)
      c.verdict = `admitted, but every prompt word behind it also backs ${over.doc.id}, which matched more strongly`
    } else if (chosen.has(c)) {
      c.selected = true
      c.verdict = c.doc.policy === 'must' ? 'selected (must)' : 'selected'
    } else c.verdict = `admitted, but over max_cards (${maxCards})`
  }
  considered.sort(
    (a, b) => Number(b.selected) - Number(a.selected) || Number(b.admitted) - Number(a.admitted) || byRank(a, b),
  )
  return {considered, selected: admitted.filter(c => chosen.has(c)) as MatchResult['selected']}
}

/**
 * A neighbour of the right card: a selected card (not a must card) whose evidence rests only on
 * prompt words that also back a selected card ranked above it with a higher score. "rebase" and "git" recall the
 * force-push card through its own phrases; the merge-conflict card that holds the same two words
 * and nothing more says nothing new. It compares only cards already selected, so the index's
 * pruned selection (topk.ts), which selects the same cards, drops the same ones.
 */
function strongerWithAll(c: Considered, chosen: ReadonlySet<Considered>): Considered | undefined {
  const mine = c.evidence.terms
  if (c.doc.policy === 'must' || mine.length === 0) return undefined
  for (const d of chosen) {
    // Only for a card ranked above it: whether c is dropped never depends on how many cards fit.
    if (d === c || d.evidence.score <= c.evidence.score || byRank(d, c) > 0) continue
    const theirs = new Set(d.evidence.terms)
    if (mine.every(t => theirs.has(t))) return d
  }
  return undefined
}

/**
 * A prompt whose intent is something else (edit the docs, explain, rename) names a card's topic
 * without needing its lesson: word evidence is as strong as a real match's, so the intent lowers it.
 * A card whose own title or phrases carry the same intent (a card about writing docs) keeps it.
 */
function discounted(ev: Evidence, doc: MatchDoc, intents: readonly Signal[], registry: Registry): Evidence {
  if (intents.length === 0 || ev.score <= 0) return ev
  const own = [doc.title.toLowerCase(), ...doc.phrases.filter(p => STRONG_FIELDS.has(p.field)).map(p => p.norm)]
  let factor = 1
  const by: string[] = []
  for (const s of intents) {
    const patterns = registry.compiled.get(s.id) ?? []
    if (own.some(text => patterns.some(p => !p.matches(text)[Symbol.iterator]().next().done))) continue
    factor *= s.discount!
    by.push(s.id)
  }
  if (by.length === 0) return ev
  return {
    ...ev,
    score: Math.round(ev.score * factor * 1000) / 1000,
    discount: {factor: Math.round(factor * 1000) / 1000, intents: by},
  }
}

export function byRank(a: Considered, b: Considered): number {
  return (
    b.rank - a.rank || b.evidence.score - a.evidence.score || (a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0)
  )
}
