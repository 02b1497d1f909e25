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
 * The columns a line of output may take: the terminal's when stdout is one, else $COLUMNS, else 100 (a pipe, a file,
 * an agent's tool call). --json output is never cut.
 */
export function outputColumns(stream: {isTTY?: boolean; columns?: number} = process.stdout): number {
  if (stream.isTTY && stream.columns && stream.columns > 0) return stream.columns
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
