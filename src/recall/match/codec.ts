import type {CardDoc, Field, MatchDoc, Phrase, RankDoc} from './doc.js'
import {CJK} from './tokenize.js'

/**
 * Compact JSON for the two halves of an index record. Phrase units are stored as their terms
 * only: a unit's weight follows from its shape (one CJK character 0.25, two 0.5, else 1), and
 * zero-weight units are never stored, so nothing is lost.
 */
const FIELD_CODES = [
  'triggers',
  'aliases',
  'use_when',
  'title',
  'topics',
  'keywords',
  'ignore_when',
  'derived',
] as const
const CJK1 = new RegExp(`^[${CJK}]$`)
const CJK2 = new RegExp(`^[${CJK}]{2}$`)

export const unitWeight = (term: string): number => (CJK1.test(term) ? 0.25 : CJK2.test(term) ? 0.5 : 1)

/** [field, norm, units, text (0 when it equals norm), concepts as "forms~weight" joined by tabs] */
type EncodedPhrase = [number, string, string, (string | 0)?, string?]

const encodePhrase = (p: Phrase): EncodedPhrase => {
  const out: EncodedPhrase = [
    FIELD_CODES.indexOf(p.field as (typeof FIELD_CODES)[number]),
    p.norm,
    p.units.map(u => u[0]).join(' '),
  ]
  if (p.text !== p.norm || p.concepts) out.push(p.text !== p.norm ? p.text : 0)
  if (p.concepts) out.push(p.concepts.map(([forms, w]) => `${forms}~${w}`).join('\t'))
  return out
}

const decodePhrase = ([f, norm, units, text, concepts]: EncodedPhrase): Phrase => {
  const p: Phrase = {
    field: FIELD_CODES[f] as Field | 'ignore_when',
    norm,
    text: text || norm,
    units: units ? units.split(' ').map(t => [t, unitWeight(t)]) : [],
  }
  if (concepts) {
    p.concepts = concepts.split('\t').map(c => {
      const at = c.lastIndexOf('~')
      return [c.slice(0, at), Number(c.slice(at + 1))]
    })
  }
  return p
}

export function encodeMatch(d: MatchDoc): string {
  return JSON.stringify({
    id: d.id,
    t: d.title,
    s: d.store,
    ...(d.layer ? {l: d.layer} : {}),
    p: d.path,
    y: d.policy,
    sc: d.scope,
    h: d.hints,
    ph: d.phrases.map(encodePhrase),
    ig: d.ignores.map(encodePhrase),
  })
}

export function decodeMatch(json: string): MatchDoc {
  const r = JSON.parse(json)
  return {
    id: r.id,
    title: r.t,
    store: r.s,
    ...(r.l ? {layer: r.l} : {}),
    path: r.p,
    policy: r.y,
    scope: r.sc,
    hints: r.h,
    phrases: r.ph.map(decodePhrase),
    ignores: r.ig.map(decodePhrase),
  }
}

export function encodeRank(d: RankDoc): string {
  return JSON.stringify({
    summary: d.summary,
    type: d.type,
    risk: d.risk,
    language: d.language,
    use_when: d.use_when,
    ignore_when: d.ignore_when,
    tf: d.tf,
    len: d.len,
    cited: d.cited,
  })
}

export const decodeRank = (json: string): RankDoc => JSON.parse(json) as RankDoc

export const joinDoc = (m: MatchDoc, r: RankDoc): CardDoc => ({...m, ...r})
