import {getRule} from '../card/sections.js'
import {checkSlug} from '../card/slug.js'
import {omeToCard} from '../ome.js'
import {parseStructured} from '../structured.js'
import {fieldError, type ImportItem, type ImportKind, type SourceFile} from './source.js'

const NONE_FIX = 'give an OME JSON card, an array, {experiences: [...]}, or Markdown cards'

/** An OME file's records: one JSON card, an array, {experiences: [...]}, or a Markdown card with its body. */
function records(file: SourceFile): {data: unknown[]; body?: string} {
  const {data, body} = parseStructured(file.text, file.path)
  if (body !== undefined) return {data: [data], body}
  if (Array.isArray(data)) return {data}
  const experiences = (data as {experiences?: unknown} | null)?.experiences
  return {data: Array.isArray(experiences) ? experiences : [data]}
}

const idOf = (raw: unknown): string => {
  const id = raw && typeof raw === 'object' ? (raw as {id?: unknown}).id : undefined
  return typeof id === 'string' ? id.trim() : ''
}

/** Where `id` is next written as a record's id (JSON or YAML), from offset `from` on: its 1-based line and its end. */
export function idAt(text: string, id: string, from: number): {line: number; end: number} | undefined {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = new RegExp(`(?<=^|[\\s{,])["']?id["']?\\s*:\\s*["']?${escaped}["']?(?=\\s*(,|}|\\r?$))`, 'gm')
  pattern.lastIndex = from
  const m = pattern.exec(text)
  return m ? {line: text.slice(0, m.index).split('\n').length, end: m.index + m[0].length} : undefined
}

/**
 * OME experience cards: each record is a whole card, built by omeToCard (its mapping, its dropped-field warnings),
 * its id kept as its slug since OME ids are the cards' identity. The proposal's recent_paths are not used: a
 * path on an OME card would change what it is recalled for.
 */
export const ome: ImportKind = {
  kind: 'ome',
  defaults: [],
  extensions: ['.md', '.json'],
  accepts: () => true,
  outside: true,
  map(file) {
    const {data, body} = records(file)
    if (data.length === 0) throw fieldError(file.path, '(root)', 'no OME cards found', NONE_FIX)
    let at = {line: 1, end: 0}
    return data.map((raw, index): ImportItem => {
      const id = idOf(raw)
      at = (id && idAt(file.text, id, at.end)) || at
      const line = at.line
      // A record without an id fails in card(), with every missing field named.
      return {anchor: id || `[${index}]`, line, slug: id, slugWords: [], fields: {}, record: {data: raw, index, body}}
    })
  },
  // `cairn import ome` before the shared pipeline left no source session, only this reason.
  importedBefore: card =>
    card.provenance.source_sessions.length === 0 && /^imported from OME \(/.test(card.provenance.proposed_reason ?? ''),
  card(planned, env) {
    const {data, index, body} = planned.item.record!
    const withRule = body !== undefined && getRule(body) ? body : undefined
    const reason = planned.proposal.proposed_reason as string
    const meta = {
      now: env.now,
      status: env.status,
      actor: env.actor,
      file: planned.source,
      key: planned.key,
      reason,
      language: env.language,
    }
    const {card, dropped} = omeToCard(data, meta, index, withRule)
    const warnings: string[] = []
    if (dropped.length) warnings.push(`${card.id}: dropped OME fields cairn has no place for: ${dropped.join(', ')}`)
    const hints = card.engine_hints
    const unknown = [...new Set([...hints.positive, ...hints.required_all, ...hints.negative])].filter(
      id => !env.signals.has(id),
    )
    if (unknown.length) {
      const until = 'a "cairn lint" error until defined in .cairn/signals.yaml or removed'
      warnings.push(`${card.id}: unknown signal id(s) ${unknown.join(', ')}: ignored at match time, and ${until}`)
    }
    const slug = checkSlug(card.id, card.title)
    if (slug) {
      const lint = env.status === 'active' ? ' (a lint warning for active cards)' : ' (a lint error while pending)'
      warnings.push(`${card.id}: OME id kept as is, but it ${slug.message.replace(/^slug "[^"]+" /, '')}${lint}`)
    }
    return {card, warnings}
  },
}
