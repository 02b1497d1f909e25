import fs from 'node:fs'
import path from 'node:path'
import type {CorpusStats} from '../domain/recall/bm25.js'
import type {CardDoc, MatchDoc} from '../domain/recall/doc.js'
import type {Signal} from '../domain/recall/signals.js'
import {CARD_TYPES} from '../domain/card/types.js'
import {abs, configRel, rel, type Store, storeDir} from './layout.js'
import {type Found, type Settings, type Stamp, stampsText} from './recall-index-format.js'
import {type Opened, openIndexFile, parseHead, region, view} from './recall-index-read.js'

export {cachedRecords, type CachedRecord, type Opened, region} from './recall-index-read.js'

/**
 * The recall index in <store>/.cache/ (layout in recall-index-format.ts): derived and never
 * committed, so it is written directly, not through a transaction. A warm prompt stats the card
 * files, compares their stamps with the cached ones as one string, looks its terms up by binary
 * search, and decodes only the cards that can still be admitted: never a card file, YAML or zod.
 * A changed (path, size, mtime) re-parses that file alone; a corrupt, old or foreign cache is
 * rebuilt without a word.
 */
export const INDEX_FILE = 'recall-index'
export const indexPath = (primary: Store): string => path.join(storeDir(primary), '.cache', INDEX_FILE)

export interface RecallIndex {
  settings: Settings
  signals: Signal[]
  stats: CorpusStats
  /**
   * Visible records that could be admitted: for a short query, any sharing a phrase word or bigram;
   * else those whose admitting phrases can still reach MIN_STRONG (phraseBound), so none is missed.
   * `terms` are all weighted prompt terms, single CJK characters included.
   */
  candidates(terms: Iterable<string>, short: boolean): MatchDoc[]
  /** The full record of a candidate (for admitted cards). */
  hydrate(doc: MatchDoc): CardDoc
  close(): void
  rebuilt: boolean
}

export function stamp(file: string): Stamp {
  try {
    const s = fs.statSync(file)
    return [s.size, s.mtimeMs]
  } catch {
    return null
  }
}

export const sameStamp = (a: Stamp, b: Stamp): boolean => (a === null ? b === null : b !== null && a[0] === b[0] && a[1] === b[1])

/** Active-card candidates: the files under cards/<type>/ of each store, project first. */
function scan(stores: readonly Store[]): Found[] {
  const out: Found[] = []
  stores.forEach((store, si) => {
    const base = abs(store, rel(store, 'cards'))
    for (const type of CARD_TYPES) {
      let names: string[]
      try {
        names = fs.readdirSync(`${base}/${type}`)
      } catch {
        continue
      }
      for (const name of names) {
        if (!name.endsWith('.md') || name.startsWith('.')) continue
        const file = `${base}/${type}/${name}`
        const s = stamp(file)
        if (s) out.push({store: si, rel: `${type}/${name}`, file, size: s[0], mtime: s[1]})
      }
    }
  })
  return out
}

/** Opens the index for these stores (primary first), bringing it up to date on the way. */
export async function openIndex(stores: readonly Store[]): Promise<RecallIndex> {
  const file = indexPath(stores[0])
  const found = scan(stores)
  const stamps = stampsText(found)
  const configStamp = stamp(abs(stores[0], configRel(stores[0])))
  const signalsStamp = stores[0].kind === 'project' ? stamp(abs(stores[0], rel(stores[0], 'signals.yaml'))) : null
  const cached = openIndexFile(file)
  try {
    if (cached && fresh(cached, stores, stamps, configStamp, signalsStamp)) return view(cached, false)
  } catch {
    // A region that cannot be read is as good as no cache.
  }
  // The cold path's modules (card parser, YAML, zod, crypto for atomic writes) load only here.
  const [{rebuild}, {writeFileAtomic}] = await Promise.all([import('./recall-index-build.js'), import('./fsutil.js')])
  let bytes: Buffer
  try {
    bytes = rebuild({stores, found, cached, configStamp, signalsStamp})
  } finally {
    if (cached) fs.closeSync(cached.fd)
  }
  try {
    writeFileAtomic(file, bytes)
  } catch {
    // A read-only or full disk costs speed, not correctness: the index is rebuilt next time.
  }
  return view({...parseHead(bytes), fd: -1, bytes}, true)
}

function fresh(o: Opened, stores: readonly Store[], stamps: string, configStamp: Stamp, signalsStamp: Stamp): boolean {
  const h = o.header
  if (h.stores.length !== stores.length || h.stores.some((s, i) => s !== storeDir(stores[i]))) return false
  if (!sameStamp(h.config.stamp, configStamp) || !sameStamp(h.signals.stamp, signalsStamp)) return false
  const want = Buffer.from(stamps)
  return want.length === h.regions.stamps[1] && want.equals(region(o, 'stamps'))
}
