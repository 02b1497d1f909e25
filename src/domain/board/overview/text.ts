import {ADVANCE_RUNS, DEFAULT_ADVANCE, FONT_FAMILY, UNITS_PER_EM} from './font-metrics.js'

/** The family to name in SVG font-family: the only font the PNG rasteriser loads (data/fonts/cairn-sans.ttf). */
export {FONT_FAMILY}

const ELLIPSIS = '…'

const ADVANCES = new Map<number, number>()
for (const [start, ...widths] of ADVANCE_RUNS) widths.forEach((w, i) => ADVANCES.set(start + i, w))

/**
 * What the shaper hides: the default-ignorable characters (joiners, bidi controls, variation selectors, soft hyphen),
 * except the Hangul fillers. Non-spacing marks it draws with no advance.
 */
const HIDDEN = /(?![\u115f\u1160\u3164\uffa0])\p{Default_Ignorable_Code_Point}/u
const NON_SPACING = /\p{Mn}/u
/** What joins the cluster before it: marks, a zero-width joiner, emoji modifiers, tag characters. */
const JOINS = /[\p{M}\u200d\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u
const PICTOGRAPH = /\p{Extended_Pictographic}/u
/** Text of Latin letters (no marks below U+0300) and hanzi only: nothing hides, joins, composes or splits a grapheme. */
const SIMPLE = /^[\u0020-\u00ac\u00ae-\u02ff\u3400-\u9fff]*$/

const PLAIN = 0
const HIDES = 1
const NO_ADVANCE = 2
const JOINS_BEFORE = 4
const PICTOGRAPHIC = 8
const kinds = new Map<number, number>()

/** What the shaper does with a character, as bits; looked up once per character. */
function kindOf(ch: string, cp: number): number {
  let kind = kinds.get(cp)
  if (kind === undefined) {
    kind =
      (HIDDEN.test(ch) ? HIDES : 0) |
      (NON_SPACING.test(ch) ? NO_ADVANCE : 0) |
      (JOINS.test(ch) ? JOINS_BEFORE : 0) |
      (PICTOGRAPH.test(ch) ? PICTOGRAPHIC : 0)
    kinds.set(cp, kind)
  }
  return kind
}

const COMPOSABLE = /\P{M}\p{M}+/gu

/**
 * A letter takes in each mark after it where the font has the combined character (e + U+0301 is é), as the shaper
 * composes them; marks that do not combine stay as they are.
 */
function compose(text: string): string {
  return text.replace(COMPOSABLE, seq => {
    const [base, ...marks] = seq
    let head = base
    let rest = ''
    for (const mark of marks) {
      const one = `${head}${mark}`.normalize('NFC')
      const cp = one.codePointAt(0) as number
      if (one.length === String.fromCodePoint(cp).length && ADVANCES.has(cp)) head = one
      else rest += mark
    }
    return head + rest
  })
}

/** SVG text without xml:space: line breaks and tabs are spaces, runs of spaces are one, ends are trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[ \t\n\r]+/g, ' ').trim()
}

/** One character to draw: where its glyph's origin goes, in font units from the start of the text. */
export interface PlacedChar {
  codePoint: number
  x: number
}

/**
 * Lays text out as resvg does, in font units; `place` gets each character that leaves ink or could. The shaper groups
 * a character with the marks and joined characters after it (an emoji after a zero-width joiner) into a cluster; a
 * cluster's glyphs follow one another, and the text advances over it by its widest glyph. A character the font lacks
 * is a .notdef glyph, which is DEFAULT_ADVANCE wide too. Returns the advance of the whole text.
 */
function walk(text: string, place?: (char: PlacedChar) => void): number {
  let start = 0
  let cluster = 0
  let inCluster = 0
  let afterJoiner = false
  for (const ch of SIMPLE.test(text) ? text : compose(text)) {
    const cp = ch.codePointAt(0) as number
    const kind = (cp < 0x300 && cp !== 0xad) || (cp >= 0x3400 && cp <= 0x9fff) ? PLAIN : kindOf(ch, cp)
    const hidden = (kind & HIDES) !== 0
    const width = kind & (HIDES | NO_ADVANCE) ? 0 : (ADVANCES.get(cp) ?? DEFAULT_ADVANCE)
    if (kind & JOINS_BEFORE || (afterJoiner && kind & PICTOGRAPHIC)) {
      cluster = Math.max(cluster, width)
    } else {
      start += cluster
      cluster = width
      inCluster = 0
    }
    if (place && !hidden) place({codePoint: cp, x: start + inCluster})
    inCluster += width
    afterJoiner = cp === 0x200d
  }
  return start + cluster
}

const units = (text: string): number => walk(text)

/** Where each character of text (whitespace collapsed, as SVG does) is drawn, and its advance, in font units. */
export function layoutText(text: string): {chars: PlacedChar[]; advance: number} {
  const chars: PlacedChar[] = []
  const advance = walk(collapseWhitespace(text), c => chars.push(c))
  return {chars, advance}
}

const px = (advance: number, fontSize: number): number => (advance * fontSize) / UNITS_PER_EM

/**
 * The width in px of text drawn in the shipped font at fontSize, as the rasteriser lays it out: whitespace collapses
 * as in SVG, and a character the font lacks is drawn as .notdef, one em wide. The font has no kerning, so this is exact.
 */
export function textWidth(text: string, fontSize: number): number {
  return px(units(collapseWhitespace(text)), fontSize)
}

const graphemes = new Intl.Segmenter(undefined, {granularity: 'grapheme'})

/**
 * The text (whitespace collapsed) when it fits in maxWidth px at fontSize; else its longest prefix of whole graphemes
 * that fits followed by "…"; '' when not even "…" fits.
 */
export function fitLabel(text: string, maxWidth: number, fontSize: number): string {
  const label = collapseWhitespace(text)
  if (px(units(label), fontSize) <= maxWidth) return label
  const ellipsis = units(ELLIPSIS)
  if (px(ellipsis, fontSize) > maxWidth) return ''
  // Summed in font units and scaled once, as textWidth does, so the result measures exactly as it was checked here.
  let used = ellipsis
  let end = 0
  // In simple text every character is a grapheme of its own, and segmenting costs more than all the rest.
  const pieces = SIMPLE.test(label) ? label : Array.from(graphemes.segment(label), g => g.segment)
  for (const piece of pieces) {
    used += units(piece)
    if (px(used, fontSize) > maxWidth) break
    end += piece.length
  }
  return `${label.slice(0, end).trimEnd()}${ELLIPSIS}`
}
