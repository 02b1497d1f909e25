import {createRequire} from 'node:module'
import type {ResvgRenderOptions} from '@resvg/resvg-js'
import {CairnError} from '../../errors.js'
import {type Glyphs, parseGlyphs} from './glyphs.js'
import {outlineText} from './outline.js'
import {FONT_FAMILY} from './text.js'

/** The font every picture is drawn in (the shipped one, store/package-files.ts): its file, which resvg reads, and its bytes. */
export interface Font {
  file: string
  bytes: Buffer
}

/**
 * Only the shipped font, for every generic family too: a picture renders the same on every OS, and text measures
 * as src/domain/board/overview/text.ts says. Loading it costs tens of ms, so only for text left to resvg.
 */
const withFont = (file: string): ResvgRenderOptions => ({
  font: {
    loadSystemFonts: false,
    fontFiles: [file],
    defaultFontFamily: FONT_FAMILY,
    sansSerifFamily: FONT_FAMILY,
    serifFamily: FONT_FAMILY,
    monospaceFamily: FONT_FAMILY,
    cursiveFamily: FONT_FAMILY,
    fantasyFamily: FONT_FAMILY,
  },
  fitTo: {mode: 'original'},
  logLevel: 'off',
})
const WITHOUT_FONT: ResvgRenderOptions = {...withFont(''), font: {loadSystemFonts: false}}

export interface RenderedPng {
  png: Buffer
  width: number
  height: number
}

type Resvg = typeof import('@resvg/resvg-js')
let resvg: Resvg | undefined
let glyphs: {file: string; glyphs: Glyphs} | undefined

/** Loaded on first use: only the overview needs the native rasteriser. */
function loadResvg(): Resvg {
  if (resvg) return resvg
  try {
    resvg = createRequire(import.meta.url)('@resvg/resvg-js') as Resvg
    return resvg
  } catch (error) {
    const platform = `${process.platform}-${process.arch}`
    throw new CairnError(
      'internal',
      'cannot render the overview PNGs: @resvg/resvg-js has no binary for ' +
        `${platform} (${(error as Error).message.split('\n')[0]}). Fix: reinstall cairn with optional dependencies enabled`,
    )
  }
}

/**
 * Rasterises svg at its own size into a PNG; the size comes from the PNG itself. Text is drawn in the font, plain
 * <text> elements as glyph paths (see outline.ts). The rasterising runs on resvg's thread pool, so several pictures
 * (an overview's layers) render at once on as many cores as there are. `label` names the picture in an error.
 */
export async function renderPng(svg: string, font: Font, label: string): Promise<RenderedPng> {
  const {renderAsync} = loadResvg()
  if (glyphs?.file !== font.file) glyphs = {file: font.file, glyphs: parseGlyphs(font.bytes, font.file)}
  let png: Buffer
  try {
    const outlined = outlineText(svg, glyphs.glyphs)
    png = (await renderAsync(outlined, /<text\b/.test(outlined) ? withFont(font.file) : WITHOUT_FONT)).asPng()
  } catch (error) {
    throw new CairnError('internal', `cannot render ${label}: the SVG is not valid (${(error as Error).message})`)
  }
  return {png, width: png.readUInt32BE(16), height: png.readUInt32BE(20)}
}
