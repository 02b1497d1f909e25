import fs from 'node:fs'
import {CairnError} from '../domain/errors.js'
import {formsTranslator, formsVersion, layered, makeTranslator, type Translator} from './match/expand.js'
import type {LexiconGroup} from './match/lexicon.js'
import type {Store} from '../store/layout.js'
import {lexiconDataFile, sourceVersion} from './lexicon-version.js'

let shipped: {translator: Translator; version: string} | undefined
/** The forms table's text the shipped translator searches, when it was read (cold.ts searches it as text too). */
let shippedText: string | undefined

/**
 * The shipped lexicon: the forms table the build precomputed (data/lexicon/forms.tsv), read once
 * per process; without it (or with compiled: false, which the build itself uses), made from the
 * dictionary and the glossary, which costs about two seconds.
 */
export async function shippedTranslator(
  options: {compiled?: boolean} = {},
): Promise<{translator: Translator; version: string}> {
  if (options.compiled !== false) {
    if (shipped) return shipped
    const file = lexiconDataFile('forms.tsv')
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, 'utf8')
      const version = formsVersion(text)
      if (version === sourceVersion()) {
        shippedText = text
        return (shipped = {translator: formsTranslator(text), version})
      }
    }
  }
  const {parseCedict, parseLexiconFile} = await import('./match/lexicon.js')
  const cedict = parseCedict(fs.readFileSync(lexiconDataFile('cedict.tsv'), 'utf8'))
  const glossaryFile = lexiconDataFile('glossary.yaml')
  const glossary = fs.existsSync(glossaryFile)
    ? parseLexiconFile(fs.readFileSync(glossaryFile, 'utf8'), 'data/lexicon/glossary.yaml')
    : []
  const made = {translator: makeTranslator({cedict, groups: glossary}), version: sourceVersion()}
  if (options.compiled !== false) shipped = made
  return made
}

/** The precomputed forms table the shipped translator reads, once it has read it; undefined when it was made from the data. */
export const shippedFormsText = (): string | undefined => shippedText

/**
 * The translator an index is built with: the team's groups first, then the shipped lexicon. A team
 * file that does not parse is left out here (recall still works with the shipped lexicon), and
 * `cairn lint` names what is wrong with it.
 */
export async function loadTranslator(primary: Store): Promise<Translator> {
  return (await loadLexicon(primary)).translator
}

/**
 * The translator and the version of the shipped data it was made from: an index is stamped with
 * that version, so one built while the precomputed table was stale is rebuilt once it is fresh.
 */
export async function loadLexicon(primary: Store): Promise<{translator: Translator; version: string}> {
  const shipped = await shippedTranslator()
  return {translator: await withTeam(primary, shipped.translator), version: shipped.version}
}

async function withTeam(primary: Store, base: Translator): Promise<Translator> {
  const team = await teamTranslator(primary)
  return team ? layered(team, base) : base
}

/** The team's lexicon.yaml as a translator, null when a project has none (or it does not parse), as loadLexicon layers it. */
export async function teamTranslator(primary: Store): Promise<Translator | null> {
  if (primary.kind !== 'project') return null
  let team: LexiconGroup[] = []
  try {
    const {readTeamLexicon} = await import('./team-lexicon.js')
    team = readTeamLexicon(primary)
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
  }
  return team.length ? makeTranslator({cedict: new Map(), groups: team}) : null
}
