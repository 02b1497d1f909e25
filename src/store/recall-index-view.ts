import fs from 'node:fs'
import {decodeMatch, decodeRank, joinDoc, unitWeight} from '../domain/recall/codec.js'
import type {MatchDoc} from '../domain/recall/doc.js'
import {MIN_STRONG, phraseBound} from '../domain/recall/evidence.js'
import type {CatalogEntry, CoreEntry, PathEntry, RecallIndex} from './recall-index-format.js'
import {type Opened, region} from './recall-index-read.js'

/** The index as the matcher uses it: term lookups and record decoding, lazily. */
export function view(o: Opened, state: {rebuilt: boolean; stale: boolean}): RecallIndex {
  const h = o.header
  const json = <T>(name: 'core' | 'catalog' | 'paths') => JSON.parse(region(o, name).toString('utf8')) as T
  // Binary search by small positioned reads: a prompt touches a few lines of a table that runs to megabytes.
  const terms = sortedTable(o, 'terms', 'termAt')
  const lexicon = sortedTable(o, 'lexicon', 'lexiconAt')
  let matchAt: Buffer | undefined
  const recordOf = new Map<MatchDoc, number>()
  const decode = (i: number): MatchDoc => {
    matchAt ??= region(o, 'matchAt')
    const d = decodeMatch(region(o, 'match', matchAt.readUInt32LE(i * 4), matchAt.readUInt32LE(i * 4 + 4)).toString('utf8'))
    recordOf.set(d, i)
    return d
  }
  const entries = new Map<string, string[] | undefined>()
  const entry = (t: string) => {
    if (!entries.has(t)) entries.set(t, terms(t))
    return entries.get(t)
  }
  return {
    settings: h.config.settings,
    signals: h.signals.list,
    stats: {n: h.n, avgLen: h.avgLen, df: t => Number(entry(t)?.[1] ?? 0)},
    candidates(prompt, short) {
      // Weight of prompt terms found in each admitting phrase, and each phrase's total and slack.
      const hits = new Map<number, Map<number, [number, number, number]>>()
      const ids = new Set<number>()
      // A card needs a word or bigram in common; single CJK characters only tighten the bound.
      const anchored = new Set<number>()
      for (const t of prompt) {
        const e = entry(t)
        if (!e) continue
        const w = unitWeight(t)
        const anchor = w !== 0.25
        if (e[2]) {
          for (const x of e[2].split(',')) {
            const [i, j, total, slack] = x.split(':').map(Number)
            if (anchor) anchored.add(i)
            let m = hits.get(i)
            if (!m) hits.set(i, (m = new Map()))
            const p = m.get(j)
            if (p) p[0] += w
            else m.set(j, [w, total, slack])
          }
        }
        if (short && e[3]) for (const x of e[3].split(',')) ids.add(Number(x))
        if (e[4]) {
          // Concept units: phrase keys are offset so they never meet the direct phrase of the same index.
          for (const x of e[4].split(',')) {
            const [i, j, total, cw] = x.split(':').map(Number)
            if (anchor) anchored.add(i)
            let m = hits.get(i)
            if (!m) hits.set(i, (m = new Map()))
            const p = m.get(-1 - j)
            if (p) p[0] += cw
            else m.set(-1 - j, [cw, total, 0])
          }
        }
      }
      for (const [i, m] of hits) {
        if (!anchored.has(i)) continue
        let bound = 0
        for (const [matched, total, slack] of m.values()) bound += phraseBound(matched, total, slack)
        if (short || bound >= MIN_STRONG) ids.add(i)
      }
      return [...ids].sort((a, b) => a - b).map(decode)
    },
    expand(keys) {
      const out = new Map<string, readonly string[]>()
      for (const k of keys) {
        const line = lexicon(k)
        if (line) out.set(k, line[1].split('|'))
      }
      return out
    },
    hydrate(doc) {
      const i = recordOf.get(doc)
      if (i === undefined) throw new Error(`${doc.id} did not come from this index`)
      const rankAt = region(o, 'rankAt', i * 4, i * 4 + 8)
      return joinDoc(doc, decodeRank(region(o, 'rank', rankAt.readUInt32LE(0), rankAt.readUInt32LE(4)).toString('utf8')))
    },
    coreCards: () => json<CoreEntry[]>('core'),
    catalog: () => json<CatalogEntry[]>('catalog'),
    pathCards: () => json<PathEntry[]>('paths'),
    close() {
      if (o.fd >= 0) fs.closeSync(o.fd)
      o.fd = -1
      o.blocks.clear()
    },
    ...state,
  }
}


/**
 * Lookup by key in a region of "key\t...\n" lines sorted by key (byte order), over a uint32 offset
 * region: a binary search that reads a key's head first and the whole line only on a match.
 */
function sortedTable(o: Opened, name: 'terms' | 'lexicon', at: 'termAt' | 'lexiconAt'): (key: string) => string[] | undefined {
  let offsets: Buffer | undefined
  const line = (k: number, limit?: number): Buffer => {
    const start = offsets!.readUInt32LE(k * 4)
    const end = offsets!.readUInt32LE(k * 4 + 4) - 1
    return region(o, name, start, limit === undefined ? end : Math.min(end, start + limit))
  }
  return key => {
    offsets ??= region(o, at)
    const want = Buffer.from(key)
    let lo = 0
    let hi = offsets.length / 4 - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      let head = line(mid, want.length + 1)
      let tab = head.indexOf(9)
      if (tab < 0) {
        head = line(mid)
        tab = head.indexOf(9)
      }
      const c = Buffer.compare(head.subarray(0, tab < 0 ? head.length : tab), want)
      if (c === 0) return line(mid).toString('utf8').split('\t')
      if (c < 0) lo = mid + 1
      else hi = mid
    }
    return undefined
  }
}
