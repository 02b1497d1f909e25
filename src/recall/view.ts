import {createHash} from 'node:crypto'
import fs from 'node:fs'
import {decodeMatch, decodeRank, joinDoc} from './match/codec.js'
import type {MatchDoc} from './match/doc.js'
import {candidateRecords, rankedRecords} from './candidates.js'
import {type CatalogEntry, type CoreEntry, HEAD, type PathEntry, type RecallIndex} from './format.js'
import {type Opened, region} from './read.js'

/** The index as the matcher uses it: term lookups and record decoding, lazily. */
export function view(o: Opened, state: {rebuilt: boolean; stale: boolean}): RecallIndex {
  const h = o.header
  const json = <T>(name: 'core' | 'catalog' | 'paths') => JSON.parse(region(o, name).toString('utf8')) as T
  // Binary search by small positioned reads: a prompt touches a few lines of a table that runs to megabytes.
  const terms = sortedTable(o, 'terms', 'termAt', 'termHeads')
  const lexicon = sortedTable(o, 'lexicon', 'lexiconAt', 'lexiconHeads')
  let recordAt: Buffer | undefined
  // Half k of the records region: record i's match half is 2i, its rank half 2i + 1.
  const half = (k: number): string => {
    recordAt ??= region(o, 'recordAt')
    return region(o, 'records', recordAt.readUInt32LE(k * 4), recordAt.readUInt32LE(k * 4 + 4)).toString('utf8')
  }
  const recordOf = new Map<MatchDoc, number>()
  const decode = (i: number): MatchDoc => {
    const d = decodeMatch(half(2 * i))
    recordOf.set(d, i)
    return d
  }
  // recordAt holds two offsets per record (its match and rank halves) and the end.
  const records = (h.regions.recordAt[1] / 4 - 1) / 2
  const {entry, ranking} = termLookups(o, terms)
  return {
    settings: h.config.settings,
    skipped: h.skipped,
    signals: h.signals.list,
    stats: {n: h.n, avgLen: h.avgLen, df: t => Number(ranking(t)?.[0] ?? 0)},
    candidates(prompt, expanded, short, whole) {
      return candidateRecords({entry, records, prompt, expanded, short, whole}).map(decode)
    },
    bounded(prompt, expanded, short, whole, weights) {
      const asked = [...prompt]
      const added = [...expanded]
      let admissible: number[] | undefined
      const query = {entry, records, prompt: asked, expanded: added, short, whole}
      const all = () => (admissible ??= candidateRecords(query))
      const must = new Set(h.must)
      // The must cards' admission bound skips every other record's postings; the whole bound is
      // computed only if the ranked pass needs it.
      const mustOnly = () => {
        const only = new Uint8Array(records)
        for (const i of must) only[i] = 1
        return candidateRecords({...query, only})
      }
      return {
        must: must.size ? mustOnly() : [],
        ...rankedRecords(t => ranking(t)?.[1], records, weights, must),
        admissible: all,
        doc: decode,
      }
    },
    expand(keys) {
      const out = new Map<string, readonly string[]>()
      for (const k of keys) {
        const at = lexicon.find(k)
        if (at >= 0) out.set(k, lexicon.line(at)[1].split('|'))
      }
      return out
    },
    records: () => Array.from({length: records}, (_, i) => decode(i)),
    hydrate(doc) {
      const i = recordOf.get(doc)
      if (i === undefined) throw new Error(`${doc.id} did not come from this index`)
      return joinDoc(doc, decodeRank(half(2 * i + 1)))
    },
    identity: () => createHash('sha256').update(JSON.stringify(h)).update(o.crcs).digest('hex'),
    coreCards: () => json<CoreEntry[]>('core'),
    catalog: () => json<CatalogEntry[]>('catalog'),
    pathCards: () => json<PathEntry[]>('paths'),
    bareCards: () => h.bare,
    close() {
      if (o.fd >= 0) fs.closeSync(o.fd)
      o.fd = -1
      o.blocks.clear()
    },
    ...state,
  }
}

/**
 * Memoized per-term reads for one view: entry(t) is the term's line, ranking(t) its "df\trank postings"
 * apart from the line (ranking and bm25 read these alone); both undefined for an absent term.
 */
function termLookups(o: Opened, terms: ReturnType<typeof sortedTable>) {
  const numbers = new Map<string, number>()
  const termNumber = (t: string): number => {
    let k = numbers.get(t)
    if (k === undefined) numbers.set(t, (k = terms.find(t)))
    return k
  }
  const entries = new Map<string, string[] | undefined>()
  const entry = (t: string) => {
    if (!entries.has(t)) entries.set(t, termNumber(t) < 0 ? undefined : terms.line(termNumber(t)))
    return entries.get(t)
  }
  // A term's "df\trank postings", apart from its line: ranking and bm25 read these alone.
  let rankAt: Buffer | undefined
  const ranks = new Map<string, string[] | undefined>()
  const ranking = (t: string) => {
    if (!ranks.has(t)) {
      const k = termNumber(t)
      rankAt ??= region(o, 'rankAt')
      ranks.set(
        t,
        k < 0
          ? undefined
          : region(o, 'ranks', rankAt.readUInt32LE(k * 4), rankAt.readUInt32LE(k * 4 + 4))
              .toString('utf8')
              .split('\t'),
      )
    }
    return ranks.get(t)
  }
  return {entry, ranking}
}

/**
 * Lookup by key in a region of "key\t...\n" lines sorted by key (byte order), over a uint32 offset
 * region and the keys' heads (HEAD bytes each, zero-padded): a binary search in memory over the
 * heads, that reads a line's key only where heads tie, gives the key's line number (-1 when it is
 * absent); line(k) reads line k. A prompt touches a few lines of a table that runs to megabytes.
 */
function sortedTable(
  o: Opened,
  name: 'terms' | 'lexicon',
  at: 'termAt' | 'lexiconAt',
  headsOf: 'termHeads' | 'lexiconHeads',
) {
  let offsets: Buffer | undefined
  let heads: Buffer | undefined
  const bytesOf = (k: number, limit?: number): Buffer => {
    offsets ??= region(o, at)
    const start = offsets.readUInt32LE(k * 4)
    const end = offsets.readUInt32LE(k * 4 + 4) - 1
    return region(o, name, start, limit === undefined ? end : Math.min(end, start + limit))
  }
  const want = Buffer.alloc(HEAD)
  const find = (key: string): number => {
    heads ??= region(o, headsOf)
    const bytes = Buffer.from(key)
    want.fill(0)
    bytes.copy(want, 0, 0, HEAD)
    let lo = 0
    let hi = heads.length / HEAD
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      let c = heads.compare(want, 0, HEAD, mid * HEAD, (mid + 1) * HEAD)
      // Equal heads: equal keys when the key is shorter than HEAD (keys hold no NUL), else read it.
      if (c === 0 && bytes.length >= HEAD) {
        const head = bytesOf(mid, bytes.length + 1)
        const tab = head.indexOf(9)
        c = Buffer.compare(head.subarray(0, tab < 0 ? head.length : tab), bytes)
      }
      if (c === 0) return mid
      if (c < 0) lo = mid + 1
      else hi = mid
    }
    return -1
  }
  return {find, line: (k: number): string[] => bytesOf(k).toString('utf8').split('\t')}
}
