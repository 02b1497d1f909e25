import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {validationError} from '../domain/errors.js'
import {type Lexicon, type LexiconGroup, makeLexicon, parseCedict, parseLexiconFile} from '../domain/recall/lexicon.js'
import {decodeUtf8} from '../domain/text.js'
import {abs, rel, type Store} from './layout.js'
import {readRegularFile} from './safe-read.js'

/** This installation's data/lexicon/: the same from src/store/ (tests) and dist/store/ (a build, an npm install). */
export const LEXICON_DATA_DIR = fileURLToPath(new URL('../../data/lexicon/', import.meta.url))
const CEDICT_FILE = path.join(LEXICON_DATA_DIR, 'cedict.tsv')
const GLOSSARY_FILE = path.join(LEXICON_DATA_DIR, 'glossary.yaml')
/** A team lexicon is a few hundred groups; a bigger file is a mistake, not a lexicon. */
export const MAX_TEAM_LEXICON_BYTES = 1024 * 1024

export const lexiconRel = (store: Store): string => rel(store, 'lexicon.yaml')

const shortHash = (...parts: (string | Uint8Array)[]): string => {
  const h = createHash('sha256')
  for (const p of parts) h.update(p).update('\0')
  return h.digest('hex').slice(0, 16)
}

let dataVersion: string | undefined

/**
 * Names the shipped data, e.g. "cedict-2026-01-04-31b472af+glossary-0c9e2a1f": the dictionary's version and the
 * hash of its entries from its header (scripts/build-cedict.mjs writes both), and the glossary's hash. Reads 4 KB
 * of the dictionary and the glossary, once per process.
 */
export function lexiconDataVersion(): string {
  if (dataVersion) return dataVersion
  const fd = fs.openSync(CEDICT_FILE, 'r')
  let head: string
  try {
    const buf = Buffer.alloc(4096)
    head = buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)).toString('utf8')
  } finally {
    fs.closeSync(fd)
  }
  const version = /^# version: (\S+)$/m.exec(head)?.[1]
  const sha = /^# sha256: ([0-9a-f]{64})$/m.exec(head)?.[1]
  if (!version || !sha) throw new Error(`${CEDICT_FILE}: no "# version:" and "# sha256:" header; reinstall cairn`)
  dataVersion = `${version}-${sha.slice(0, 8)}+glossary-${shortHash(fs.readFileSync(GLOSSARY_FILE)).slice(0, 8)}`
  return dataVersion
}

let shippedData: {cedict: Map<string, string[]>; groups: LexiconGroup[]; lexicon: Lexicon} | undefined

/** The dictionary and glossary of this installation, read and parsed once per process. */
function shipped(): NonNullable<typeof shippedData> {
  if (shippedData) return shippedData
  const cedict = parseCedict(decodeUtf8(fs.readFileSync(CEDICT_FILE), CEDICT_FILE))
  const groups = parseLexiconFile(decodeUtf8(fs.readFileSync(GLOSSARY_FILE), GLOSSARY_FILE), GLOSSARY_FILE)
  shippedData = {cedict, groups, lexicon: makeLexicon(cedict, groups)}
  return shippedData
}

/** [size, mtime] of the project's .cairn/lexicon.yaml (the link itself if it is one), or null when there is none. */
export function lexiconStamp(store: Store | undefined): [number, number] | null {
  if (store?.kind !== 'project') return null
  try {
    const st = fs.lstatSync(abs(store, lexiconRel(store)))
    return [st.size, st.mtimeMs]
  } catch {
    return null
  }
}

/** The team file's bytes and groups; null when the store is not a project store or has no lexicon.yaml. */
function teamFile(store: Store | undefined): {bytes: Buffer; groups: LexiconGroup[]} | null {
  if (store?.kind !== 'project') return null
  const label = lexiconRel(store)
  const file = abs(store, label)
  let size: number
  try {
    size = fs.lstatSync(file).size
  } catch {
    return null
  }
  if (size > MAX_TEAM_LEXICON_BYTES) {
    const message = `is ${size} bytes, over the ${MAX_TEAM_LEXICON_BYTES}-byte limit`
    throw validationError([{file: label, field: '(content)', message, fix: 'keep only the groups your team needs'}])
  }
  // Refuses a link or a non-regular file, and still caps a file that grows after the lstat.
  const bytes = readRegularFile(file, label, MAX_TEAM_LEXICON_BYTES)
  return {bytes, groups: parseLexiconFile(decodeUtf8(bytes, label), label)}
}

/** The project's own groups from .cairn/lexicon.yaml (none when absent); an invalid file is a validation error. */
export function readTeamLexicon(store: Store | undefined): LexiconGroup[] {
  return teamFile(store)?.groups ?? []
}

/**
 * The lexicon recall expands with: the team's groups first, then the shipped glossary, and the dictionary.
 * `version` changes when the shipped data or the team file's bytes change.
 */
export function readLexicon(store: Store | undefined): {lexicon: Lexicon; version: string} {
  const base = shipped()
  const team = teamFile(store)
  if (!team) return {lexicon: base.lexicon, version: shortHash(lexiconDataVersion(), 'no team lexicon')}
  return {
    lexicon: makeLexicon(base.cedict, [...team.groups, ...base.groups]),
    version: shortHash(lexiconDataVersion(), 'team lexicon', team.bytes),
  }
}
