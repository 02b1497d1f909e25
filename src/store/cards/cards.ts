import fs from 'node:fs'
import path from 'node:path'
import type {Card} from '../../domain/card/schema.js'
import {CARD_TYPES, MAX_CARD_BYTES} from '../../domain/card/types.js'
import {CairnError} from '../../domain/errors.js'
import {compareStamps} from '../../domain/lifecycle.js'
import {decodeUtf8} from '../../domain/text.js'
import {openCardCache} from './card-cache.js'
import {abs, type Location, rel, type Store, storeDir} from '../layout.js'
import {isRealDir, readRegularFile} from '../files/safe-read.js'

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

/** Entries of a real directory: a symlinked directory is never listed, so never followed. */
function entries(dir: string): fs.Dirent[] {
  try {
    if (!isRealDir(dir)) return []
    return fs.readdirSync(dir, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch {
    return []
  }
}

const subdirs = (dir: string): string[] =>
  entries(dir)
    .filter(e => e.isDirectory())
    .map(e => e.name)

/** The archive directories, oldest first: by time, then by the number after a same-second clash (-10 after -9). */
const archives = (store: Store): string[] => subdirs(path.join(storeDir(store), 'archive')).sort(compareStamps)

function scanLocation(store: Store, base: string, location: Location, archiveTs?: string): CardFile[] {
  const out: CardFile[] = []
  for (const dir of subdirs(abs(store, base))) {
    // A directory entry's name holds no slash and is never . or ..: joined as it is (10,000 joins are a list's time).
    const inDir = path.posix.join(base, dir)
    // Links and other non-directories are listed with the cards, so that lint reports them.
    for (const {name: file} of entries(abs(store, inDir)).filter(e => !e.isDirectory())) {
      if (!file.endsWith('.md') || file.startsWith('.')) continue
      out.push({store, path: `${inDir}/${file}`, location, dir, name: file.slice(0, -3), archiveTs})
    }
  }
  return out
}

/** Every card file in the store: pending/, cards/ and, when asked, archive/<ts>/. */
export function listCardFiles(store: Store, options: {archive?: boolean} = {}): CardFile[] {
  const files = [
    ...scanLocation(store, rel(store, 'pending'), 'pending'),
    ...scanLocation(store, rel(store, 'cards'), 'cards'),
  ]
  if (options.archive) {
    for (const ts of archives(store)) {
      for (const loc of ['pending', 'cards'])
        files.push(...scanLocation(store, rel(store, 'archive', ts, loc), 'archive', ts))
    }
  }
  return files
}

/** The card parser (YAML and zod), loaded with the first card that must be parsed. */
const cardReader = async () => (await import('./card-file.js')).readCardFile

export async function loadCardFile(f: CardFile): Promise<LoadedCard> {
  const read = await cardReader()
  return {...f, card: read(abs(f.store, f.path), f.path)}
}

/**
 * Loads every card, collecting parse failures instead of stopping at the first; unchanged files come from the card cache.
 * Given stamps, it records the stamp each file had before it was read (the summary cache keeps them).
 */
export async function loadStore(
  store: Store,
  options: {archive?: boolean} = {},
  stamps?: Map<string, string>,
): Promise<{cards: LoadedCard[]; errors: {file: CardFile; error: CairnError}[]}> {
  const cards: LoadedCard[] = []
  const errors: {file: CardFile; error: CairnError}[] = []
  const cache = openCardCache(store)
  let read: Awaited<ReturnType<typeof cardReader>> | undefined
  for (const f of listCardFiles(store, options)) {
    const file = abs(f.store, f.path)
    const hit = cache.get(f.path, file, stamps)
    if (hit) {
      cards.push({...f, card: hit})
      continue
    }
    read ??= await cardReader()
    const stamp = cache.stamp(file)
    if (stamp !== undefined) stamps?.set(f.path, stamp)
    try {
      const card = read(file, f.path)
      cache.set(f.path, stamp, card)
      cards.push({...f, card})
    } catch (error) {
      if (!(error instanceof CairnError)) throw error
      errors.push({file: f, error})
    }
  }
  cache.save()
  return {cards, errors}
}

/** A file (or link, which reading then refuses) is there, reached through real directories only. */
function present(file: string): boolean {
  try {
    fs.lstatSync(file)
  } catch {
    return false
  }
  const type = path.dirname(file)
  return isRealDir(type) && isRealDir(path.dirname(type))
}

/** Files in pending/ or cards/ (and archive/ when asked) whose name is this id, any type dir. */
export function findById(store: Store, id: string, options: {archive?: boolean} = {}): CardFile[] {
  const hits: CardFile[] = []
  const probe = (base: string, location: Location, archiveTs?: string) => {
    for (const type of CARD_TYPES) {
      const p = path.posix.join(base, type, `${id}.md`)
      if (present(abs(store, p))) hits.push({store, path: p, location, dir: type, name: id, archiveTs})
    }
  }
  probe(rel(store, 'pending'), 'pending')
  probe(rel(store, 'cards'), 'cards')
  if (options.archive) {
    for (const ts of archives(store)) {
      probe(rel(store, 'archive', ts, 'pending'), 'archive', ts)
      probe(rel(store, 'archive', ts, 'cards'), 'archive', ts)
    }
  }
  return hits
}

/** A card file's text as it is on disk (show prints it whole). */
export function readCardText(f: CardFile): string {
  return decodeUtf8(readRegularFile(abs(f.store, f.path), f.path, MAX_CARD_BYTES), f.path)
}
