import {createRequire} from 'node:module'
import {fileURLToPath} from 'node:url'
import type {ResvgRenderOptions} from '@resvg/resvg-js'
import {FONT_FAMILY} from '../domain/board/overview/text.js'
import {CairnError} from '../domain/errors.js'
import {writeFileAtomic} from './fsutil.js'
import {type Glyphs, readGlyphs} from './glyphs.js'
import {outlineText} from './svg-outline.js'

/** The shipped font: the same from src/store/ (tests) and dist/store/ (a build, an npm install). */
export const FONT_FILE = fileURLToPath(new URL('../../data/fonts/cairn-sans.ttf', import.meta.url))

/**
 * Only the shipped font, for every generic family too: a picture renders the same on every OS, and text measures
 * as src/domain/board/overview/text.ts says. Loading it costs tens of ms, so only for text left to resvg.
 */
const WITH_FONT: ResvgRenderOptions = {
  font: {
    loadSystemFonts: false,
    fontFiles: [FONT_FILE],
    defaultFontFamily: FONT_FAMILY,
    sansSerifFamily: FONT_FAMILY,
    serifFamily: FONT_FAMILY,
    monospaceFamily: FONT_FAMILY,
    cursiveFamily: FONT_FAMILY,
    fantasyFamily: FONT_FAMILY,
  },
  fitTo: {mode: 'original'},
  logLevel: 'off',
}
const WITHOUT_FONT: ResvgRenderOptions = {...WITH_FONT, font: {loadSystemFonts: false}}

export interface RenderedPng {
  file: string
  width: number
  height: number
}

type Resvg = typeof import('@resvg/resvg-js')
let resvg: Resvg | undefined
let glyphs: Glyphs | undefined

/** Loaded on first use: only the overview needs the native rasteriser. */
function loadResvg(): Resvg {
  if (resvg) return resvg
  try {
    resvg = createRequire(import.meta.url)('@resvg/resvg-js') as Resvg
    return resvg
  } catch (error) {
    const platform = `${process.platform}-${process.arch}`
    throw new CairnError('internal', 'cannot render the overview PNGs: @resvg/resvg-js has no binary for '
      + `${platform} (${(error as Error).message.split('\n')[0]}). Fix: reinstall cairn with optional dependencies enabled`)
  }
}

/**
 * Rasterises svg at its own size and writes the PNG to file atomically; the size comes from the PNG itself. Text is
 * drawn in the shipped font, plain <text> elements as glyph paths (see svg-outline.ts). The rasterising runs on
 * resvg's thread pool, so several pictures (an overview's layers) render at once on as many cores as there are.
 */
export async function renderPng(svg: string, file: string): Promise<RenderedPng> {
  const {renderAsync} = loadResvg()
  glyphs ??= readGlyphs(FONT_FILE)
  let png: Buffer
  try {
    const outlined = outlineText(svg, glyphs)
    png = (await renderAsync(outlined, /<text\b/.test(outlined) ? WITH_FONT : WITHOUT_FONT)).asPng()
  } catch (error) {
    throw new CairnError('internal', `cannot render ${file}: the SVG is not valid (${(error as Error).message})`)
  }
  writeFileAtomic(file, png)
  return {file, width: png.readUInt32BE(16), height: png.readUInt32BE(20)}
}
