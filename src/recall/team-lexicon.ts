import {validationError} from '../domain/errors.js'
import {type LexiconGroup, parseLexiconFile} from './match/lexicon.js'
import {decodeUtf8} from '../domain/text.js'
import type {Store} from '../store/layout.js'
import {lexiconRel} from './lexicon-version.js'
import {readFileIn, statIn} from '../store/files/store-files.js'

/**
 * A team's .cairn/lexicon.yaml (the groups it adds to the shipped glossary), read safely. It loads
 * the YAML parser and zod, so the prompt path never imports it: only index rebuilds and lint do.
 */
export {lexiconRel}
/** A team lexicon is a few hundred groups; a bigger file is a mistake, not a lexicon. */
export const MAX_TEAM_LEXICON_BYTES = 1024 * 1024

/** The team file's bytes and groups; null when the store is not a project store or has no lexicon.yaml. */
function teamFile(store: Store | undefined): {bytes: Buffer; groups: LexiconGroup[]} | null {
  if (store?.kind !== 'project') return null
  const label = lexiconRel(store)
  let size: number
  try {
    size = statIn(store.root, label)?.size ?? -1
  } catch {
    size = 0 // a link on the way: the read below refuses it by name
  }
  if (size < 0) return null
  if (size > MAX_TEAM_LEXICON_BYTES) {
    const message = `is ${size} bytes, over the ${MAX_TEAM_LEXICON_BYTES}-byte limit`
    throw validationError([{file: label, field: '(content)', message, fix: 'keep only the groups your team needs'}])
  }
  // Refuses a link or a non-regular file, and still caps a file that grows after the lstat.
  const bytes = readFileIn(store.root, label, MAX_TEAM_LEXICON_BYTES)
  if (bytes === null) return null
  return {bytes, groups: parseLexiconFile(decodeUtf8(bytes, label), label)}
}

/** The project's own groups from .cairn/lexicon.yaml (none when absent); an invalid file is a validation error. */
export function readTeamLexicon(store: Store | undefined): LexiconGroup[] {
  return teamFile(store)?.groups ?? []
}
