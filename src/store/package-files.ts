import fs from 'node:fs'
import {fileURLToPath} from 'node:url'

/**
 * A file shipped in cairn's package (templates, data, bin, package.json), by its path from the
 * package root. This module sits two folders down, as dist/store/ and the hook's bundle dist/hook/
 * do, so the one relative URL below is right from the sources (the tests), a build and an install
 * alike; modules in deeper folders ask here instead of counting `../` themselves.
 */
export const packageFile = (relPath: string): string => fileURLToPath(new URL(`../../${relPath}`, import.meta.url))

/** The shipped font the board's pictures are drawn in (data/fonts, scripts/build-font.mjs). */
export const FONT_FILE = packageFile('data/fonts/cairn-sans.ttf')

let font: {file: string; bytes: Buffer} | undefined
/** The shipped font's file and bytes, read once. */
export const shippedFont = (): {file: string; bytes: Buffer} =>
  (font ??= {file: FONT_FILE, bytes: fs.readFileSync(FONT_FILE)})
