import {distance} from 'fastest-levenshtein'

/**
 * The candidates closest to a mistyped word, nearest first: within a third of the word's length
 * (at least 2 edits), or holding it whole. At most `limit`; none when nothing is close.
 */
export function closest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase()
  const scored: {c: string; d: number}[] = []
  for (const c of new Set(candidates)) {
    const d = distance(w, c.toLowerCase())
    const near = d <= Math.max(2, Math.floor(w.length / 3)) || (w.length >= 4 && c.toLowerCase().includes(w))
    if (near && d > 0) scored.push({c, d})
  }
  return scored
    .sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : 1))
    .slice(0, limit)
    .map(x => x.c)
}

/** "Did you mean …?" for an error message: one, two or three quoted candidates, or ''. */
export function didYouMean(options: string[]): string {
  if (!options.length) return ''
  const quoted = options.map(o => `"${o}"`)
  return ` Did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`}?`
}
