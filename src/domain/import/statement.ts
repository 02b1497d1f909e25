/** A list item's marker at the start of a line: `-`, `*`, `+` or a number with `.` or `)`. */
export const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+/m

/**
 * The first sentence or bullet of a text, as a card's summary: never a line of a code block or an HTML comment, and,
 * when the text has a statement after them, never a lead-in ("Follow these rules:") or a line of code or a path alone
 * (`{`, `tests/`, `bun run db:generate`).
 */
export function firstStatement(body: string): string {
  const lines = proseLines(body)
  const line = lines.find(l => !leadIn(l) && !codeLike(l)) ?? lines[0] ?? body.trim()
  const sentence = /^(.+?[.!?。！？])(\s|$)/.exec(line)?.[1] ?? line
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence
}

/** The text's lines outside code fences and HTML comments, bullets and quote marks taken off, headings left out. */
function proseLines(body: string): string[] {
  const out: string[] = []
  let fence: string | null = null
  let comment = false
  for (const raw of body.split('\n')) {
    const t = raw.trim()
    if (fence) {
      if (t.startsWith(fence)) fence = null
      continue
    }
    if (comment) {
      if (t.includes('-->')) comment = false
      continue
    }
    const open = /^(`{3,}|~{3,})/.exec(t)
    if (open) {
      fence = open[1]
      continue
    }
    if (t.startsWith('<!--')) {
      comment = !t.includes('-->')
      continue
    }
    const line = t.replace(BULLET, '').replace(/^>\s*/, '').trim()
    if (line && !line.startsWith('#') && !/^\|?[\s:|-]+\|?$/.test(line)) out.push(line)
  }
  return out
}

/** A line that only introduces what follows: it ends with a colon. */
const leadIn = (line: string): boolean => /[:：]$/.test(line)

const COMMAND =
  /^\$?\s*(npm|npx|pnpm|yarn|bun|bunx|git|make|docker|kubectl|python3?|pip|pytest|go|cargo|node|deno|uv|poetry|dotnet|mvn|gradle|\.\/\S+)\s/

/** A line of code, a command or a path alone: one inline code span, a brace, or one token with a slash or no letters. */
function codeLike(line: string): boolean {
  if (/^`[^`]+`$/.test(line) || /^[{}[\]();]+$/.test(line) || COMMAND.test(line)) return true
  return !/\s/.test(line) && (/[/\\]/.test(line) || !/\p{L}/u.test(line))
}
