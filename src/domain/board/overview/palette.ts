import type {Mark} from './model.js'

/** Colour says kind, never importance (area does that): soft fills dark text reads on, with a deeper edge of the same hue. */
export interface Swatch {
  fill: string
  edge: string
  /** The fill mixed half with white: hatching of the free budget inside an item of this kind. */
  pale: string
}

const KNOWN: Record<string, [string, string]> = {
  topic: ['#cfdcf2', '#4d6fae'],
  request: ['#f7d3a6', '#b96c1c'],
  result: ['#c6e6cd', '#3f8a4f'],
  progress: ['#ddd5f3', '#6c5bb0'],
  finding: ['#f2e4a7', '#94761c'],
}
const OTHERS: [string, string][] = [
  ['#f3cad3', '#ad4f68'],
  ['#c3e3e8', '#33818c'],
  ['#e7d6c7', '#8a6547'],
  ['#d8e7ba', '#5f7f2c'],
  ['#d5dae2', '#5b6576'],
]

export function swatch(kind: string): Swatch {
  let pair = KNOWN[kind]
  if (!pair) {
    let h = 0
    for (const c of kind) h = (h * 31 + c.charCodeAt(0)) % 9973
    pair = OTHERS[h % OTHERS.length]
  }
  return {fill: pair[0], edge: pair[1], pale: mix(pair[0], 0.5)}
}

export const INK = '#1f2328'
export const MUTED = '#57606a'
export const FREE = {fill: '#f6f7f9', line: '#e2e5e9'}
export const NOT_SHOWN = {fill: '#c9ced6', line: '#b3b9c2'}
export const OVER = '#cf222e'

/** How a mark is drawn: an outline inside the box and a badge in its corner. */
export interface MarkStyle {
  colour: string
  dash: string | null
  /** The badge's glyph, drawn as strokes in a 14 × 14 box (no font needed). */
  glyph: string
  legend: string
}

export const MARKS: Record<Mark | 'over' | 'note', MarkStyle> = {
  added: {colour: '#1a7f37', dash: null, glyph: 'M7 3.5v7M3.5 7h7', legend: 'added'},
  changed: {colour: '#b35900', dash: '6 3', glyph: 'M7 3.6L10.6 10.2H3.4Z', legend: 'changed'},
  moved_in: {colour: '#0969da', dash: '2 3', glyph: 'M3.5 7h6.5M7.5 4.5L10 7l-2.5 2.5', legend: 'moved in'},
  moved_out: {colour: '#6e7781', dash: '2 3', glyph: 'M4.5 9.5l5-5M5.5 4.5h4v4', legend: 'moved out'},
  withdrawn: {colour: '#6e7781', dash: '4 3', glyph: 'M4.5 4.5l5 5M9.5 4.5l-5 5', legend: 'withdrawn / merged'},
  merged: {colour: '#6e7781', dash: '4 3', glyph: 'M4.5 4.5l5 5M9.5 4.5l-5 5', legend: 'withdrawn / merged'},
  conflict: {
    colour: '#cf222e',
    dash: null,
    glyph: 'M7 3.3v4.6M7 10.2v.3',
    legend: 'conflict (changed on two branches)',
  },
  over: {colour: OVER, dash: '5 3', glyph: 'M7 10.6V3.6M4.4 6.2L7 3.6l2.6 2.6', legend: 'over budget'},
  note: {colour: '#57606a', dash: null, glyph: 'M4 5.2h6M4 8h4', legend: 'saved annotation'},
}

/** Marks that leave the item's fill pale: it is no longer in this layer. */
export const GONE: Mark[] = ['withdrawn', 'merged', 'moved_out']

function mix(hex: string, white: number): string {
  const n = Number.parseInt(hex.slice(1), 16)
  const c = [n >> 16, (n >> 8) & 255, n & 255].map(v => Math.round(v + (255 - v) * white))
  return `#${c.map(v => v.toString(16).padStart(2, '0')).join('')}`
}
