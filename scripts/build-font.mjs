#!/usr/bin/env node
/**
 * Builds data/fonts/cairn-sans.ttf, the one font the board overview's PNGs are drawn with, and
 * src/domain/board/overview/font-metrics.ts, its advance widths, which label fitting measures text with.
 *
 *   node scripts/build-font.mjs
 *
 * The font is a subset of Noto Sans SC Regular (SIL OFL 1.1; see data/fonts/LICENSE-OFL.txt), taken from the npm
 * package @expo-google-fonts/noto-sans-sc. The script installs that package and the tools it needs, at exact
 * versions, into a temp dir that it removes afterwards: none of them is a dependency of cairn. The same versions give
 * the same files, byte for byte.
 *
 * Kept: printable ASCII, Latin-1, the general punctuation the font has (… — – ‘ ’ “ ” • and more), the arrows
 * ← ↑ → ↓, a few symbols for legends (− ✓ and the geometric shapes the font has, ■ ● ▲ ◆ …), CJK symbols and
 * punctuation (U+3000–303F, but the tone marks U+302A–302F, which the shaper places by rules of its own), fullwidth
 * and halfwidth forms (U+FF00–FFEF), the 6,763 hanzi of GB 2312 and every other character of
 * data/lexicon/glossary.yaml. Dropped: hinting (the rasteriser does not use it) and the layout tables (GSUB, GPOS and
 * their companions), so a string's rendered width is exactly the sum of its advance widths, which is what
 * font-metrics.ts records.
 */
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const INPUTS = ['@expo-google-fonts/noto-sans-sc@0.4.3', 'subset-font@2.9.0', 'harfbuzzjs@1.6.4', 'fontkit@2.0.4']
const SOURCE = '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'
const SOURCE_LICENSE = '@expo-google-fonts/noto-sans-sc/LICENSE_FONT'
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const FONT = path.join(ROOT, 'data/fonts/cairn-sans.ttf')
const LICENSE = path.join(ROOT, 'data/fonts/LICENSE-OFL.txt')
const METRICS = path.join(ROOT, 'src/domain/board/overview/font-metrics.ts')
const GLOSSARY = path.join(ROOT, 'data/lexicon/glossary.yaml')
/** Table tags the rasteriser never reads, or that would make rendered widths differ from the advance widths. */
const DROP_TABLES = [
  'GSUB',
  'GPOS',
  'GDEF',
  'BASE',
  'JSTF',
  'vhea',
  'vmtx',
  'VORG',
  'STAT',
  'gasp',
  'hdmx',
  'LTSH',
  'DSIG',
]
/** Copyright, names, version, trademark, maker, designer, description, URLs, licence and its URL. */
const NAME_IDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]

const range = (from, to) => Array.from({length: to - from + 1}, (_, i) => from + i)

/** The 6,763 hanzi of GB 2312: rows 0xB0–0xF7 of its EUC-CN encoding, which GBK extends. */
function gb2312Hanzi() {
  const decoder = new TextDecoder('gbk')
  const out = []
  for (const hi of range(0xb0, 0xf7)) {
    for (const lo of range(0xa1, 0xfe)) {
      const ch = decoder.decode(new Uint8Array([hi, lo]))
      if (/^\p{Unified_Ideograph}$/u.test(ch)) out.push(ch.codePointAt(0))
    }
  }
  if (out.length !== 6763) throw new Error(`expected 6763 GB 2312 hanzi, decoded ${out.length}`)
  return out
}

/** What the subset should hold; `wanted` must all be in the font, `ifPresent` only where the font has them. */
function wantedCodePoints() {
  const glossary = [...fs.readFileSync(GLOSSARY, 'utf8')].map(c => c.codePointAt(0)).filter(cp => cp > 0x7e)
  const wanted = [
    ...range(0x20, 0x7e),
    ...range(0xa0, 0xff),
    0x2013,
    0x2014,
    0x2018,
    0x2019,
    0x201c,
    0x201d,
    0x2022,
    0x2026,
    0x2190,
    0x2191,
    0x2192,
    0x2193,
    0x2212,
    0x2713,
    ...range(0x3000, 0x3029),
    ...range(0x3030, 0x303f),
    ...gb2312Hanzi(),
    ...glossary,
  ]
  const ifPresent = [...range(0x2000, 0x206f), ...range(0x25a0, 0x25ff), ...range(0xff00, 0xffef)]
  return {wanted: new Set(wanted), ifPresent}
}

function install(dir) {
  const args = ['install', '--ignore-scripts', '--no-save', '--no-package-lock', '--no-audit', '--no-fund']
  const stdio = ['ignore', 'ignore', 'inherit']
  execFileSync('npm', [...args, '--prefix', dir, ...INPUTS], {stdio, shell: process.platform === 'win32'})
}

/** One run as lines of at most about 120 characters. */
function wrap(values) {
  const lines = ['  [']
  for (const [i, v] of values.entries()) {
    const piece = `${v}${i === values.length - 1 ? '],' : ','}`
    if (lines.at(-1).length + piece.length > 118) lines.push('   ')
    lines[lines.length - 1] += `${lines.at(-1).endsWith('[') ? '' : ' '}${piece}`
  }
  return lines
}

