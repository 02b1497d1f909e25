/** A TrueType font's glyph outlines, by character. */
export interface Glyphs {
  /** The glyph's outline as SVG path data in font units, y up; '' when it leaves no ink; undefined when not in the font. */
  path(codePoint: number): string | undefined
}

const ON_CURVE = 0x01
const X_SHORT = 0x02
const Y_SHORT = 0x04
const REPEAT = 0x08
const X_SAME_OR_POSITIVE = 0x10
const Y_SAME_OR_POSITIVE = 0x20

interface Point {
  x: number
  y: number
  on: boolean
}

function tables(font: Buffer): Map<string, number> {
  const out = new Map<string, number>()
  const count = font.readUInt16BE(4)
  for (let i = 0; i < count; i++)
    out.set(font.toString('latin1', 12 + i * 16, 16 + i * 16), font.readUInt32BE(20 + i * 16))
  return out
}

/** The Unicode BMP character map (format 4), the one scripts/build-font.mjs's fonts carry. */
function characterMap(font: Buffer, cmap: number): Map<number, number> {
  const records = font.readUInt16BE(cmap + 2)
  for (let r = 0; r < records; r++) {
    const [platform, encoding] = [font.readUInt16BE(cmap + 4 + r * 8), font.readUInt16BE(cmap + 6 + r * 8)]
    const sub = cmap + font.readUInt32BE(cmap + 8 + r * 8)
    if (!((platform === 3 && encoding === 1) || (platform === 0 && encoding === 3)) || font.readUInt16BE(sub) !== 4)
      continue
    const segments = font.readUInt16BE(sub + 6) / 2
    const ends = sub + 14
    const starts = ends + segments * 2 + 2
    const deltas = starts + segments * 2
    const rangeOffsets = deltas + segments * 2
    const map = new Map<number, number>()
    for (let s = 0; s < segments; s++) {
      const [end, start] = [font.readUInt16BE(ends + s * 2), font.readUInt16BE(starts + s * 2)]
      const [delta, rangeOffset] = [font.readInt16BE(deltas + s * 2), font.readUInt16BE(rangeOffsets + s * 2)]
      for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
        let glyph = cp
        if (rangeOffset !== 0) glyph = font.readUInt16BE(rangeOffsets + s * 2 + rangeOffset + (cp - start) * 2)
        if (rangeOffset === 0 || glyph !== 0) glyph = (glyph + delta) & 0xffff
        if (glyph !== 0) map.set(cp, glyph)
      }
    }
    return map
  }
  throw new Error('the font has no Unicode character map of format 4')
}

/** The points of a simple glyph's contours. */
function contours(font: Buffer, at: number): Point[][] {
  const count = font.readInt16BE(at)
  // Composite glyphs would need their components' transforms; scripts/build-font.mjs makes a font without any.
  if (count < 0) throw new Error('composite glyphs are not supported')
  const ends = Array.from({length: count}, (_, i) => font.readUInt16BE(at + 10 + i * 2))
  const total = count ? ends[count - 1] + 1 : 0
  let p = at + 10 + count * 2
  p += 2 + font.readUInt16BE(p)
  const flags: number[] = []
  while (flags.length < total) {
    const flag = font[p++]
    flags.push(flag)
    if (flag & REPEAT) for (let n = font[p++]; n > 0; n--) flags.push(flag)
  }
  const coordinates = (short: number, sameOrPositive: number): number[] => {
    let value = 0
    return flags.map(flag => {
      if (flag & short) value += (flag & sameOrPositive ? 1 : -1) * font[p++]
      else if (!(flag & sameOrPositive)) value += font.readInt16BE((p += 2) - 2)
      return value
    })
  }
  const xs = coordinates(X_SHORT, X_SAME_OR_POSITIVE)
  const ys = coordinates(Y_SHORT, Y_SAME_OR_POSITIVE)
  return ends.map((end, i) => {
    const first = i === 0 ? 0 : ends[i - 1] + 1
    return flags
      .slice(first, end + 1)
      .map((flag, k) => ({x: xs[first + k], y: ys[first + k], on: (flag & ON_CURVE) !== 0}))
  })
}

const mid = (a: Point, b: Point): Point => ({x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, on: true})

/** A quadratic contour as path data: two off-curve points in a row imply the on-curve point between them. */
function contourPath(points: Point[]): string {
  const firstOn = points.findIndex(pt => pt.on)
  const start = firstOn >= 0 ? points[firstOn] : mid(points[points.length - 1], points[0])
  const rest = firstOn >= 0 ? [...points.slice(firstOn + 1), ...points.slice(0, firstOn)] : points
  let d = `M${start.x} ${start.y}`
  let control: Point | undefined
  for (const pt of [...rest, start]) {
    if (pt.on) d += control ? `Q${control.x} ${control.y} ${pt.x} ${pt.y}` : `L${pt.x} ${pt.y}`
    else if (control) {
      const on = mid(control, pt)
      d += `Q${control.x} ${control.y} ${on.x} ${on.y}`
    }
    control = pt.on ? undefined : pt
  }
  return `${d}Z`
}

/** Parses a TrueType font (its bytes, from `file`) with simple glyphs and a format-4 character map; outlines are decoded on first use. */
export function parseGlyphs(font: Buffer, file: string): Glyphs {
  const at = tables(font)
  const [head, loca, glyf, cmap] = ['head', 'loca', 'glyf', 'cmap'].map(tag => at.get(tag))
  if (head === undefined || loca === undefined || glyf === undefined || cmap === undefined) {
    throw new Error(`${file} is not a TrueType font with outlines`)
  }
  const longOffsets = font.readInt16BE(head + 50) === 1
  const offset = (glyph: number) =>
    longOffsets ? font.readUInt32BE(loca + glyph * 4) : font.readUInt16BE(loca + glyph * 2) * 2
  const glyphs = characterMap(font, cmap)
  const paths = new Map<number, string>()
  return {
    path(codePoint) {
      const glyph = glyphs.get(codePoint)
      if (glyph === undefined) return undefined
      let d = paths.get(glyph)
      if (d === undefined) {
        const [from, to] = [offset(glyph), offset(glyph + 1)]
        d =
          from === to
            ? ''
            : contours(font, glyf + from)
                .map(contourPath)
                .join('')
        paths.set(glyph, d)
      }
      return d
    },
  }
}
