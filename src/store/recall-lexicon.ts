import fs from 'node:fs'
import {fileURLToPath} from 'node:url'
import {CairnError} from '../domain/errors.js'
import {type LexiconGroup, parseCedict, parseLexiconFile} from '../domain/recall/lexicon.js'
import {makeTranslator, type Translator} from '../domain/recall/expand.js'
import {decodeUtf8} from '../domain/text.js'
import {abs, rel, type Store} from './layout.js'
import {LEXICON_FILE} from './recall-lexicon-version.js'
import {readRegularFile} from './safe-read.js'

/** The shipped lexicon data (data/lexicon/), beside dist/ in the package. */
const DATA = (name: string): string => fileURLToPath(new URL(`../../data/lexicon/${name}`, import.meta.url))
/** A team's lexicon is a short list of terms; anything larger is refused. */
const TEAM_CAP = 1024 * 1024

let shipped: {cedict: Map<string, string[]>; glossary: LexiconGroup[]} | undefined

/** The dictionary and the glossary, read once per process (index rebuilds only). */
function shippedData(): {cedict: Map<string, string[]>; glossary: LexiconGroup[]} {
  shipped ??= {
    cedict: parseCedict(fs.readFileSync(DATA('cedict.tsv'), 'utf8')),
    glossary: fs.existsSync(DATA('glossary.yaml')) ? parseLexiconFile(fs.readFileSync(DATA('glossary.yaml'), 'utf8'), 'data/lexicon/glossary.yaml') : [],
  }
  return shipped
}

/** The groups of a project's .cairn/lexicon.yaml; none when it is absent. Lint reports an invalid one. */
export function readTeamLexicon(store: Store): LexiconGroup[] {
  const label = rel(store, LEXICON_FILE)
  const file = abs(store, label)
  if (!fs.existsSync(file) && !isLink(file)) return []
  return parseLexiconFile(decodeUtf8(readRegularFile(file, label, TEAM_CAP), label), label)
}

/**
 * The translator an index is built with: the team's groups first, then the shipped glossary, then
 * the dictionary. A team file that does not parse is left out here (the index still serves
 * recall with the shipped lexicon) and `cairn lint` names what is wrong with it.
 */
export function loadTranslator(primary: Store): Translator {
  const {cedict, glossary} = shippedData()
  let team: LexiconGroup[] = []
  if (primary.kind === 'project') {
    try {
      team = readTeamLexicon(primary)
    } catch (error) {
      if (!(error instanceof CairnError)) throw error
    }
  }
  return makeTranslator({cedict, groups: [...team, ...glossary]})
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink()
  } catch {
    return false
  }
}
