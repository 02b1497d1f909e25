import {Resvg} from '@resvg/resvg-js'
import {describe, expect, it} from 'vitest'
import {collapseWhitespace, fitLabel, FONT_FAMILY, textWidth} from '../../src/domain/board/overview/text.js'
import {FONT_FILE} from '../../src/store/package-files.js'

/** Label measuring against the shipped font, checked against resvg's own layout of the same text. */

const FONT = {loadSystemFonts: false, fontFiles: [FONT_FILE], defaultFontFamily: FONT_FAMILY}
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

/** The ink box of a one-line SVG text at fontSize. */
function inkWidth(text: string, fontSize: number): number {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="200"><text x="10" y="100" ` +
    `font-family="${FONT_FAMILY}" font-size="${fontSize}">${escape(text)}</text></svg>`
  const box = new Resvg(svg, {font: FONT}).getBBox()
  if (!box) throw new Error(`resvg drew nothing for ${JSON.stringify(text)}`)
  return box.width
}

/**
 * How far resvg advances over text: between two X's, so side bearings cancel out and the difference of the ink
 * widths is exactly the advance.
 */
const resvgAdvance = (text: string, fontSize: number) => inkWidth(`X${text}X`, fontSize) - inkWidth('XX', fontSize)

const graphemes = (s: string) =>
  [...new Intl.Segmenter(undefined, {granularity: 'grapheme'}).segment(s)].map(g => g.segment)

describe('textWidth', () => {
  it("adds the font's advance widths: Latin proportional, hanzi and fullwidth forms one em", () => {
    // A 608, b 618, space 224, i 275, W 878, of 1000 units per em.
    expect(textWidth('Ab', 10)).toBeCloseTo(12.26, 10)
    expect(textWidth('Wi i', 20)).toBeCloseTo((878 + 275 + 224 + 275) / 50, 10)
    expect(textWidth('缓存合并冲突', 12)).toBe(72)
    expect(textWidth('（紧急）', 10)).toBe(40)
    expect(textWidth('', 12)).toBe(0)
  })

  it('measures what resvg draws, to a hundredth of a pixel', () => {
    const samples = [
      'cache merge conflict',
      'Deploy v2.3 — “hotfix” (50%) …',
      '缓存合并冲突',
      '合并 PR #42（紧急）：回滚',
      'Ünïcödé ½ © ±',
      'AVATAR To Wo',
      'e\u0301te\u0301 x\u0303',
      'a\u200db\u00adc\ufe0f',
      '𠀀 not in the font',
      'a👩‍👩‍👧b 😀🏻 🇨🇳',
      'a\u20dd ｶﾞ',
      'a\u200d😀 가 \u1160',
      '← → ↑ ↓ • · ■ ● ▲ ✓ −',
    ]
    for (const fontSize of [11, 13.5, 20]) {
      for (const s of samples) {
        expect(Math.abs(textWidth(s, fontSize) - resvgAdvance(s, fontSize)), `${s} at ${fontSize}px`).toBeLessThan(0.01)
      }
    }
  })

  it('collapses whitespace as SVG text does: line breaks and tabs are spaces, runs are one, the ends go', () => {
    expect(collapseWhitespace('  a\n\t b  \r\n')).toBe('a b')
    expect(textWidth('  a\n\t b  ', 16)).toBe(textWidth('a b', 16))
    expect(inkWidth('X\n\t  X', 16)).toBeCloseTo(inkWidth('X X', 16), 5)
    // A no-break space is not whitespace to collapse.
    expect(textWidth('a\u00a0\u00a0b', 16)).toBeGreaterThan(textWidth('a b', 16))
  })
})

describe('fitLabel', () => {
  it('keeps a label that fits, and collapses its whitespace', () => {
    expect(fitLabel('缓存合并冲突', 60, 10)).toBe('缓存合并冲突')
    expect(fitLabel(' cache\n  merge ', 100, 10)).toBe('cache merge')
  })

  it('cuts to the longest prefix that fits with "…", or to nothing', () => {
    // Hanzi and "…" are 10 px each at 10 px.
    expect(fitLabel('缓存合并冲突', 59.9, 10)).toBe('缓存合并…')
    expect(fitLabel('缓存合并冲突', 50, 10)).toBe('缓存合并…')
    expect(fitLabel('缓存合并冲突', 19.99, 10)).toBe('…')
    expect(fitLabel('缓存合并冲突', 9.99, 10)).toBe('')
    expect(fitLabel('缓存合并冲突', 0, 10)).toBe('')
    // "cache" is 5.10+5.63+5.10+6.07+5.54 = 27.44 px; the space after it is dropped before "…".
    expect(fitLabel('cache merge', 37.44, 10)).toBe('cache…')
    expect(fitLabel('cache merge', 37.43, 10)).toBe('cach…')
    expect(fitLabel('cache merge', 39.68, 10)).toBe('cache…')
  })

  it('never splits a grapheme', () => {
    // Three emoji the font lacks, joined by zero-width joiners: one cluster of .notdef glyphs, 1 em, between "a"
    // (5.63 px at 10 px) and "…" (1 em).
    expect(textWidth('a👩‍👩‍👧…', 10)).toBeCloseTo(25.63, 10)
    expect(fitLabel('a👩‍👩‍👧bb', 25.62, 10)).toBe('a…')
    expect(fitLabel('a👩‍👩‍👧bb', 25.63, 10)).toBe('a👩‍👩‍👧…')
    expect(fitLabel('e\u0301e\u0301e\u0301e\u0301', textWidth('e…', 10), 10)).toBe('e\u0301…')
  })

  it('never exceeds maxWidth, and always keeps as much as fits', () => {
    const texts = [
      'Refactor the cache merge path before the 2.0 release',
      '合并冲突：缓存层在回滚之后仍然保留旧的索引',
      'PR #42 修复 — “缓存” v2…',
    ]
    for (const text of texts) {
      const all = graphemes(text)
      for (const fontSize of [10, 13.5]) {
        for (let max = 0; max <= textWidth(text, fontSize) + 5; max += 0.5) {
          const label = fitLabel(text, max, fontSize)
          expect(textWidth(label, fontSize), `${text} in ${max}px`).toBeLessThanOrEqual(max)
          if (label === text || label === '') continue
          // The label's prefix lost its trailing spaces; one more grapheme that is not a space would not have fitted.
          let next = graphemes(label.slice(0, -1)).length
          while (all[next] === ' ') next++
          expect(textWidth(`${all.slice(0, next + 1).join('')}…`, fontSize)).toBeGreaterThan(max)
        }
      }
    }
  })
})
