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
