import {UNITS_PER_EM} from './font-metrics.js'
import {layoutText} from './text.js'
import type {Glyphs} from './glyphs.js'

/**
 * resvg lays out <text> through its font database, which reads the font file again for every run and glyph: 2,000
 * labels took over a second. Drawn here as paths instead, each glyph once in <defs> and placed with <use>, the same
 * picture takes a fraction of that.
 */

/** A <text> with no child elements; one with <tspan>s or CDATA is left to resvg. */
const TEXT = /<text\b([^>]*)>([^<]*)<\/text>/g
const ATTRIBUTE = /\s*([^\s=]+)\s*=\s*("[^"]*"|'[^']*')/gy
/** Attributes this layout does not implement: a <text> with any of them is left to resvg. */
const LEFT_TO_RESVG = new Set([
  'dx',
  'dy',
  'rotate',
  'textLength',
  'lengthAdjust',
  'letter-spacing',
  'word-spacing',
  'dominant-baseline',
  'alignment-baseline',
  'baseline-shift',
  'writing-mode',
  'direction',
  'unicode-bidi',
  'xml:space',
  'style',
  'font',
  'font-variant',
  'font-kerning',
  'font-size-adjust',
  'text-decoration',
  'text-rendering',
  'stroke',
  'stroke-width',
])
/** Attributes the layout uses up; the one font has one weight and style, as resvg draws it anyway. */
const LAYOUT = new Set(['x', 'y', 'font-size', 'text-anchor', 'font-family', 'font-weight', 'font-style'])
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-f]+));|&/gi
const NAMED: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"}

/** The character data of a text element, or undefined when it uses an entity this does not know. */
function decode(data: string): string | undefined {
  let unknown = false
  const text = data.replace(ENTITY, (all, name?: string, dec?: string, hex?: string) => {
    if (name) return NAMED[name.toLowerCase()]
    if (dec || hex) return String.fromCodePoint(Number.parseInt((dec ?? hex) as string, dec ? 10 : 16))
    unknown = true
    return all
  })
  return unknown ? undefined : text
}

interface Attribute {
  name: string
  value: string
  /** As written, with the space before it. */
  text: string
}

/** A start tag's attributes, or undefined when they do not parse. */
function attributes(raw: string): Attribute[] | undefined {
  const out: Attribute[] = []
  let end = 0
  ATTRIBUTE.lastIndex = 0
  for (let m = ATTRIBUTE.exec(raw); m; m = ATTRIBUTE.exec(raw)) {
    out.push({name: m[1], value: m[2].slice(1, -1), text: m[0]})
    end = ATTRIBUTE.lastIndex
  }
  return raw.slice(end).trim() === '' ? out : undefined
}

const fmt = (n: number): string => String(Math.round(n * 10_000) / 10_000)

/**
 * The SVG with every plain <text> (font-size in px on the element itself, no child elements) drawn as glyph paths,
 * placed as resvg would place them in the shipped font. Other attributes (fill, opacity, transform, class) move to a
 * group around the glyphs. Text inheriting its font-size or text-anchor, or styled by CSS, is left to resvg.
 */
export function outlineText(svg: string, glyphs: Glyphs): string {
  const defs = new Map<number, string>()
  const converted = svg.replace(TEXT, (whole, raw: string, data: string) => {
    const attrs = attributes(raw)
    const text = decode(data)
    if (!attrs || text === undefined || attrs.some(a => LEFT_TO_RESVG.has(a.name))) return whole
    const get = (name: string) => attrs.find(a => a.name === name)?.value.trim()
    const [x, y, anchor] = [get('x') ?? '0', get('y') ?? '0', get('text-anchor') ?? 'start']
    const size = get('font-size')?.replace(/px$/, '')
    if (!NUMBER.test(x) || !NUMBER.test(y) || size === undefined || !NUMBER.test(size)) return whole
    if (!['start', 'middle', 'end'].includes(anchor)) return whole
    const scale = Number(size) / UNITS_PER_EM
    const {chars, advance} = layoutText(text)
    const shift = anchor === 'start' ? 0 : advance * scale * (anchor === 'middle' ? 0.5 : 1)
    const uses = chars.map(({codePoint, x: at}) => {
      const d = glyphs.path(codePoint)
      if (!d) return ''
      const id = `cairn-glyph-${codePoint.toString(16)}`
      if (!defs.has(codePoint)) defs.set(codePoint, `<path id="${id}" d="${d}"/>`)
      return `<use href="#${id}" x="${at}"/>`
    })
    const kept = attrs
      .filter(a => !LAYOUT.has(a.name))
      .map(a => a.text)
      .join('')
    const at = `translate(${fmt(Number(x) - shift)} ${fmt(Number(y))}) scale(${fmt(scale)} ${fmt(-scale)})`
    return `<g${kept}><g transform="${at}">${uses.join('')}</g></g>`
  })
  if (defs.size === 0) return converted
  return converted.replace(/<svg\b[^>]*>/, open => `${open}<defs>${[...defs.values()].join('')}</defs>`)
}
