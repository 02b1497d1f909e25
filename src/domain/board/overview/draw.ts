import {FREE, swatch} from './palette.js'
import type {Rect} from './treemap.js'

/** SVG text for the overview's pictures: numbers to three decimals, escaped text, and free budget's hatching. */

export type {Rect}

export const geom = (r: Rect): string => `x="${num(r.x)}" y="${num(r.y)}" width="${num(r.w)}" height="${num(r.h)}"`
export const num = (n: number): string => String(Math.round(n * 1000) / 1000)
/** How a text is set: font size, fill colour and optional font weight. */
export interface Font {
  size: number
  fill: string
  weight?: number
}
export const text = (x: number, y: number, {size, fill, weight}: Font, s: string): string =>
  `<text x="${num(x)}" y="${num(y)}" font-size="${size}" fill="${fill}"${weight ? ` font-weight="${weight}"` : ''}>${esc(s)}</text>`
export const esc = (s: string): string =>
  s.replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]!)

/** Free budget's colours (ground, lines): neutral in a layer's own rectangle, a tint of the parent's kind inside it. */
export const hatchColours = (parentKind: string | null): [string, string] =>
  parentKind === null ? [FREE.fill, FREE.line] : [swatch(parentKind).pale, swatch(parentKind).fill]

const HATCH = 11

/**
 * Diagonal lines over a rect, cut to it exactly and drawn without anti-aliasing: several times cheaper to rasterise
 * than a pattern fill, which is sampled at every pixel. The lines sit on one grid, so neighbouring regions line up.
 */
export function hatch(r: Rect, colour: string): string {
  const d: string[] = []
  for (let c = Math.ceil((r.x + r.y) / HATCH) * HATCH; c <= r.x + r.w + r.y + r.h; c += HATCH) {
    const x0 = Math.max(r.x, c - (r.y + r.h))
    const x1 = Math.min(r.x + r.w, c - r.y)
    if (x1 - x0 > 0.5) d.push(`M${num(x0)} ${num(c - x0)}L${num(x1)} ${num(c - x1)}`)
  }
  return d.length
    ? `<path d="${d.join('')}" stroke="${colour}" stroke-width="2" fill="none" shape-rendering="crispEdges"/>`
    : ''
}

/** A badge's side, px. */
export const BADGE = 14

/** A badge: the mark's colour, its glyph drawn in white (boxes and the legend draw the same one). */
export const badge = (style: {colour: string; glyph: string}): string =>
  `<rect width="${BADGE}" height="${BADGE}" rx="3" fill="${style.colour}"/>` +
  `<path d="${style.glyph}" fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/>`
