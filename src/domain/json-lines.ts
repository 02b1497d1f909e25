/** Past this many lines that start like an object and do not parse, the text is no JSON-lines file of ours. */
export const MAX_BAD_LINES = 100

/**
 * The objects of a JSON-lines text (a transcript, the event ledger), in order. A line that does not start with
 * `{` is skipped before JSON.parse can throw on it (a throw costs about 20 µs, so a committed file of `{` lines
 * would hold a hook for seconds), and reading stops after MAX_BAD_LINES torn ones.
 */
export function jsonLines(text: string): unknown[] {
  const out: unknown[] = []
  let bad = 0
  for (const line of text.split('\n')) {
    if (line.trimStart()[0] !== '{') continue
    try {
      out.push(JSON.parse(line))
    } catch {
      if (++bad >= MAX_BAD_LINES) break
    }
  }
  return out
}
