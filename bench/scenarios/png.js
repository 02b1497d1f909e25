// png: rasterising an overview-sized SVG without a browser. A 1200×800 picture with 2,000 rects and 2,000 short
// labels (Latin and Chinese, fitted to their boxes with fitLabel) becomes a PNG through renderPng: resvg with the
// shipped font. In process, from dist/; the labels are fitted once per run and timed apart from the rasterising.
import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {cleanup, log, median, ROOT, tempDir} from '../lib.js'

export const description = 'renderPng: a 1200×800 SVG with 2,000 rects and 2,000 fitted labels, in process'

const ITEMS = 2000
const COLUMNS = 50
const RUNS = 5
const WORDS = ['cache', '缓存', 'merge', '合并冲突', 'deploy', '回滚', 'review', '索引', 'budget', '预算']

function picture(fitLabel) {
  const w = 1200 / COLUMNS
  const h = 800 / (ITEMS / COLUMNS)
  const parts = []
  for (let i = 0; i < ITEMS; i++) {
    const x = (i % COLUMNS) * w
    const y = Math.floor(i / COLUMNS) * h
    const label = fitLabel(`${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`, w - 2, 9)
    parts.push(
      `<rect x="${x}" y="${y}" width="${w - 1}" height="${h - 1}" fill="hsl(${i % 360},60%,80%)" stroke="#345"/>`,
    )
    parts.push(`<text x="${x + 1}" y="${y + h - 5}" font-size="9">${label}</text>`)
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">${parts.join('')}</svg>`
}

export async function run() {
  const {renderPng} = await import(pathToFileURL(path.join(ROOT, 'dist', 'domain', 'board', 'overview', 'png.js')).href)
  const {shippedFont} = await import(pathToFileURL(path.join(ROOT, 'dist', 'store', 'package-files.js')).href)
  const {fitLabel} = await import(pathToFileURL(path.join(ROOT, 'dist', 'domain', 'board', 'overview', 'text.js')).href)
  const labels = []
  const raster = []
  for (let r = 0; r < RUNS; r++) {
    const dir = tempDir('cairn-bench-png-')
    let start = process.hrtime.bigint()
    const svg = picture(fitLabel)
    labels.push(Number(process.hrtime.bigint() - start) / 1e6)
    start = process.hrtime.bigint()
    const file = path.join(dir, 'overview.png')
    const png = await renderPng(svg, shippedFont(), file)
    fs.writeFileSync(file, png.png)
    raster.push(Number(process.hrtime.bigint() - start) / 1e6)
    if (png.width !== 1200 || png.height !== 800 || fs.statSync(file).size < 10_000)
      throw new Error('renderPng: wrong PNG')
    cleanup(dir)
    log(`run ${r + 1}/${RUNS}: labels ${labels.at(-1).toFixed(1)} ms, renderPng ${raster.at(-1).toFixed(1)} ms`)
  }
  const row = (name, times) => ({
    name,
    median_ms: Math.round(median(times) * 10) / 10,
    runs_ms: times.map(t => Math.round(t * 10) / 10),
    peak_rss_mb: null,
  })
  return [
    row(`fitLabel + SVG text for ${ITEMS} items`, labels),
    row(`renderPng 1200×800, ${ITEMS} rects + labels`, raster),
  ]
}
