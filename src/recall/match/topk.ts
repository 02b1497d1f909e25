import type {CorpusStats} from './bm25.js'
import type {MatchDoc} from './doc.js'
import {byRank, type Considered, judge, type MatchOptions, type MatchResult, select} from './match.js'
import type {PromptView} from './prompt.js'

/**
 * A prompt's cards as the index can give them before decoding any (RecallIndex.bounded): records
 * are numbers, decoded by doc() on demand.
 */
export interface BoundedCandidates {
  /** Every must card that could be admitted. */
  must: readonly number[]
  /**
   * Every other card whose bm25 can be above zero, highest bound first; bounds[k] is at least
   * records[k]'s bm25 before rounding (each term's impact rounded up, times the prompt's weight).
   */
  records: ArrayLike<number>
  bounds: ArrayLike<number>
  /** Every card that could be admitted, must cards included (the admission bound): computed on first call. */
  admissible(): readonly number[]
  doc(record: number): MatchDoc
}

/**
 * The highest rank a card of this bound can get: bm25 rounds to thousandths, and the bound's own
 * sum may round down by a few units in the last place.
 */
export const rankCeiling = (bound: number): number => bound * (1 + 1e-9) + 0.001

/**
 * Cards judged and found not admitted, highest bounds first, before the ranked pass judges only
 * those the admission bound lets through: below it a judgement costs less than that bound, above
 * it a prompt whose words fill many cards' text but few of their triggers pays for the bound once.
 * A ranked list of at most FEW cards has few postings, so its admission bound is cheap: it is used
 * from the start.
 */
const MISSES = 32
const FEW = 4 * MISSES

/**
 * matchCards' selection without judging every candidate: every must card that could be admitted
 * is judged (each one admitted is shown), then the others from the highest bound down, until the
 * next bound cannot reach the rank of the last card that fits. A card left unjudged ranks strictly
 * below every card selected, so the selection, its order and its verdicts are matchCards' own;
 * `considered` holds only the cards judged. When the ranked cards run out before the selection is
 * full, every remaining card that could be admitted is judged, as matchCards would.
 */
export function matchTopK(
  c: BoundedCandidates,
  pv: PromptView,
  stats: CorpusStats,
  options: MatchOptions,
): MatchResult {
  const verdict = judge(pv, stats, options)
  const judged = new Set<number>(c.must)
  const considered = c.must.map(i => verdict(c.doc(i)))
  const room = Math.max(0, options.maxCards - considered.filter(x => x.admitted).length)
  // The best `room` admitted others so far, best first.
  const top: Considered[] = []
  const take = (i: number) => {
    judged.add(i)
    const x = verdict(c.doc(i))
    considered.push(x)
    if (!x.admitted) return false
    let at = top.length
    while (at > 0 && byRank(x, top[at - 1]) < 0) at--
    top.splice(at, 0, x)
    if (top.length > room) top.pop()
    return true
  }
  const full = (bound: number) => top.length >= room && (room === 0 || rankCeiling(bound) < top[room - 1].rank)
  let misses = 0
  let admissible = c.records.length <= FEW ? new Set(c.admissible()) : undefined
  for (let k = 0; k < c.records.length; k++) {
    if (full(c.bounds[k])) return select(considered, options.maxCards)
    const i = c.records[k]
    if (judged.has(i) || (admissible && !admissible.has(i))) continue
    if (!take(i) && ++misses === MISSES) admissible = new Set(c.admissible())
  }
  // A card that is not ranked has a bm25 of zero at most.
  if (!full(0)) for (const i of c.admissible()) if (!judged.has(i)) take(i)
  return select(considered, options.maxCards)
}
