/**
 * cairn's own colour, decided per stream the way ansis (the colour library of oclif's help)
 * decides it, so help and output agree:
 * - NO_COLOR set and not empty: no colour, whatever else is set;
 * - else FORCE_COLOR set: colour, unless it is "0" or "false", even off a terminal;
 * - else colour only when the stream is a terminal and TERM is not "dumb".
 * Unlike ansis, a CI variable or COLORTERM never turns colour on off a terminal: logs stay plain.
 * Only text meant for a terminal is painted: never --json, never a hook's output, never a file.
 */

export interface Palette {
  red(text: string): string
  yellow(text: string): string
  green(text: string): string
  bold(text: string): string
}

type Env = Record<string, string | undefined>

export function colourEnabled(stream: {isTTY?: boolean}, env: Env = process.env): boolean {
  if (env.NO_COLOR) return false
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  return stream.isTTY === true && env.TERM !== 'dumb'
}

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`
const plain = (text: string) => text

export const PLAIN: Palette = {red: plain, yellow: plain, green: plain, bold: plain}
const COLOUR: Palette = {red: sgr(31, 39), yellow: sgr(33, 39), green: sgr(32, 39), bold: sgr(1, 22)}

/** The palette for text written to this stream: real colours, or none at all. */
export const paletteFor = (stream: {isTTY?: boolean}, env: Env = process.env): Palette =>
  colourEnabled(stream, env) ? COLOUR : PLAIN
