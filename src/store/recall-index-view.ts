import fs from 'node:fs'
import {decodeMatch, decodeRank, joinDoc, unitWeight} from '../domain/recall/codec.js'
import {hasCjk} from '../domain/recall/tokenize.js'
import type {MatchDoc} from '../domain/recall/doc.js'
import {ADMIT_THRESHOLD, lexicalFactor, phraseBound, SUPPORT} from '../domain/recall/evidence.js'
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
    candidates(prompt, expanded, short) {
      // Per record and admitting phrase: the weight of the prompt's terms found directly, and
      // separately the concept units met (each counted once, whichever of its forms was met).
      const direct = new Map<number, Map<number, [number, number, number, number]>>()
      const support = new Map<number, Map<number, [number, number, number]>>()
      // met: unit (its index, or its own word when the direct postings stand for it) → [weight, met by
      // its own form in the prompt's own words (1) or not (0), words of the form]
      type Unit = {total: number; min: number; met: Map<number | string, [number, number, number]>; seen: Map<number, number>}
      const units = new Map<number, Map<number, Unit>>()
      const unitOf = (i: number, j: number, total: number, min: number): Unit => {
        let m = units.get(i)
        if (!m) units.set(i, (m = new Map()))
        let p = m.get(j)
        if (!p) m.set(j, (p = {total, min, met: new Map(), seen: new Map()}))
        return p
      }
      const meet = (p: Unit, key: number | string, w: number, own: number, need: number) => {
        const was = p.met.get(key)
        p.met.set(key, [w, Math.max(own, was?.[1] ?? 0), Math.max(need, was?.[2] ?? 0)])
      }
      const ids = new Set<number>()
      // A card needs a word or bigram in common; single CJK characters only tighten the bound.
      const anchored = new Set<number>()
      // A unit is met when one of its forms has every term it needs (an English form: all its stems).
      const concept = (list: string, anchor: boolean, own: boolean) => {
        each(list, v => {
          const i = v[0]
          const p = unitOf(i, v[1], v[5], v[7])
          const key = v[2] * 256 + v[3]
          const seen = (p.seen.get(key) ?? 0) + 1
          p.seen.set(key, seen)
          if (seen >= v[4]) {
            meet(p, v[2], v[6], own && v[3] === 0 ? 1 : 0, v[4])
            if (anchor) anchored.add(i)
          }
        })
      }
      // First what the lexicon can meet: units' own forms (Chinese words, compounds, glossary
      // phrases) and translations in the prompt's own words, then own forms through the prompt's
      // translations (an English word's own unit through the direct postings).
      for (const t of prompt) {
        const e = entry(t)
        if (!e) continue
        const anchor = unitWeight(t) !== 0.25
        if (e[4]) concept(e[4], anchor, true)
        if (e[5]) concept(e[5], anchor, false)
      }
      for (const t of expanded) {
        const e = entry(t)
        if (!e) continue
        const anchor = unitWeight(t) !== 0.25
        if (e[2] && !hasCjk(t)) {
          each(e[2], v => {
            if (!v[5]) return
            meet(unitOf(v[0], v[1], v[5], v[4]), t, 1, 0, 1)
            if (anchor) anchored.add(v[0])
          })
        }
        if (e[4]) concept(e[4], anchor, false)
      }
      // Then the direct postings. A phrase's English word is also its concept unit, met in the
      // prompt's own words; that only matters for a record the lexicon met too: without a lexicon
      // match, its word-by-word bound is never above its direct one.
      for (const t of prompt) {
        const e = entry(t)
        if (!e) continue
        const w = unitWeight(t)
        const anchor = w !== 0.25
        if (e[2]) {
          const english = !hasCjk(t)
          each(e[2], v => {
            const i = v[0]
            if (anchor) anchored.add(i)
            let m = direct.get(i)
            if (!m) direct.set(i, (m = new Map()))
            const p = m.get(v[1])
            if (p) p[0] += w
            else m.set(v[1], [w, v[2], v[3], v[4]])
            if (english && v[5] && units.has(i)) meet(unitOf(i, v[1], v[5], v[4]), t, 1, 1, 1)
          })
        }
        if (short && anchor && e[3]) {
          // A short query may find a card by any of its wording (single CJK characters aside).
          for (const x of e[3].split(',')) ids.add(Number(x.slice(0, x.indexOf(':'))))
        }
      }
      // What supporting phrases can add, only for cards an admitting phrase anchored: the rest are out anyway.
      for (const t of prompt) {
        const list = entry(t)?.[3]
        if (!list) continue
        const w = unitWeight(t)
        for (let at = 0; at < list.length; ) {
          let end = list.indexOf(',', at)
          if (end < 0) end = list.length
          const x = list.slice(at, end)
          at = end + 1
          const i = Number(x.slice(0, x.indexOf(':')))
          if (!anchored.has(i)) continue
          const [, j, total, slack] = x.split(':').map(Number)
          let m = support.get(i)
          if (!m) support.set(i, (m = new Map()))
          const p = m.get(j)
          if (p) p[0] += w
          else m.set(j, [w, total, slack])
        }
      }
      for (const i of anchored) {
        // A phrase scores the better of its direct and its word-by-word match, never both; a title
        // below the share that admits supports instead (as evidence.ts scores it).
        const best = new Map<number, number>()
        const under = new Map<number, number>()
        const keep = (j: number, bound: number, min: number, loose: number) => {
          best.set(j, Math.max(best.get(j) ?? 0, bound))
          if (min) under.set(j, Math.max(under.get(j) ?? 0, loose))
        }
        for (const [j, [matched, total, slack, min]] of direct.get(i) ?? []) keep(j, phraseBound(matched, total, slack, min), min, phraseBound(matched, total, slack))
        for (const [j, {total, min, met}] of units.get(i) ?? []) {
          // As evidence.ts scores word by word: all met in the prompt's own words, or through the
          // lexicon at lexicalFactor (less still for a single translated word).
          let direct = 0
          let got = 0
          let words = 0
          for (const [w, own, need] of met.values()) {
            got += w
            if (own) direct += w
            words += Math.max(w, need)
          }
          const factor = lexicalFactor(words)
          const bound = Math.max(phraseBound(direct, total, 0, min), factor * phraseBound(got, total, 0, min))
          keep(j, bound, min, Math.max(phraseBound(direct, total, 0), factor * phraseBound(got, total, 0)))
        }
        let strong = 0
        for (const b of best.values()) strong += b
        // What supporting phrases and titles below their share can add (SUPPORT each), at most what admitting ones did.
        let loose = 0
        for (const [j, b] of under) if (!best.get(j)) loose += b
        for (const [matched, total, slack] of support.get(i)?.values() ?? []) loose += phraseBound(matched, total, slack)
        if (short || strong + Math.min(SUPPORT * loose, strong) >= ADMIT_THRESHOLD) ids.add(i)
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

/** Numbers of one posting, reused from entry to entry (see each). */
const FIELDS = new Float64Array(8)

/**
 * Calls fn with each entry of a posting list ("a:b:c,a:b:c,..."), its numbers in one reused array
 * (missing ones 0). Parsed by hand: a common word's list runs to thousands of entries, and strings
 * and arrays per entry cost more in garbage collection than the parsing itself.
 */
function each(list: string, fn: (v: Float64Array) => void): void {
  const v = FIELDS
  let k = 0
  let n = 0
  let scale = 0
  for (let at = 0; at <= list.length; at++) {
    const c = at < list.length ? list.charCodeAt(at) : 44
    if (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48)
      if (scale) scale *= 10
    } else if (c === 46) scale = 1
    else {
      if (k < 8) v[k++] = scale ? n / scale : n
      n = 0
      scale = 0
      if (c === 44) {
        for (; k < 8; k++) v[k] = 0
        fn(v)
        k = 0
      }
    }
  }
}
