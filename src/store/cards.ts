import fs from 'node:fs'
import path from 'node:path'
import {parseCard} from '../domain/card/format.js'
import {type Card, MAX_CARD_BYTES} from '../domain/card/schema.js'
import {CARD_TYPES} from '../domain/card/types.js'
import {CairnError, validationError} from '../domain/errors.js'
import {decodeUtf8} from '../domain/text.js'
import {abs, type Location, rel, type Store, storeDir} from './layout.js'

/** A card file found in a store, parsed or with the error that stopped it. */
export interface CardFile {
  store: Store
  /** Repo-relative POSIX path. */
  path: string
  location: Location
  /** Type directory the file sits in (may disagree with the card's own type). */
  dir: string
  /** File name without .md. */
  name: string
  archiveTs?: string
}

export interface LoadedCard extends CardFile {
  card: Card
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir)
  } catch {
    return []
  }
}

function scanLocation(store: Store, base: string, location: Location, archiveTs?: string): CardFile[] {
  const out: CardFile[] = []
  for (const dir of listDir(abs(store, base)).sort()) {
    for (const file of listDir(abs(store, path.posix.join(base, dir))).sort()) {
      if (!file.endsWith('.md') || file.startsWith('.')) continue
      out.push({store, path: path.posix.join(base, dir, file), location, dir, name: file.slice(0, -3), archiveTs})
    }
  }
  return out
}

/** Every card file in the store: pending/, cards/ and, when asked, archive/<ts>/. */
export function listCardFiles(store: Store, options: {archive?: boolean} = {}): CardFile[] {
  const files = [...scanLocation(store, rel(store, 'pending'), 'pending'), ...scanLocation(store, rel(store, 'cards'), 'cards')]
  if (options.archive) {
    for (const ts of listDir(path.join(storeDir(store), 'archive')).sort()) {
      for (const loc of ['pending', 'cards']) files.push(...scanLocation(store, rel(store, 'archive', ts, loc), 'archive', ts))
    }
  }
  return files
}

/** Reads a card file as bad input is defined: size cap, strict UTF-8, schema. */
export function readCardFile(file: string, label: string): Card {
  let stat: fs.Stats
  try {
    stat = fs.statSync(file)
  } catch {
    throw new CairnError('not_found', `${label}: no such file`)
  }
  if (stat.size > MAX_CARD_BYTES) {
    throw validationError([{file: label, field: '(content)', message: `card is ${stat.size} bytes, over the ${MAX_CARD_BYTES}-byte limit`, fix: 'shorten the card'}])
  }
  return parseCard(decodeUtf8(fs.readFileSync(file), label), label)
}

export function loadCardFile(f: CardFile): LoadedCard {
  return {...f, card: readCardFile(abs(f.store, f.path), f.path)}
}

/** Loads every card, collecting parse failures instead of stopping at the first. */
export function loadStore(store: Store, options: {archive?: boolean} = {}): {cards: LoadedCard[]; errors: {file: CardFile; error: CairnError}[]} {
  const cards: LoadedCard[] = []
  const errors: {file: CardFile; error: CairnError}[] = []
  for (const f of listCardFiles(store, options)) {
    try {
      cards.push(loadCardFile(f))
    } catch (error) {
      if (!(error instanceof CairnError)) throw error
      errors.push({file: f, error})
    }
  }
  return {cards, errors}
}

/** Files in pending/ or cards/ (and archive/ when asked) whose name is this id, any type dir. */
export function findById(store: Store, id: string, options: {archive?: boolean} = {}): CardFile[] {
  const hits: CardFile[] = []
  const probe = (base: string, location: Location, archiveTs?: string) => {
    for (const type of CARD_TYPES) {
      const p = path.posix.join(base, type, `${id}.md`)
      if (fs.existsSync(abs(store, p))) hits.push({store, path: p, location, dir: type, name: id, archiveTs})
    }
  }
  probe(rel(store, 'pending'), 'pending')
  probe(rel(store, 'cards'), 'cards')
  if (options.archive) {
    for (const ts of listDir(path.join(storeDir(store), 'archive')).sort()) {
      probe(rel(store, 'archive', ts, 'pending'), 'archive', ts)
      probe(rel(store, 'archive', ts, 'cards'), 'archive', ts)
    }
  }
  return hits
}

/** A card file's text as it is on disk (show prints it whole). */
export function readCardText(f: CardFile): string {
  return decodeUtf8(fs.readFileSync(abs(f.store, f.path)), f.path)
}
