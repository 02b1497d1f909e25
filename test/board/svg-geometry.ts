import {expect} from 'vitest'
import {textWidth} from '../../src/domain/board/overview/text.js'

/** The geometry of an overview SVG, read back from the elements it emits (never from pixels). */
export interface SvgRect {
  x: number
  y: number
  w: number
  h: number
  attrs: Record<string, string>
}

const attrsOf = (s: string): Record<string, string> =>
  Object.fromEntries([...s.matchAll(/([\w:-]+)="([^"]*)"/g)].map(m => [m[1], m[2]]))

export function rects(svg: string): SvgRect[] {
  return [...svg.matchAll(/<rect\b([^>]*?)\/?>/g)].map(m => {
    const attrs = attrsOf(m[1])
    return {x: Number(attrs.x ?? 0), y: Number(attrs.y ?? 0), w: Number(attrs.width), h: Number(attrs.height), attrs}
  })
}

export interface SvgText {
  x: number
  y: number
  size: number
  anchor: string | null
  /** A parent's name tag: it lies over the parent's children, inside the parent's box. */
  chip: boolean
  text: string
}

const unescape = (s: string): string =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ({amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'"})[e as string]!)

/** Text elements at the top level of the picture (not the legend's, which sit in translated groups). */
export function texts(svg: string): SvgText[] {
  return [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map(m => {
    const a = attrsOf(m[1])
    return {
      x: Number(a.x),
      y: Number(a.y),
      size: Number(a['font-size']),
      anchor: a['text-anchor'] ?? null,
      chip: a.class === 'chip',
      text: unescape(m[2]),
    }
  })
}

const area = (r: SvgRect): number => r.w * r.h
const inside = (a: SvgRect, b: SvgRect): boolean =>
  a.x >= b.x - 1e-3 && a.y >= b.y - 1e-3 && a.x + a.w <= b.x + b.w + 1e-3 && a.y + a.h <= b.y + b.h + 1e-3

/** [end, layer, box kind, item, share] of every box, in the order drawn. */
export type BoxRow = [string, string, string, string | null, number]

/**
 * Checks every box of an overview SVG: inside its container (the layer's frame, or the parent item's box for a
 * nested child layer), area / container area = share / max(budget, used) within 1%, and the boxes of a container
 * tiling it exactly. Returns the boxes as rows for exact assertions.
 */
export function measuredBoxes(svg: string): BoxRow[] {
  const all = rects(svg)
  const frames = all.filter(r => r.attrs['data-frame'] !== undefined)
  const boxes = all.filter(r => r.attrs['data-box'] !== undefined)
  expect(frames.length).toBeGreaterThan(0)
  const containers = new Map<string, {rect: SvgRect; total: number; filled: number}>()
  for (const f of frames)
    containers.set(`${f.attrs['data-end']}|${f.attrs['data-layer']}`, {
      rect: f,
      total: Math.max(Number(f.attrs['data-budget']), Number(f.attrs['data-used'])),
      filled: 0,
    })
  for (const b of boxes) {
    if (b.attrs['data-child-budget'] === undefined) continue
    containers.set(`${b.attrs['data-end']}|${b.attrs['data-item']}`, {
      rect: b,
      total: Math.max(Number(b.attrs['data-child-budget']), Number(b.attrs['data-child-used'])),
      filled: 0,
    })
  }
  const rows: BoxRow[] = []
  for (const b of boxes) {
    const share = Number(b.attrs['data-share'])
    const where = `${b.attrs['data-end']}|${b.attrs['data-layer']}`
    const c = containers.get(where)
    expect(c, `container of ${b.attrs['data-item'] ?? b.attrs['data-box']} (${where})`).toBeDefined()
    const expected = share / c!.total
    expect(
      Math.abs(area(b) / area(c!.rect) - expected),
      `${where} ${b.attrs['data-item'] ?? b.attrs['data-box']}`,
    ).toBeLessThan(0.01 * expected)
    expect(inside(b, c!.rect), `${b.attrs['data-item']} inside ${where}`).toBe(true)
    c!.filled += area(b)
    rows.push([b.attrs['data-end'], b.attrs['data-layer'], b.attrs['data-box'], b.attrs['data-item'] ?? null, share])
  }
  for (const [where, c] of containers)
    if (c.filled) expect(Math.abs(c.filled / area(c.rect) - 1), `${where} is tiled exactly`).toBeLessThan(0.001)
  return rows
}

/** Every label inside a box stays inside it, measured with the shipped font's advances. */
export function labelsFit(svg: string): number {
  const boxes = rects(svg).filter(r => r.attrs['data-box'] !== undefined)
  let checked = 0
  for (const t of texts(svg)) {
    const w = textWidth(t.text, t.size)
    const left = t.anchor === 'middle' ? t.x - w / 2 : t.x
    const probe = {x: left, y: t.y - t.size * 0.7, w, h: t.size * 0.9, attrs: {}}
    const home = boxes
      .filter(
        b =>
          b.x <= probe.x + 1e-3 &&
          probe.x < b.x + b.w &&
          b.y <= probe.y + 1e-3 &&
          probe.y <= b.y + b.h &&
          (!t.chip || b.attrs['data-child-budget']),
      )
      .sort((a, b) => area(a) - area(b))[0]
    if (!home) continue
    expect(left + w, `"${t.text}" overflows its box`).toBeLessThanOrEqual(home.x + home.w + 1e-3)
    expect(t.y, `"${t.text}" below its box`).toBeLessThanOrEqual(home.y + home.h + 1e-3)
    checked++
  }
  return checked
}
