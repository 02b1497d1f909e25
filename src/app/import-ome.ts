import {renderCard} from '../domain/card/format.js'
import {getRule} from '../domain/card/sections.js'
import {checkSlug} from '../domain/card/slug.js'
import type {Card} from '../domain/card/schema.js'
import {CairnError, validationError} from '../domain/errors.js'
import {omeToCard} from '../domain/ome.js'
import {BUILTIN_SIGNALS} from '../domain/recall/signals.js'
import {type Context, isoSeconds} from '../store/context.js'
import {inputFiles, readInput} from '../store/input.js'
import {readProjectSignals} from '../store/signals.js'
import {openStores} from '../store/stores.js'
import {parseStructured} from './input.js'

export interface ImportOmeInput {
  /** An OME JSON file (one card, an array, or {experiences: [...]}), an OME Markdown card, or a directory of them. */
  path: string
  activate?: boolean
  noCommit?: boolean
}

export interface ImportOmeResult {
  cards: {id: string; type: string; status: string; path: string}[]
  commit: string | null
  warnings: string[]
}

/** Imports OME cards into the project store in one transaction: pending drafts, or active cards with activate. */
export async function importOme(ctx: Context, input: ImportOmeInput): Promise<ImportOmeResult> {
  const stores = openStores(ctx)
  const store = stores.requireProject()
  const now = isoSeconds(ctx.now())
  const status = input.activate ? 'active' : 'draft'
  const warnings: string[] = []
  const cards: Card[] = []
  const files = inputFiles(ctx, input.path, ['.md', '.json'])
  for (const [n, file] of files.entries()) {
    if (files.length > 1) ctx.progress(`reading ${n + 1}/${files.length}: ${file}`)
    const {text, label} = await readInput(ctx, file)
    const {data, body} = parseStructured(text, label)
    const records = body !== undefined ? [data] : Array.isArray(data) ? data : Array.isArray((data as {experiences?: unknown})?.experiences) ? (data as {experiences: unknown[]}).experiences : [data]
    records.forEach((raw, i) => {
      const withRule = body !== undefined && getRule(body) ? body : undefined
      const {card, dropped} = omeToCard(raw, {now, status, actor: ctx.actor, file: label}, i, withRule)
      if (dropped.length) warnings.push(`${card.id}: dropped OME fields cairn has no place for: ${dropped.join(', ')}`)
      cards.push(card)
    })
  }
  if (files.length > 1) ctx.progress('')
  if (cards.length === 0) throw validationError([{file: input.path, field: '(root)', message: 'no OME cards found', fix: 'give an OME JSON card, an array, {experiences: [...]}, or Markdown cards'}])
  const dupes = cards.map(c => c.id).filter((id, i, all) => all.indexOf(id) !== i)
  if (dupes.length) throw validationError(dupes.map(id => ({file: input.path, field: 'id', message: `"${id}" appears more than once`, fix: 'keep one card per id'})))
  const known = new Set([...BUILTIN_SIGNALS.map(s => s.id), ...readProjectSignals(store).map(s => s.id)])
  for (const c of cards) {
    const unknown = [...c.engine_hints.positive, ...c.engine_hints.required_all, ...c.engine_hints.negative].filter(id => !known.has(id))
    if (unknown.length) warnings.push(`${c.id}: unknown signal id(s) ${[...new Set(unknown)].join(', ')}: ignored at match time, and a "cairn lint" error until defined in .cairn/signals.yaml or removed`)
    const slug = checkSlug(c.id)
    if (slug) warnings.push(`${c.id}: OME id kept as is, but it ${slug.message.replace(/^slug "[^"]+" /, '')}${input.activate ? ' (a lint warning for active cards)' : ' (a lint error while pending)'}`)
  }
  const location = input.activate ? 'cards' : 'pending'
  const summary = cards.length === 1 ? `import ${cards[0].id} from OME` : `import ${cards.length} cards from OME`
  const {result, commit} = await stores.tx({op: 'import', summary, store, noCommit: input.noCommit}, tx => {
    const clashes = cards.flatMap(c => stores.find(store, c.id, {archive: true}).filter(f => tx.exists(f.path)).map(f => `"${c.id}" (${f.path})`))
    if (clashes.length) throw new CairnError('conflict', `these ids are already in the store: ${clashes.join(', ')}. Nothing was imported`, {ids: clashes})
    return cards.map(c => {
      const target = stores.cardPath(store, location, c.type, c.id)
      tx.write(target, renderCard(c))
      return {id: c.id, type: c.type, status: c.status, path: target}
    })
  })
  return {cards: result, commit, warnings}
}
