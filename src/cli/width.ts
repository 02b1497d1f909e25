import stringWidth from 'string-width'

/**
 * Terminal columns, not UTF-16 units: a CJK character or an emoji takes two columns, a combining
 * mark none, and colour escapes none. Every column cairn aligns is padded through here.
 */
export const displayWidth = (text: string): number => stringWidth(text)

/** text followed by spaces up to width columns (never cut: a long cell pushes its row out instead). */
export const padEnd = (text: string, width: number): string =>
  text + ' '.repeat(Math.max(0, width - displayWidth(text)))
