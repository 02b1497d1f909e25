import {Resvg} from '@resvg/resvg-js'
import {describe, expect, it} from 'vitest'
import {FONT_FAMILY} from '../../src/domain/board/overview/text.js'
import fs from 'node:fs'
import {parseGlyphs} from '../../src/domain/board/overview/glyphs.js'
import {outlineText} from '../../src/domain/board/overview/outline.js'
import {FONT_FILE} from '../../src/store/package-files.js'

/** Plain <text> drawn as glyph paths must give the very pixels resvg's own text layout gives in the shipped font. */

const glyphs = parseGlyphs(fs.readFileSync(FONT_FILE), FONT_FILE)
const FONT = {loadSystemFonts: false, fontFiles: [FONT_FILE], defaultFontFamily: FONT_FAMILY}
const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="60">${body}</svg>`
const pixels = (s: string) => new Resvg(s, {font: FONT}).render().pixels

describe('outlineText', () => {
  it('draws labels exactly as resvg lays out the same <text>', () => {
    const labels = [
      '缓存合并冲突',
      'Refactor the cache — “v2” (50%) …',
      '合并 PR #42（紧急）：回滚',
      'Ünïcödé ½ © ± e\u0301 a\u0301\u0302 x\u0303',
      '← → ↑ ↓ • · ■ ● ▲ ✓ −',
      'a\u200db\u00adc 𠀀 end',
      '  spaced\n  out  ',
    ]
    for (const label of labels) {
      for (const [size, anchor, x] of [
        [16, 'start', 4],
        [13.5, 'middle', 210],
        [11, 'end', 416],
      ] as const) {
        const text = svg(
          `<rect width="100%" height="100%" fill="#fff"/><text x="${x}" y="40.5" font-size="${size}px" ` +
            `text-anchor="${anchor}" fill="#123">${label}</text>`,
        )
        const outlined = outlineText(text, glyphs)
        expect(outlined).not.toContain('<text')
        expect(pixels(outlined).equals(pixels(text)), `${label} at ${size}px, ${anchor}`).toBe(true)
      }
    }
  })

  it('differs only where glyphs touch, when the text is translucent', () => {
    // resvg fills a text run as one path; here each glyph is its own, so where two overlap, a translucent group
    // composites their antialiased edges twice.
    const text = svg(
      '<text x="416" y="40.5" font-size="11" text-anchor="end" fill="#123" opacity="0.9">合并 PR #42（紧急）：回滚</text>',
    )
    const [a, b] = [pixels(text), pixels(outlineText(text, glyphs))]
    const differing = Array.from(
      {length: a.length / 4},
      (_, i) => a.readUInt32BE(i * 4) !== b.readUInt32BE(i * 4),
    ).filter(Boolean)
    expect(differing.length).toBeGreaterThan(0)
    expect(differing.length).toBeLessThanOrEqual(4)
  })

  it('defines each glyph once, decodes entities and keeps the other attributes on a group', () => {
    const text = svg(
      '<text x="1" y="20" font-size="10" font-family="X" fill="red" class="label" transform="rotate(3)">' +
        'a&amp;a&lt;&#x4E2D;&#20013;</text>',
    )
    const out = outlineText(text, glyphs)
    expect(out.match(/<path id="[^"]+"/g)).toEqual([
      '<path id="cairn-glyph-61"',
      '<path id="cairn-glyph-26"',
      '<path id="cairn-glyph-3c"',
      '<path id="cairn-glyph-4e2d"',
    ])
    expect(out.match(/<use [^>]*>/g)).toEqual([
      '<use href="#cairn-glyph-61" x="0"/>',
      '<use href="#cairn-glyph-26" x="563"/>',
      '<use href="#cairn-glyph-61" x="1243"/>',
      '<use href="#cairn-glyph-3c" x="1806"/>',
      '<use href="#cairn-glyph-4e2d" x="2361"/>',
      '<use href="#cairn-glyph-4e2d" x="3361"/>',
    ])
    expect(out).toContain(
      '<g fill="red" class="label" transform="rotate(3)"><g transform="translate(1 20) scale(0.01 -0.01)">',
    )
    expect(out).not.toContain('font-family')
  })

  it('leaves to resvg the text whose layout it does not know, and an SVG without text as it is', () => {
    const kept = [
      '<text x="1" y="20" font-size="10"><tspan>a</tspan></text>',
      '<text x="1" y="20">inherits its size</text>',
      '<text x="1" y="20" font-size="1em">em</text>',
      '<text x="1 2" y="20" font-size="10">two x</text>',
      '<text x="1" y="20" font-size="10" style="font-size:12px">css</text>',
      '<text x="1" y="20" font-size="10" dx="2">dx</text>',
      '<text x="1" y="20" font-size="10" text-anchor="inherit">anchor</text>',
      '<text x="1" y="20" font-size="10">&nbsp;</text>',
    ]
    for (const t of kept) expect(outlineText(svg(t), glyphs)).toBe(svg(t))
    expect(outlineText(svg('<rect width="5" height="5"/>'), glyphs)).toBe(svg('<rect width="5" height="5"/>'))
  })
})

describe('parseGlyphs', () => {
  it('reads outlines from the shipped font: ink for letters and hanzi, none for a space, nothing for what it lacks', () => {
    expect(glyphs.path('A'.codePointAt(0) as number)).toMatch(/^M-?\d+ -?\d+.*Z$/)
    expect(glyphs.path('合'.codePointAt(0) as number)?.match(/M/g)?.length).toBeGreaterThan(3)
    expect(glyphs.path(0x20)).toBe('')
    expect(glyphs.path(0x20000)).toBeUndefined()
  })
})
