import {getRule} from '../domain/card/sections.js'
import {decodeMatch, decodeRank, encodeMatch, encodeRank} from '../domain/recall/codec.js'
import {buildDoc, type CardDoc, candidateTermsOf, strongPhrases} from '../domain/recall/doc.js'
import {readCardFile} from './cards.js'
import type {Config} from '../domain/config.js'
import {readConfig} from './config.js'
import {type Store, storeDir} from './layout.js'
import {type Found, INDEX_VERSION, IndexWriter, sameStamp, type HookSettings, type Settings, type Stamp} from './recall-index-format.js'
import {type Opened, region} from './recall-index-read.js'
import {readProjectSignals} from './signals.js'

/**
 * The cold half of the index: loaded only when something changed, because it needs the card
 * parser, YAML and zod. Records of unchanged files are carried over; changed files are parsed.
 */
export interface RebuildInput {
  stores: readonly Store[]
  found: Found[]
  cached: Opened | null
  configStamp: Stamp
  signalsStamp: Stamp
}

export function rebuild(input: RebuildInput): Buffer {
  const {stores, found} = input
  const old = previous(input.cached)
  const writer = new IndexWriter()
  const files: [number, 0 | 1][] = []
  const seen = new Set<string>()
  for (const f of found) {
    const prev = old.get(`${storeDir(stores[f.store])}\n${f.rel}`)
    let doc: CardDoc | undefined
    let halves: {match: string; rank: string} | undefined
    if (prev && prev.size === f.size && prev.mtime === f.mtime) {
      halves = prev.halves
      if (halves) doc = {...decodeMatch(halves.match), ...decodeRank(halves.rank)}
    } else {
      doc = parseActive(stores[f.store], f.file)
      if (doc) halves = {match: encodeMatch(doc), rank: encodeRank(doc)}
    }
    if (!doc || !halves) {
      files.push([-1, 0])
      continue
    }
    // Stores come project first, so the first copy of an id is the one that wins.
    const visible = !seen.has(doc.id)
    seen.add(doc.id)
    files.push([writer.add({...halves, visible, strong: strongPhrases(doc), support: candidateTermsOf(doc).support, tf: doc.tf, len: doc.len}), visible ? 1 : 0])
  }
  const cached = input.cached?.header
  const primary = stores[0]
  const config = cached && sameStamp(cached.config.stamp, input.configStamp) ? cached.config : {stamp: input.configStamp, settings: settingsOf(primary)}
  const signals = cached && sameStamp(cached.signals.stamp, input.signalsStamp) ? cached.signals : {stamp: input.signalsStamp, list: primary.kind === 'project' ? readProjectSignals(primary) : []}
  return writer.finish({version: INDEX_VERSION, stores: stores.map(storeDir), config, signals}, found, files)
}

/** The cached records by store and path, with the stamp they were built from. */
function previous(o: Opened | null): Map<string, {size: number; mtime: number; halves?: {match: string; rank: string}}> {
  const out = new Map<string, {size: number; mtime: number; halves?: {match: string; rank: string}}>()
  if (!o) return out
  try {
    const stamps = region(o, 'stamps').toString('utf8').split('\n')
    const files = JSON.parse(region(o, 'files').toString('utf8')) as [number, 0 | 1][]
    const matchAt = region(o, 'matchAt')
    const rankAt = region(o, 'rankAt')
    const match = region(o, 'match')
    const rank = region(o, 'rank')
    files.forEach(([i], k) => {
      const [store, rel, size, mtime] = stamps[k].split('\t')
      const halves = i >= 0 ? {match: match.toString('utf8', matchAt.readUInt32LE(i * 4), matchAt.readUInt32LE(i * 4 + 4)), rank: rank.toString('utf8', rankAt.readUInt32LE(i * 4), rankAt.readUInt32LE(i * 4 + 4))} : undefined
      out.set(`${o.header.stores[Number(store)]}\n${rel}`, {size: Number(size), mtime: Number(mtime), halves})
    })
    return out
  } catch {
    return new Map() // unreadable regions: parse everything again
  }
}

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

export function hookSettings(c: Config): HookSettings {
  const s = c.signals
  return {
    coreBudget: c.core_budget,
    catalogBudget: c.recall.catalog_budget,
    enforceMust: c.hooks.enforce_must,
    deadlineMs: c.hooks.deadline_ms,
    signals: {archiveMinEvents: s.archive_min_events, archiveMinHours: s.archive_min_hours, reviewMaxPending: s.review_max_pending, reviewMaxAgeDays: s.review_max_age_days},
  }
}

function settingsOf(store: Store): Settings {
  const c = readConfig(store)
  return {maxCards: c.recall.max_cards, budgetChars: c.recall.budget_chars, projectKey: c.project_key, hooks: hookSettings(c)}
}
