/** A unified diff of two texts, as `diff -u` prints it (3 lines of context), for --dry-run. */

const CONTEXT = 3

interface Line {
  op: ' ' | '-' | '+'
  text: string
  /** 1-based line numbers in the old and the new text (the one the line is in). */
  a: number
  b: number
}

/** Lines of a text; a missing final newline is said as diff says it. */
function lines(text: string | null): string[] {
  if (text === null || text === '') return []
  const out = text.split('\n')
  if (out[out.length - 1] === '') out.pop()
  else out[out.length - 1] += '\n\\ No newline at end of file'
  return out
}

/** The edit script by longest common subsequence: settings files are small, so O(n·m) is fine. */
function script(a: string[], b: string[]): Line[] {
  const n = a.length
  const m = b.length
  const lcs = Array.from({length: n + 1}, () => new Uint32Array(m + 1))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1])
    }
  }
  const out: Line[] = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) out.push({op: ' ', text: a[i++], a: i, b: ++j})
    // Removals before additions within a change, as diff prints them.
    else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) out.push({op: '-', text: a[i++], a: i, b: j})
    else out.push({op: '+', text: b[j++], a: i, b: j})
  }
  return out
}

/**
 * `--- a/file`, `+++ b/file` and the hunks; '' when the texts are equal. null is a missing file.
 * Without `git` the names go as given (an absolute path outside any repository).
 */
export function unifiedDiff(file: string, before: string | null, after: string | null, git = true): string {
  if (before === after) return ''
  const edits = script(lines(before), lines(after))
  const changed = edits.flatMap((e, k) => (e.op === ' ' ? [] : [k]))
  if (changed.length === 0) return ''
  const hunks: string[] = []
  let k = 0
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - CONTEXT)
    let end = changed[k]
    while (k < changed.length && changed[k] <= end + 2 * CONTEXT) end = changed[k++]
    const slice = edits.slice(start, Math.min(edits.length, end + CONTEXT + 1))
    const aCount = slice.filter(e => e.op !== '+').length
    const bCount = slice.filter(e => e.op !== '-').length
    const aStart = aCount === 0 ? slice[0].a : (slice.find(e => e.op !== '+')?.a ?? 0)
    const bStart = bCount === 0 ? slice[0].b : (slice.find(e => e.op !== '-')?.b ?? 0)
    hunks.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`, ...slice.map(e => `${e.op}${e.text}`))
  }
  const from = before === null ? '/dev/null' : git ? `a/${file}` : file
  const to = after === null ? '/dev/null' : git ? `b/${file}` : file
  return [`--- ${from}`, `+++ ${to}`, ...hunks].join('\n')
}
