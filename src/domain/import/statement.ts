/** A list item's marker at the start of a line: `-`, `*`, `+` or a number with `.` or `)`. */
export const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+/m

/**
 * The first sentence or bullet of a text, as a card's summary: never a line of a code block or an HTML comment, and,
 * when the text has a statement after them, never a lead-in ("Follow these rules:") or a line of code or a path alone
 * (`{`, `tests/`, `bun run db:generate`).
 */
export function firstStatement(body: string): string {
  const {lines, table, code, heading} = proseLines(body)
  const line =
    lines.find(l => !leadIn(l) && !codeLike(l)) ?? lines[0] ?? ((table && tableGist(table)) || code || heading || '')
  const sentence = firstSentence(line)
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence
}

/** Abbreviations whose dot ends no sentence ("e.g.", "i.e.", "etc."), lowercase, without the dot. */
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'cf',
  'incl',
  'approx',
  'esp',
  'resp',
  'no',
  'mr',
  'dr',
  'st',
])

/** The run of non-space characters the text ends with, read back from its end (a regex would be quadratic). */
function lastWord(text: string): string {
  let i = text.length
  while (i > 0 && !/\s/.test(text[i - 1])) i--
  return text.slice(i)
}

/** The line up to the end of its first sentence: a stop and a space, never the dot of an abbreviation or a number. */
function firstSentence(line: string): string {
  for (const m of line.matchAll(/[.!?。！？](?=\s|$)|[。！？]/g)) {
    const end = m.index + 1
    if (m[0] === '.') {
      const word = lastWord(line.slice(0, m.index))
        .replace(/^[(\["'`]+/, '')
        .toLowerCase()
      if (ABBREVIATIONS.has(word) || /^[a-z]$/i.test(word)) continue
    }
    return line.slice(0, end)
  }
  return line
}

/** A table as a statement: its header's cells, then the first cells of its first rows ("type / when: feat, fix"). */
function tableGist(rows: string[]): string {
  const cells = (row: string) =>
    row
      .replace(/^\||\|$/g, '')
      .split('|')
      .map(c => c.trim())
  const [head, ...rest] = rows.filter(r => !/^\|?[\s:|-]+\|?$/.test(r))
  // A table of separator rows alone says nothing.
  if (head === undefined) return ''
  const firsts = rest.map(r => cells(r)[0]).filter(Boolean)
  const listed = firsts.slice(0, 4).join(', ') + (firsts.length > 4 ? ', …' : '')
  return `${cells(head).filter(Boolean).join(' / ')}${listed ? `: ${listed}` : ''}`
}

interface Prose {
  /** Paragraphs (a hard-wrapped one joined into a line) and list items, outside code and comments, headings left out. */
  lines: string[]
  /** The first table's rows, when there is one. */
  table?: string[]
  /** The first line of the first code block. */
  code?: string
  /** The first heading's text. */
  heading?: string
}

/** The text's prose outside code fences and HTML comments: bullets and quote marks taken off, wrapped lines joined. */
function proseLines(body: string): Prose {
  const out: Prose = {lines: []}
  let fence: string | null = null
  let comment = false
  let paragraph: string[] = []
  let rows: string[] | null = null
  const end = () => {
    if (paragraph.length) out.lines.push(paragraph.join(' '))
    paragraph = []
  }
  for (const raw of body.split('\n')) {
    const t = raw.trim()
    if (fence) {
      if (t.startsWith(fence)) fence = null
      else if (t && out.code === undefined) out.code = t
      continue
    }
    if (comment) {
      if (t.includes('-->')) comment = false
      continue
    }
    const open = /^(`{3,}|~{3,})/.exec(t)
    if (open) {
      end()
      fence = open[1]
      continue
    }
    if (t.startsWith('<!--')) {
      end()
      comment = !t.includes('-->')
      continue
    }
    if (t.startsWith('|') && t.endsWith('|') && t.length > 1) {
      end()
      if (!out.table) rows = out.table = []
      if (rows) rows.push(t)
      continue
    }
    rows = null
    if (!t || /^([-*_])(\s*\1){2,}$/.test(t)) {
      end()
      continue
    }
    if (t.startsWith('#')) {
      end()
      out.heading ??= t.replace(/^#+\s*/, '').replace(/\s*#+$/, '')
      continue
    }
    const item = BULLET.test(t) || t.startsWith('>')
    const line = t.replace(BULLET, '').replace(/^>\s*/, '').trim()
    // A list item starts a line of its own; a line after a sentence's end, or after a lead-in, starts another.
    if (item || (paragraph.length && /[.!?。！？:：]$/.test(paragraph[paragraph.length - 1]))) end()
    if (line) paragraph.push(line)
  }
  end()
  return out
}

/** A line that only introduces what follows: it ends with a colon (inside emphasis too: "**Before you push:**"). */
const leadIn = (line: string): boolean => /[:：]$/.test(line.replace(/[*_]+$/, ''))

const COMMAND =
  /^\$?\s*(npm|npx|pnpm|yarn|bun|bunx|git|make|docker|kubectl|python3?|pip|pytest|go|cargo|node|deno|uv|poetry|dotnet|mvn|gradle|\.\/\S+)\s/

/** A line of code, a command or a path alone: one inline code span, a brace, or one token with a slash or no letters. */
function codeLike(line: string): boolean {
  if (/^`[^`]+`$/.test(line) || /^[{}[\]();]+$/.test(line) || COMMAND.test(line)) return true
  return !/\s/.test(line) && (/[/\\]/.test(line) || !/\p{L}/u.test(line))
}
