import {getRule} from '../domain/card/sections.js'
import {buildDoc, type CardDoc} from '../domain/recall/doc.js'
import {readCardFile} from './cards.js'
import {readConfig} from './config.js'
import {type Store, storeDir} from './layout.js'
import {serialize} from './recall-index.js'
import {readProjectSignals} from './signals.js'

/**
 * The cold half of the index: loaded only when something changed, because it needs the card
 * parser, YAML and zod. Unchanged files keep their records byte for byte; changed ones are parsed.
 */
type Stamp = [number, number] | null

export interface RebuildInput {
  stores: readonly Store[]
  primary: Store
  found: {store: Store; file: string; size: number; mtime: number}[]
  cached: {header: {files: [string, number, number, number, 0 | 1][]; offsets: number[]; config: {stamp: Stamp; settings: unknown}; signals: {stamp: Stamp; list: unknown[]}}; buf: Buffer; body: number} | null
  configStamp: Stamp
  signalsStamp: Stamp
}

export async function rebuild(input: RebuildInput) {
  const {stores, primary, found, cached} = input
  const old = new Map<string, {size: number; mtime: number; json: string | null}>()
  if (cached) {
    const {header, buf, body} = cached
    for (const [p, size, mtime, i] of header.files) {
      old.set(p, {size, mtime, json: i >= 0 ? buf.toString('utf8', body + header.offsets[i], body + header.offsets[i + 1]) : null})
    }
  }
  const records: {json: string; visible: boolean; doc?: CardDoc; id: string}[] = []
  const files: [string, number, number, number, 0 | 1][] = []
  const seen = new Set<string>()
  for (const f of found) {
    const prev = old.get(f.file)
    let json: string | null
    let doc: CardDoc | undefined
    if (prev && prev.size === f.size && prev.mtime === f.mtime) json = prev.json
    else {
      doc = parseActive(f.store, f.file)
      json = doc ? JSON.stringify(doc) : null
    }
    if (json === null) {
      files.push([f.file, f.size, f.mtime, -1, 0])
      continue
    }
    const id = doc?.id ?? (JSON.parse(json) as CardDoc).id
    // Stores come project first, so the first copy of an id is the one that wins.
    const visible = !seen.has(id)
    seen.add(id)
    files.push([f.file, f.size, f.mtime, records.length, visible ? 1 : 0])
    records.push({json, visible, doc, id})
  }
  const config = cached && sameStamp(cached.header.config.stamp, input.configStamp) ? cached.header.config : {stamp: input.configStamp, settings: settingsOf(primary)}
  const signals = cached && sameStamp(cached.header.signals.stamp, input.signalsStamp) ? cached.header.signals : {stamp: input.signalsStamp, list: primary.kind === 'project' ? readProjectSignals(primary) : []}
  const {INDEX_VERSION} = await import('./recall-index.js')
  return serialize({version: INDEX_VERSION, stores: stores.map(storeDir), files, config: config as never, signals: signals as never}, records, json => JSON.parse(json) as CardDoc)
}

const sameStamp = (a: Stamp, b: Stamp): boolean => (a === null ? b === null : b !== null && a[0] === b[0] && a[1] === b[1])

/** A card file's record when it is an active card; a broken file is skipped (lint reports it). */
function parseActive(store: Store, file: string): CardDoc | undefined {
  try {
    const card = readCardFile(file, file)
    if (card.status !== 'active') return undefined
    const relPath = file.slice(store.root.length + 1).split('\\').join('/')
    return buildDoc(card, getRule(card.body) ?? '', {store: store.kind, path: relPath})
  } catch {
    return undefined
  }
}

function settingsOf(store: Store) {
  const c = readConfig(store)
  return {maxCards: c.recall.max_cards, budgetChars: c.recall.budget_chars, projectKey: c.project_key}
}
