import {type CardDoc, type Field, FIELDS} from './doc.js'
import type {PromptView} from './prompt.js'

/** Field weights of BM25F: triggers > aliases > derived triggers > title > use_when > topics > keywords > summary > translations (xl) > rule. */
export const FIELD_WEIGHTS: Record<Field, number> = {
  triggers: 6,
  derived: 4.5,
  aliases: 5,
  title: 4,
  use_when: 3.5,
  topics: 3,
  keywords: 2.5,
  summary: 2,
  rule: 1,
  xl: 1.5,
}
const K1 = 1.2
const B = 0.75

/** Library statistics for ranking (never for admission). */
export interface CorpusStats {
  n: number
  df: (term: string) => number
  avgLen: Partial<Record<Field, number>>
}

export function statsOf(docs: readonly CardDoc[]): CorpusStats {
  const df = new Map<string, number>()
  const sum: Partial<Record<Field, number>> = {}
  for (const d of docs) {
    const terms = new Set<string>()
    for (const f of FIELDS) {
      sum[f] = (sum[f] ?? 0) + (d.len[f] ?? 0)
      for (const [t] of d.tf[f] ?? []) terms.add(t)
    }
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1)
  }
  const avgLen: Partial<Record<Field, number>> = {}
  for (const f of FIELDS) avgLen[f] = docs.length ? (sum[f] ?? 0) / docs.length : 0
  return {n: docs.length, df: t => df.get(t) ?? 0, avgLen}
}

export function bm25(doc: CardDoc, pv: PromptView, stats: CorpusStats): number {
  const fields = FIELDS.map(f => [f, new Map(doc.tf[f] ?? [])] as const)
  let score = 0
  for (const [term, qw] of pv.active) {
    if (qw === 0) continue
    // The same two functions give the index's rank bounds (topk.ts): one formula, so a bound never falls below a rank.
    let tf = 0
    for (const [f, counts] of fields) {
      const c = counts.get(term)
      if (c) tf += c * fieldWeight(f, doc.len[f] ?? 0, stats.avgLen[f] ?? 0)
    }
    score += qw * termImpact(tf, stats.n, stats.df(term))
  }
  return Math.round(score * 1000) / 1000
}

/**
 * What one count of a term in field f adds to a card's tf (bm25's field weight over the field's
 * length norm), and what a term of tf adds per unit of prompt weight (idf × saturated tf). The index
 * stores the second, rounded up, per posting, so the prompt hook can rank candidates before
 * decoding them (topk.ts); bm25 itself stays the measure.
 */
export const fieldWeight = (f: Field, len: number, avgLen: number): number =>
  FIELD_WEIGHTS[f] / (1 - B + (B * len) / (avgLen || 1))

export function termImpact(tf: number, n: number, df: number): number {
  if (tf === 0) return 0
  const d = Math.max(1, df)
  return Math.log(1 + (n - d + 0.5) / (d + 0.5)) * (tf / (K1 + tf))
}
