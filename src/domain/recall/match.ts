import {bm25, type CorpusStats} from './bm25.js'
import type {CardDoc, MatchDoc} from './doc.js'
import {ADMIT_THRESHOLD, type Evidence, evidence} from './evidence.js'
import {type Gate, type GateEnv, gates} from './gates.js'
import type {PromptView} from './prompt.js'

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

export function matchCards(docs: readonly MatchDoc[], pv: PromptView, stats: CorpusStats, options: MatchOptions): MatchResult {
  const considered: Considered[] = docs.map(doc => {
    const g = gates(doc, pv, options)
    const ev = evidence(doc, pv)
    const failed = g.find(x => !x.pass)
    const admitted = !failed && ev.score >= ADMIT_THRESHOLD
    const verdict = failed ? `excluded by ${failed.gate}` : admitted ? 'admitted' : `below the admission threshold (${ev.score} < ${ADMIT_THRESHOLD})`
    const card = admitted ? (options.hydrate ? options.hydrate(doc) : (doc as CardDoc)) : undefined
    return {doc, card, gates: g, evidence: ev, rank: card ? bm25(card, pv, stats) : 0, admitted, selected: false, verdict}
  })
  const admitted = considered.filter(c => c.admitted).sort(byRank)
  // Must cards are never crowded out; the rest fill what max_cards leaves.
  const must = admitted.filter(c => c.doc.policy === 'must')
  const room = Math.max(0, options.maxCards - must.length)
  const others = admitted.filter(c => c.doc.policy !== 'must').slice(0, room)
  const chosen = new Set([...must, ...others])
  for (const c of admitted) {
    if (chosen.has(c)) {
      c.selected = true
      c.verdict = c.doc.policy === 'must' ? 'selected (must)' : 'selected'
    } else c.verdict = `admitted, but over max_cards (${options.maxCards})`
  }
  considered.sort((a, b) => Number(b.selected) - Number(a.selected) || Number(b.admitted) - Number(a.admitted) || byRank(a, b))
  return {considered, selected: admitted.filter(c => chosen.has(c)) as MatchResult['selected']}
}

function byRank(a: Considered, b: Considered): number {
  return b.rank - a.rank || b.evidence.score - a.evidence.score || (a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0)
}
