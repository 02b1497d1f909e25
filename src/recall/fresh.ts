import {createHash} from 'node:crypto'
import fs from 'node:fs'
import {abs, configRel, rel, type Store} from '../store/layout.js'
import type {Found, Header, Stamp} from './format.js'
import {racy, sameStamp, stampsText} from './format.js'
import {lexiconDataVersion, lexiconRel} from './lexicon-version.js'
import {cardFileStats, readRegularFile} from '../store/files/safe-read.js'
import {SMALL_FILE} from '../store/files/store-files.js'

/** Pinned files are cards (256 KB at most) and settings files (1 MB): never a link, a FIFO or a device. */
const MAX_PINNED_BYTES = SMALL_FILE

/**
 * What the recall index is checked against on every hook call: one lstat per card file (path, size,
 * mtime, ctime), one stat per settings file, and the content of the few files whose stamps prove
 * nothing because they changed too close to the index's own scan (racy, format.ts).
 * Those are pinned by a hash of their content when the index is built, and hashed again to check.
 */
export interface Scan {
  /** Date.now() before the first stat. */
  scanned: number
  found: Found[]
  stamps: string
  configStamp: Stamp
  signalsStamp: Stamp
  lexicon: {version: string; stamp: Stamp}
  /** Every stamped file but the card files: config.yaml, signals.yaml, lexicon.yaml. */
  settings: {file: string; stamp: Stamp}[]
}

/** A settings file's stamp, by lstat: reading it refuses a link (store-files.ts), so a link is stamped as itself. */
export function stamp(file: string): Stamp {
  try {
    const s = fs.lstatSync(file, {throwIfNoEntry: false})
    return s ? [s.size, s.ctimeMs] : null
  } catch {
    return null
  }
}

/** What a scan stamps beyond the card files: the primary store's settings files. */
export type SettingsScan = Pick<Scan, 'configStamp' | 'signalsStamp' | 'lexicon' | 'settings'>

/**
 * Stamps the active-card candidates (the regular files under cards/<type>/ of each store, project
 * first; links are never followed) and the primary store's settings files.
 */
export function scanStores(stores: readonly Store[]): Scan {
  const scanned = Date.now()
  const found = stores.flatMap(foundIn)
  return {scanned, found, stamps: stampsText(found), ...scanSettings(stores[0])}
}

/** The card files of store si of a scan, stamped (cardFileStats: lstat, links never followed). */
export const foundIn = (store: Store, si: number): Found[] =>
  cardFileStats(abs(store, rel(store, 'cards'))).map(f => ({
    store: si,
    rel: `${f.type}/${f.name}`,
    file: f.file,
    size: f.size,
    mtime: f.mtime,
    ctime: f.ctime,
  }))

/** Stamps config.yaml, and in a project signals.yaml and lexicon.yaml. */
export function scanSettings(primary: Store): SettingsScan {
  const project = primary.kind === 'project'
  const stampOf = (file: string | null): Stamp => (file ? stamp(file) : null)
  const files = [
    abs(primary, configRel(primary)),
    project ? abs(primary, rel(primary, 'signals.yaml')) : null,
    project ? abs(primary, lexiconRel(primary)) : null,
  ]
  const [configStamp, signalsStamp, lexiconStamp] = files.map(stampOf)
  const settings = files.flatMap((file, i) =>
    file ? [{file, stamp: [configStamp, signalsStamp, lexiconStamp][i]}] : [],
  )
  return {configStamp, signalsStamp, lexicon: {version: lexiconDataVersion(), stamp: lexiconStamp}, settings}
}

/**
 * Whether an index's header holds these settings stamps and lexicon, and each settings file too
 * close to its scan for the stamp to tell still has the content pinned for it.
 */
export function settingsFresh(header: Header, now: SettingsScan): boolean {
  const same =
    sameStamp(header.config.stamp, now.configStamp) &&
    sameStamp(header.signals.stamp, now.signalsStamp) &&
    header.lexicon?.version === now.lexicon.version &&
    sameStamp(header.lexicon.stamp, now.lexicon.stamp)
  return (
    same &&
    unpinned(
      now.settings.filter(s => s.stamp && racy(s.stamp[1], header.scanned)).map(s => s.file),
      header.pins,
    ) === 0
  )
}

/** The files whose stamps cannot tell an edit from none since a scan that started at `since`. */
export function racyFiles(scan: Scan, since: number): string[] {
  const cards = scan.found.filter(f => racy(f.ctime, since)).map(f => f.file)
  return [...cards, ...scan.settings.filter(s => s.stamp && racy(s.stamp[1], since)).map(s => s.file)]
}

/** Each file's content hash; an unreadable file gets none, so it never matches a pin. */
export function pinsOf(files: readonly string[]): Record<string, string> {
  const pins: Record<string, string> = {}
  for (const file of files) {
    try {
      pins[file] = createHash('sha1')
        .update(readRegularFile(file, file, MAX_PINNED_BYTES))
        .digest('hex')
    } catch {
      // Gone or unreadable: no pin, so it counts as changed.
    }
  }
  return pins
}

/** How many of these files no longer hold the content pinned for them (or never had a pin). */
export function unpinned(files: readonly string[], pins: Readonly<Record<string, string>>): number {
  const now = pinsOf(files)
  return files.filter(f => !pins[f] || now[f] !== pins[f]).length
}
