import type {PromptRecallResult} from '../app/prompt-recall.js'

/** The --explain trail as JSON: the prompt's signals and mentions, then every card considered. */
export function explainData(r: PromptRecallResult) {
  const p = r.prompt
  return {
    signals: [...p.signals.values()],
    mentions: p.spans.map(s => ({kind: s.kind, marker: s.marker, text: p.text.slice(s.start, s.end)})),
    /** Terms the lexicon added to the prompt: each with the prompt's key and the form it belongs to. */
    expansions: [...p.expanded].map(([term, {key, form}]) => ({term, key, form})),
    cards: r.match.considered.map(c => ({
      id: c.doc.id,
      store: c.doc.store,
      path: c.doc.path,
      policy: c.doc.policy,
      verdict: c.verdict,
      admitted: c.admitted,
      selected: c.selected,
      gates: c.gates,
      admission: {
        score: c.evidence.score,
        evidence: c.evidence.positive,
        near_miss_penalty: c.evidence.penalty,
        threshold: 0.5,
        matches: c.evidence.matches,
        near_miss: c.evidence.nearMiss,
        query_coverage: c.evidence.queryCoverage,
      },
      rank: c.rank,
    })),
  }
}
