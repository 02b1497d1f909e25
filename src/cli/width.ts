import {createRequire} from 'node:module'

type Width = (text: string) => number
let stringWidth: Width | undefined

/**
 * string-width compiles Unicode property patterns and an Intl.Segmenter as it loads, which every
 * command would pay at start. Plain printable ASCII is as wide as it is long, so the library is
 * loaded (an ES module, through require: Node 20.19 and later) only on the first other text.
 */
const library = (): Width =>
  (stringWidth ??= (createRequire(import.meta.url)('string-width') as {default: Width}).default)

/**
 * Terminal columns, not UTF-16 units: a CJK character or an emoji takes two columns, a combining
 * mark none, and colour escapes none. Every column cairn aligns is padded through here.
 */
export const displayWidth = (text: string): number => (/^[\x20-\x7e]*$/.test(text) ? text.length : library()(text))

/** text followed by spaces up to width columns (never cut: a long cell pushes its row out instead). */
export const padEnd = (text: string, width: number): string =>
  text + ' '.repeat(Math.max(0, width - displayWidth(text)))

/**
 * The columns cairn's text may take: the terminal's when the stream is one (20 at the least), else $COLUMNS, else 100
 * (a pipe, a file, an agent's tool call). Table rows are cut to it (cairn log) and prose is folded to it (review).
 * --json output is never cut.
 */
export function terminalColumns(stream: {isTTY?: boolean; columns?: number} = process.stdout): number {
  if (stream.isTTY && stream.columns && stream.columns > 0) return Math.max(20, stream.columns)
  const env = Number.parseInt(process.env.COLUMNS ?? '', 10)
  return env > 0 ? env : 100
}

/** text cut to at most width columns, ending with "…" when cut (never inside a character). */
export function clip(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  let out = ''
  let used = 0
  for (const ch of text) {
    const w = displayWidth(ch)
    if (used + w > width - 1) break
    out += ch
    used += w
  }
  return `${out}…`
}

const CJK_CHAR = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u

/**
 * The text folded to width columns: each line broken at spaces, and between two CJK characters, where a line would
 * run past the width; a word wider than a whole line is cut. A folded line's continuation keeps its indentation, so
 * an indented rule or a list item stays in its column. Lines that fit are left as they are.
 */
export function wrap(text: string, width: number): string {
  return text
    .split('\n')
    .map(line => (displayWidth(line) <= width ? line : foldLine(line, width)))
    .join('\n')
}

/** Words, single spaces and single CJK characters: the places a line may break are between them. */
const pieces = (text: string): string[] => text.match(/ +|[^ ]/gu)?.reduce<string[]>(joinWord, []) ?? []

function joinWord(out: string[], ch: string): string[] {
  const last = out.at(-1)
  const word = (s: string) => s !== ' ' && !s.startsWith(' ') && !CJK_CHAR.test(s)
  if (last !== undefined && word(last) && word(ch)) out[out.length - 1] = last + ch
  else out.push(ch)
  return out
}

function foldLine(line: string, width: number): string {
  const indent = /^ */.exec(line)![0]
  // A list item continues under its text, not under its dash.
  const hang = indent + (/^ *- /.test(line) ? '  ' : '')
  const room = Math.max(10, width - displayWidth(hang))
  const out: string[] = []
  let current = indent
  let used = displayWidth(indent)
  const limit = () => (out.length ? displayWidth(hang) + room : width)
  for (const piece of pieces(line.slice(indent.length))) {
    const w = displayWidth(piece)
    if (used + w <= limit()) {
      current += piece
      used += w
      continue
    }
    if (piece.startsWith(' ')) {
      out.push(current.trimEnd())
      current = hang
      used = displayWidth(hang)
      continue
    }
    if (current.trim()) out.push(current.trimEnd())
    current = hang
    used = displayWidth(hang)
    // A word wider than a whole line is cut where the line ends.
    for (const ch of [...piece]) {
      const cw = displayWidth(ch)
      if (used + cw > displayWidth(hang) + room) {
        out.push(current)
        current = hang
        used = displayWidth(hang)
      }
      current += ch
      used += cw
    }
  }
  if (current.trim()) out.push(current.trimEnd())
  return out.join('\n')
}
