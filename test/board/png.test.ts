import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {FONT_FAMILY} from '../../src/domain/board/overview/text.js'
import {renderPng as rasterise} from '../../src/domain/board/overview/png.js'
import {writeFileAtomic} from '../../src/store/files/fsutil.js'
import {FONT_FILE, shippedFont} from '../../src/store/package-files.js'
import {refusal, tempDir} from '../helpers.js'

/** The overview's rasteriser, in process with the real resvg and the shipped font: no browser, no system fonts. */

const svg = (body: string, size = 'width="48" height="48"') =>
  `<svg xmlns="http://www.w3.org/2000/svg" ${size}><rect width="100%" height="100%" fill="#fff"/>${body}</svg>`
const glyph = (ch: string, family = FONT_FAMILY) =>
  svg(`<text x="4" y="40" font-family="${family}" font-size="40" fill="#000">${ch}</text>`)

/** Renders an SVG and writes the PNG to file atomically, as the overview's output directory does. */
async function renderPng(svg: string, file: string): Promise<{file: string; width: number; height: number}> {
  const {png, width, height} = await rasterise(svg, shippedFont(), file)
  writeFileAtomic(file, png)
  return {file, width, height}
}

/** Renders each SVG to its own file and returns the PNG bytes. */
function pngs(dir: string, svgs: string[]): Promise<Buffer[]> {
  return Promise.all(svgs.map(async (s, i) => fs.readFileSync((await renderPng(s, path.join(dir, `${i}.png`))).file)))
}

describe('renderPng', () => {
  it('ships its font beside the code, inside the package', () => {
    expect(path.relative(path.resolve(import.meta.dirname, '../..'), FONT_FILE)).toBe(
      path.join('data', 'fonts', 'cairn-sans.ttf'),
    )
    expect(fs.statSync(FONT_FILE).size).toBeGreaterThan(1_000_000)
  })

  it('draws Chinese labels as their own glyphs, not as .notdef boxes', async () => {
    const dir = tempDir()
    const hanzi = [...'缓存合并冲突']
    // Characters the subset lacks (CJK extension B) draw nothing: resvg leaves out the .notdef glyph.
    const [blank, missingA, missingB, ...drawn] = await pngs(dir, [
      svg(''),
      glyph('𠀀'),
      glyph('𠀁'),
      ...hanzi.map(c => glyph(c)),
    ])
    expect(missingA.equals(blank)).toBe(true)
    expect(missingB.equals(blank)).toBe(true)
    for (const [i, png] of drawn.entries()) {
      expect(png.equals(blank), hanzi[i]).toBe(false)
      for (const other of drawn.slice(i + 1)) expect(png.equals(other), hanzi[i]).toBe(false)
    }
  })

  it('uses the shipped font whatever family the SVG names, so every OS draws the same picture', async () => {
    const dir = tempDir()
    // A <tspan> keeps the text from being outlined: resvg lays it out itself, with the shipped font only.
    const tspan = (family: string) =>
      svg(`<text x="4" y="40" font-family="${family}" font-size="40" fill="#000"><tspan>合a</tspan></text>`)
    const [own, named, generic, mono, ...resvgs] = await pngs(dir, [
      glyph('合a'),
      glyph('合a', 'Arial, Helvetica'),
      glyph('合a', 'sans-serif'),
      glyph('合a', 'monospace'),
      tspan(FONT_FAMILY),
      tspan('Arial, Helvetica'),
      tspan('sans-serif'),
      tspan('monospace'),
    ])
    for (const png of [named, generic, mono, ...resvgs]) expect(png.equals(own)).toBe(true)
  })

  it('writes a PNG of the size the SVG gives, and reports that size from the PNG', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'nested', 'layer.png')
    expect(await renderPng(svg('', 'width="321" height="123"'), file)).toEqual({file, width: 321, height: 123})
    const png = fs.readFileSync(file)
    expect(png.subarray(1, 4).toString()).toBe('PNG')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([321, 123])
    expect(await renderPng(svg('', 'viewBox="0 0 200 100"'), file)).toEqual({file, width: 200, height: 100})
    expect(fs.readdirSync(path.dirname(file))).toEqual(['layer.png'])
  })

  it('refuses a broken SVG with a CairnError naming the file, and writes nothing', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'out', 'broken.png')
    for (const bad of [
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect',
      'not an svg at all',
      svg('<text>\u0007</text>'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>',
    ]) {
      const error = await refusal(() => renderPng(bad, file))
      expect(error.code).toBe('internal')
      expect(error.message).toMatch(
        new RegExp(`^cannot render ${file.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}: the SVG is not valid \\(.+\\)$`),
      )
    }
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false)
  })
})
