import fs from 'node:fs'
import type {Card} from '../../domain/card/schema.js'
import {abs, rel, type Store} from '../layout.js'
import {readJsonIn, usableIn, writeFileIn} from '../files/store-files.js'
import {packageFile} from '../package-files.js'

/**
 * Cards already parsed and checked, kept between runs in <store>/.cache/cards.json (never
 * committed), so a read of the whole store (list, review, maintain's plan) parses only the files
 * that changed. Each entry is keyed by the file's repo-relative path and stamped with its size,
 * mtime, ctime and inode, taken before it was read: any change to the file (an edit, a checkout, a
 * file moved onto it) changes the ctime, so it misses and is parsed again. A cairn of another
 * version reads none of it. Writes never use it: a transaction parses what it commits.
 */

/** @2: a cached card waiting for review says status pending (@1 held draft), whatever the cairn version says. */
const SCHEMA = 'cairn/card-cache@2'

let version: string | undefined
/** This cairn's version: parsing may change between versions, so a cache is only trusted by the one that wrote it. */
export function cairnVersion(): string {
  if (version === undefined) {
    try {
      version = String(JSON.parse(fs.readFileSync(packageFile('package.json'), 'utf8')).version)
    } catch {
      version = ''
    }
  }
  return version
}

type Entries = Record<string, [stamp: string, card: Card]>

export interface CardCache {
  /** The cached card for this file, when the file is a regular file unchanged since it was cached (its stamp then goes in stamps). */
  get(relPath: string, file: string, stamps?: Map<string, string>): Card | undefined
  /** The file's stamp, taken before it is read; undefined when it cannot be stamped (then nothing is kept). */
  stamp(file: string): string | undefined
  set(relPath: string, stamp: string | undefined, card: Card): void
  /** Writes the cache when it changed; entries of files gone or changed are dropped. */
  save(): void
}

export const cardCacheRel = (s: Store): string => rel(s, '.cache', 'cards.json')
/** Far above a 100,000-card library's cache; a file over it is no cache of cairn's. */
const MAX_CACHE_BYTES = 1024 * 1024 * 1024

export function stampOf(file: string): string | undefined {
  try {
    const st = fs.lstatSync(file, {bigint: true})
    if (!st.isFile()) return undefined
    return `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`
  } catch {
    return undefined
  }
}

/** The cached entries; none when the file is missing or damaged: every card is parsed, and the cache written again. */
function readEntries(store: Store): Entries {
  const data = readJsonIn(store.root, cardCacheRel(store), MAX_CACHE_BYTES) as
    {schema?: string; cairn?: string; entries?: Entries} | undefined
  if (data?.schema === SCHEMA && data.cairn === cairnVersion() && data.entries && typeof data.entries === 'object')
    return data.entries
  return {}
}

export function openCardCache(store: Store): CardCache {
  const ok = usableIn(store.root, cardCacheRel(store))
  const old = ok ? readEntries(store) : {}
  const seen: Entries = {}
  let changed = false
  return {
    get(relPath, absPath, stamps) {
      const entry = Object.hasOwn(old, relPath) ? old[relPath] : undefined
      if (!entry || entry[0] !== stampOf(absPath)) return undefined
      seen[relPath] = entry
      stamps?.set(relPath, entry[0])
      return entry[1]
    },
    stamp: stampOf,
    set(relPath, stamp, card) {
      if (stamp === undefined) return
      seen[relPath] = [stamp, card]
      changed = true
    },
    save() {
      if (!ok) return
      // Entries this read did not ask for (archived cards, say) stay while their file is unchanged.
      for (const [relPath, entry] of Object.entries(old)) {
        if (Object.hasOwn(seen, relPath)) continue
        if (entry[0] === stampOf(abs(store, relPath))) seen[relPath] = entry
        else changed = true
      }
      if (!changed) return
      try {
        writeFileIn(
          store.root,
          cardCacheRel(store),
          JSON.stringify({schema: SCHEMA, cairn: cairnVersion(), entries: seen}),
          {durable: false},
        )
      } catch {
        // the cache only saves time: a read-only checkout parses every time
      }
    },
  }
}
