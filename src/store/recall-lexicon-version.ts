/**
 * What identifies the lexicon an index was built with, cheap enough for every hook call: the
 * shipped data's version (bump it with data/lexicon/) and the team's file under the store.
 */
export const LEXICON_DATA_VERSION = 'cedict-2026-01-04+glossary-1'
export const LEXICON_FILE = 'lexicon.yaml'
