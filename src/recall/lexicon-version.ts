import {createHash} from 'node:crypto'
import fs from 'node:fs'
import {fileURLToPath} from 'node:url'
import {formsVersion} from './match/expand.js'
export {lexiconRel} from '../store/layout.js'

/**
 * What identifies the lexicon an index was built with, cheap enough for every hook call: the
 * shipped data's version and the team's file under the store (its stamp, compared by the index).
 * The version is a hash of data/lexicon/cedict.tsv and glossary.yaml; the build writes it at the
 * head of the precomputed forms table, so a hook reads one line instead of hashing 2 MB.
 */
/** Bump when the way forms are made from the data changes (expand.ts), so old indexes are rebuilt. */
const FORMS_FORMAT = 'forms-2'

/** This installation's data/lexicon/: the same from src/recall/ (tests) and dist/recall/ (a build, an npm install). */
export const LEXICON_DATA_DIR = fileURLToPath(new URL('../../data/lexicon/', import.meta.url))
export const lexiconDataFile = (name: string): string => LEXICON_DATA_DIR + name

let version: string | undefined

export function lexiconDataVersion(): string {
  if (version) return version
  try {
    const fd = fs.openSync(lexiconDataFile('forms.tsv'), 'r')
    try {
      const head = Buffer.alloc(200)
      const n = fs.readSync(fd, head, 0, head.length, 0)
      const found = formsVersion(head.toString('utf8', 0, n))
      if (found) return (version = found)
    } finally {
      fs.closeSync(fd)
    }
  } catch {
    // No precomputed table (a source checkout before `npm run build`): hash the data instead.
  }
  return (version = sourceVersion())
}

/** The hash of the shipped data the forms are made from. */
export function sourceVersion(): string {
  const h = createHash('sha256').update(FORMS_FORMAT)
  for (const name of ['cedict.tsv', 'glossary.yaml']) {
    h.update('\0')
    if (fs.existsSync(lexiconDataFile(name))) h.update(fs.readFileSync(lexiconDataFile(name)))
  }
  return h.digest('hex').slice(0, 12)
}