/** The metrics module: advances in font units, listed only where they differ from the common one, in runs. */
function metricsModule(font, family) {
  const advances = new Map(font.characterSet.map(cp => [cp, font.glyphForCodePoint(cp).advanceWidth]))
  const counts = new Map()
  for (const a of advances.values()) counts.set(a, (counts.get(a) ?? 0) + 1)
  const common = [...counts].sort((a, b) => b[1] - a[1])[0][0]
  const notdef = font.getGlyph(0).advanceWidth
  // text.ts measures every character outside the table, in the font or not, at the common advance.
  if (notdef !== common) throw new Error(`.notdef advance ${notdef} differs from the common advance ${common}`)
  // text.ts composes a base and its marks into one character only when the table lists it.
  const composed = [...advances.keys()].filter(cp => String.fromCodePoint(cp).normalize('NFD').length > 1)
  const unlisted = composed.filter(cp => advances.get(cp) === common)
  if (unlisted.length)
    throw new Error(`precomposed characters at the common advance: ${String.fromCodePoint(...unlisted)}`)
  const runs = []
  for (const cp of [...advances.keys()].sort((a, b) => a - b)) {
    if (advances.get(cp) === common) continue
    const last = runs.at(-1)
    if (last && last[0] + last.length - 1 === cp) last.push(advances.get(cp))
    else runs.push([cp, advances.get(cp)])
  }
  const lines = runs.flatMap(([start, ...widths]) => wrap([`0x${start.toString(16)}`, ...widths]))
  return [
    '// Generated by scripts/build-font.mjs from data/fonts/cairn-sans.ttf: do not edit.',
    '',
    '/** The family name of the shipped font, for SVG font-family. */',
    `export const FONT_FAMILY = '${family}'`,
    `export const UNITS_PER_EM = ${font.unitsPerEm}`,
    '/** The advance of every character not in ADVANCE_RUNS: most hanzi, and characters not in the font (.notdef). */',
    `export const DEFAULT_ADVANCE = ${common}`,
    "/** Runs of consecutive code points with other advances: [first code point, its advance, the next one's, ...]. */",
    'export const ADVANCE_RUNS: readonly (readonly number[])[] = [',
    ...lines,
    ']',
    '',
  ].join('\n')
}

/** The package's font licence (its copyright line, then the OFL), after a note on what it covers here. */
function licenseText(packaged) {
  return [
    'data/fonts/cairn-sans.ttf is a subset of Noto Sans SC Regular, made by scripts/build-font.mjs in cairn from',
    `NotoSansSC_400Regular.ttf in the npm package ${INPUTS[0]}. It is a Modified Version of that`,
    'Font Software under the licence below, and is distributed under the same licence (SIL OFL 1.1). It does not',
    'use the Reserved Font Name. The copyright line and the licence follow, as shipped in the package (LICENSE_FONT).',
    '',
    '',
    packaged.trimEnd(),
    '',
  ].join('\n')
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-font-'))
  try {
    install(tmp)
    const require = createRequire(path.join(tmp, 'node_modules', 'index.js'))
    const subsetFont = require('subset-font')
    const fontkit = require('fontkit')
    const sourceFile = require.resolve(SOURCE)
    const source = fontkit.openSync(sourceFile)
    const {wanted, ifPresent} = wantedCodePoints()
    const missing = [...wanted].filter(cp => !source.hasGlyphForCodePoint(cp))
    if (missing.length) throw new Error(`not in the source font: ${String.fromCodePoint(...missing)}`)
    const present = ifPresent.filter(cp => source.hasGlyphForCodePoint(cp))
    const codePoints = [...new Set([...wanted, ...present])].sort((a, b) => a - b)
    const text = String.fromCodePoint(...codePoints)
    const subset = await subsetFont(fs.readFileSync(sourceFile), text, {
      targetFormat: 'truetype',
      noHinting: true,
      dropTables: DROP_TABLES,
      preserveNameIds: NAME_IDS,
    })
    fs.mkdirSync(path.dirname(FONT), {recursive: true})
    fs.writeFileSync(FONT, subset)
    const font = fontkit.openSync(FONT)
    const lost = codePoints.filter(cp => !font.hasGlyphForCodePoint(cp))
    if (lost.length) throw new Error(`the subset lost ${lost.length} character(s)`)
    fs.writeFileSync(METRICS, metricsModule(font, font.familyName))
    fs.writeFileSync(LICENSE, licenseText(fs.readFileSync(require.resolve(SOURCE_LICENSE), 'utf8')))
    const rel = f => path.relative(process.cwd(), f)
    const what = `${font.familyName}, ${codePoints.length} characters, ${font.numGlyphs} glyphs`
    console.log(`${rel(FONT)}: ${what}, ${subset.length} bytes`)
    console.log(`${rel(METRICS)}: ${fs.statSync(METRICS).size} bytes`)
  } finally {
    fs.rmSync(tmp, {recursive: true, force: true})
  }
}

await main()
