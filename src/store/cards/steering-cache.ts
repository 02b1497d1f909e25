import {createHash} from 'node:crypto'
import type {SecretHit, Segment} from '../../domain/secrets.js'
import {cairnVersion} from './card-cache.js'
import {readJsonIn, usableIn, writeFileIn} from '../files/store-files.js'
import {rel, type Store} from '../layout.js'

/**
 * The steering check's findings for each card lint scanned, kept between runs in <store>/.cache/steering.json
 * (never committed), so a lint of an unchanged library runs none of its patterns again. Each entry is keyed by a
 * digest of everything the check reads: the card's fields, by name and text, and the link hosts allowed. A card
 * edited, added or moved, or a new content.allow_hosts, gives another key, so an entry is never stale; entries
 * no scan asked for are dropped when the file is written. A cairn of another version reads none of it, and a
 * missing or damaged file is ignored and written again.
 */
const SCHEMA = 'cairn/steering-cache@1'
const FILE = 'steering.json'
/** Far above a 100,000-card library's findings. */
const MAX_BYTES = 256 * 1024 * 1024

/** A finding with the card file it was in left out: the same text in another file finds the same. */
export type Finding = Omit<SecretHit, 'file'>

export interface SteeringCache {
  /** The key of a card's segments scanned with these hosts. */
  key(segments: readonly Segment[], hosts: readonly string[]): string
  get(key: string): Finding[] | undefined
  set(key: string, findings: Finding[]): void
  save(): void
}

const isFinding = (f: unknown): f is Finding =>
  typeof f === 'object' &&
  f !== null &&
  ['field', 'kind', 'rule', 'fingerprint'].every(k => typeof (f as Record<string, unknown>)[k] === 'string')

export function openSteeringCache(store: Store): SteeringCache {
  const file = rel(store, '.cache', FILE)
  const ok = usableIn(store.root, file)
  const data = (ok ? readJsonIn(store.root, file, MAX_BYTES) : undefined) as
    {schema?: string; cairn?: string; entries?: Record<string, Finding[]>} | undefined
  const old =
    data?.schema === SCHEMA && data.cairn === cairnVersion() && data.entries && typeof data.entries === 'object'
      ? data.entries
      : {}
  const seen: Record<string, Finding[]> = {}
  let changed = false
  return {
    key(segments, hosts) {
      const h = createHash('sha256').update(JSON.stringify(hosts))
      for (const s of segments) h.update(`${s.field.length}:${s.field}${s.text.length}:${s.text}`)
      return h.digest('base64')
    },
    get(key) {
      const entry = Object.hasOwn(old, key) ? old[key] : undefined
      if (!Array.isArray(entry) || !entry.every(isFinding)) return undefined
      seen[key] = entry
      return entry
    },
    set(key, findings) {
      seen[key] = findings
      changed = true
    },
    save() {
      if (!ok) return
      if (!changed && Object.keys(old).every(k => Object.hasOwn(seen, k))) return
      try {
        writeFileIn(store.root, file, JSON.stringify({schema: SCHEMA, cairn: cairnVersion(), entries: seen}), {
          durable: false,
        })
      } catch {
        // the findings only save time: a read-only checkout scans every time
      }
    },
  }
}
