import fs from 'node:fs'
import path from 'node:path'
import {CARD_TYPES} from '../domain/card/types.js'
import {abs, configRel, rel, type Store, storeDir} from './layout.js'
import {type Found, type RecallIndex, sameStamp, type Stamp, stampsText} from './recall-index-format.js'
import {cacheUsable, type Opened, openIndexFile, parseHead, region, view} from './recall-index-read.js'
import {isRealDir} from './safe-read.js'

export type {RecallIndex} from './recall-index-format.js'
export {cachedRecords, type CachedRecord} from './recall-index-read.js'

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

/** Follows a link, as reading config.yaml and signals.yaml does; card files are stamped by scan() with lstat. */
export function stamp(file: string): Stamp {
  try {
    const s = fs.statSync(file)
    return [s.size, s.mtimeMs]
  } catch {
    return null
  }
}

/**
 * Active-card candidates: the regular files under cards/<type>/ of each store, project first.
 * Links are never followed, whether a card file, a type directory or cards/ itself.
 */
function scan(stores: readonly Store[]): Found[] {
  const out: Found[] = []
  stores.forEach((store, si) => {
    const base = abs(store, rel(store, 'cards'))
    if (!isRealDir(base)) return
    for (const type of CARD_TYPES) {
      const dir = `${base}/${type}`
      if (!isRealDir(dir)) continue
      let names: string[]
      try {
        names = fs.readdirSync(dir)
      } catch {
        continue
      }
      for (const name of names) {
        if (!name.endsWith('.md') || name.startsWith('.')) continue
        const file = `${dir}/${name}`
        try {
          const s = fs.lstatSync(file)
          if (s.isFile()) out.push({store: si, rel: `${type}/${name}`, file, size: s.size, mtime: s.mtimeMs})
        } catch {
          // Gone since the listing.
        }
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
    if (cacheUsable(file)) writeFileAtomic(file, bytes)
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
