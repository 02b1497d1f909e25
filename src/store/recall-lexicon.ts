import fs from 'node:fs'
import {CairnError} from '../domain/errors.js'
import {formsTranslator, formsVersion, layered, makeTranslator, type Translator} from '../domain/recall/expand.js'
import type {LexiconGroup} from '../domain/recall/lexicon.js'
import {decodeUtf8} from '../domain/text.js'
import {abs, rel, type Store} from './layout.js'
import {LEXICON_FILE, lexiconDataFile, sourceVersion} from './recall-lexicon-version.js'
import {readRegularFile} from './safe-read.js'

/** A team's lexicon is a short list of terms; anything larger is refused. */
const TEAM_CAP = 1024 * 1024

let shipped: {translator: Translator; version: string} | undefined

/**
 * The shipped lexicon: the forms table the build precomputed (data/lexicon/forms.tsv), read once
 * per process; without it (or with compiled: false, which the build itself uses), made from the
 * dictionary and the glossary, which costs about two seconds.
 */
export async function shippedTranslator(options: {compiled?: boolean} = {}): Promise<{translator: Translator; version: string}> {
  if (options.compiled !== false) {
    if (shipped) return shipped
    const file = lexiconDataFile('forms.tsv')
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, 'utf8')
      const version = formsVersion(text)
      if (version === sourceVersion()) return (shipped = {translator: formsTranslator(text), version})
    }
  }
  const {parseCedict, parseLexiconFile} = await import('../domain/recall/lexicon.js')
  const cedict = parseCedict(fs.readFileSync(lexiconDataFile('cedict.tsv'), 'utf8'))
  const glossaryFile = lexiconDataFile('glossary.yaml')
  const glossary = fs.existsSync(glossaryFile) ? parseLexiconFile(fs.readFileSync(glossaryFile, 'utf8'), 'data/lexicon/glossary.yaml') : []
  const made = {translator: makeTranslator({cedict, groups: glossary}), version: sourceVersion()}
  if (options.compiled !== false) shipped = made
  return made
}

/** The groups of a project's .cairn/lexicon.yaml; none when it is absent. */
export async function readTeamLexicon(store: Store): Promise<LexiconGroup[]> {
  const label = rel(store, LEXICON_FILE)
  const file = abs(store, label)
  if (!fs.existsSync(file) && !isLink(file)) return []
  // The YAML parser and zod load only for a store that has a lexicon file.
  const {parseLexiconFile} = await import('../domain/recall/lexicon.js')
  return parseLexiconFile(decodeUtf8(readRegularFile(file, label, TEAM_CAP), label), label)
}

/**
 * The translator an index is built with: the team's groups first, then the shipped lexicon. A team
 * file that does not parse is left out here (recall still works with the shipped lexicon), and
 * `cairn lint` names what is wrong with it.
 */
export async function loadTranslator(primary: Store): Promise<Translator> {
  const base = (await shippedTranslator()).translator
  if (primary.kind !== 'project') return base
  let team: LexiconGroup[] = []
  try {
    team = await readTeamLexicon(primary)
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
  }
  return team.length ? layered(makeTranslator({cedict: new Map(), groups: team}), base) : base
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink()
  } catch {
    return false
  }
}
