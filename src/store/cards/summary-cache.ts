import path from 'node:path'
import type {CardStatus, CardType, Load} from '../../domain/card/types.js'
import {abs, rel, type Store} from '../layout.js'
import {readJsonIn, usableIn, writeFileIn} from '../files/store-files.js'
import {cairnVersion, cardCacheRel, stampOf} from './card-cache.js'
import {type CardFile, listCardFiles, loadStore} from './cards.js'

/**
 * What `cairn list` prints and filters on, kept between runs in <store>/.cache/list.json (never committed), so a
 * warm list reads neither card files nor the card cache's whole cards: the card cache holds every field of every
 * card, and parsing it was most of a list. It is a summary of the card cache: each entry is keyed by the file's
 * repo-relative path and holds the same stamp (size, mtime, ctime, inode, taken before the file was read) and the
 * card's summary, or nothing for a file that could not be read as a card. A file whose stamp changed, or a new
 * file, misses; then the store is read through the card cache (cards.ts loadStore) and the summaries written
 * again. The file names the card cache it was made beside (its stamp): once that cache is written again (another
 * read parsed a changed file, another cairn version wrote it), the summaries are made again from it. A cairn of
 * another version reads none of it, and a missing or damaged file is ignored and written again.
 */
const SCHEMA = 'cairn/list-cache@1'
const FILE = 'list.json'
/** Far above a 100,000-card library's summaries. */
const MAX_BYTES = 256 * 1024 * 1024

export interface CardSummary {
  id: string
  type: CardType
  status: CardStatus
  load: Load
  title: string
  category: string
  deferred_until: string | null
}

export interface SummarisedCard extends CardFile {
  summary: CardSummary
}

export interface StoreSummaries {
  cards: SummarisedCard[]
  /** The card files that could not be read as cards. */
  unreadable: CardFile[]
}

/**
 * A card file's stamp and its summary's fields, in the order of FIELDS (an array: names once per file, not once per
 * card, keep a 10,000-card file small to parse); the stamp alone for a file that is no card.
 */
type Entry =
  | [stamp: string]
  | [
      stamp: string,
      id: string,
      type: string,
      status: string,
      load: string,
      title: string,
      category: string,
      deferred_until: string | null,
    ]
type Entries = Record<string, Entry>
const FIELDS = ['id', 'type', 'status', 'load', 'title', 'category', 'deferred_until'] as const

const isEntry = (e: unknown): e is Entry =>
  Array.isArray(e) &&
  typeof e[0] === 'string' &&
  (e.length === 1 ||
    (e.length === FIELDS.length + 1 &&
      e.slice(1, -1).every(v => typeof v === 'string') &&
      (e[FIELDS.length] === null || typeof e[FIELDS.length] === 'string')))

const entryOf = (stamp: string, c: CardSummary): Entry => [stamp, ...FIELDS.map(k => c[k])] as Entry

function summaryOf(e: Entry): CardSummary | undefined {
  if (e.length === 1) return undefined
  const [, id, type, status, load, title, category, deferred_until] = e
  return {id, type: type as CardType, status: status as CardStatus, load: load as Load, title, category, deferred_until}
}

/** The entries, when the file is this version's and was made beside the card cache as it is now; else none. */
function readEntries(store: Store, file: string): Entries | undefined {
  const data = readJsonIn(store.root, file, MAX_BYTES) as
    {schema?: string; cairn?: string; cards?: string | null; entries?: Entries} | undefined
  if (data?.schema !== SCHEMA || data.cairn !== cairnVersion()) return undefined
  if (data.cards !== (stampOf(abs(store, cardCacheRel(store))) ?? null)) return undefined
  return data.entries && typeof data.entries === 'object' ? data.entries : undefined
}

/** Every card file's summary, from the cache while every file is as it was; else read through the card cache. */
function fromCache(store: Store, files: CardFile[], entries: Entries): StoreSummaries | undefined {
  const out: StoreSummaries = {cards: [], unreadable: []}
  // abs() splits and joins each path; where the separator is /, the store's root and the path are joined as they are.
  const root = `${store.root}/`
  const absOf = path.sep === '/' ? (p: string) => root + p : (p: string) => abs(store, p)
  for (const f of files) {
    const entry = Object.hasOwn(entries, f.path) ? entries[f.path] : undefined
    if (!isEntry(entry) || entry[0] !== stampOf(absOf(f.path))) return undefined
    const summary = summaryOf(entry)
    if (summary) out.cards.push({...f, summary})
    else out.unreadable.push(f)
  }
  return out
}

/** The card files of a store (archive/ too when asked), each with the summary list shows, or unreadable. */
export async function summariseStore(store: Store, options: {archive?: boolean} = {}): Promise<StoreSummaries> {
  const file = rel(store, '.cache', FILE)
  const ok = usableIn(store.root, file)
  const old = ok ? readEntries(store, file) : undefined
  if (old) {
    const hit = fromCache(store, listCardFiles(store, options), old)
    if (hit) return hit
  }
  const stamps = new Map<string, string>()
  const loaded = await loadStore(store, options, stamps)
  const out: StoreSummaries = {
    cards: loaded.cards.map(({card, ...f}) => ({
      ...f,
      summary: {
        id: card.id,
        type: card.type,
        status: card.status,
        load: card.load,
        title: card.title,
        category: card.category,
        deferred_until: card.deferred_until,
      },
    })),
    unreadable: loaded.errors.map(e => e.file),
  }
  if (ok) save(store, file, old ?? {}, stamps, out)
  return out
}

function save(store: Store, file: string, old: Entries, stamps: Map<string, string>, read: StoreSummaries): void {
  const entries: Entries = {}
  // Summaries this read did not ask for (archived cards, say) stay while their file is unchanged.
  for (const [relPath, entry] of Object.entries(old))
    if (isEntry(entry) && entry[0] === stampOf(abs(store, relPath))) entries[relPath] = entry
  for (const c of read.cards) {
    const stamp = stamps.get(c.path)
    if (stamp === undefined) delete entries[c.path]
    else entries[c.path] = entryOf(stamp, c.summary)
  }
  for (const f of read.unreadable) {
    const stamp = stamps.get(f.path)
    if (stamp === undefined) delete entries[f.path]
    else entries[f.path] = [stamp]
  }
  try {
    const cards = stampOf(abs(store, cardCacheRel(store))) ?? null
    writeFileIn(store.root, file, JSON.stringify({schema: SCHEMA, cairn: cairnVersion(), cards, entries}), {
      durable: false,
    })
  } catch {
    // the summaries only save time: a read-only checkout reads the card cache every time
  }
}
