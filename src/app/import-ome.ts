import fs from 'node:fs'
import path from 'node:path'
import {renderCard} from '../domain/card/format.js'
import {getRule} from '../domain/card/sections.js'
import {checkSlug} from '../domain/card/slug.js'
import type {Card} from '../domain/card/schema.js'
import {CairnError, validationError} from '../domain/errors.js'
import {omeToCard} from '../domain/ome.js'
import {BUILTIN_SIGNALS} from '../domain/recall/signals.js'
import {findById} from '../store/cards.js'
import {readConfig} from '../store/config.js'
import {type Context, isoSeconds} from '../store/context.js'
import {cardRel, projectStore} from '../store/layout.js'
import {readProjectSignals} from '../store/signals.js'
import {transaction} from '../store/transaction.js'
import {parseStructured, readInput} from './input.js'

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
  const store = projectStore(ctx)
  const config = readConfig(store)
  const now = isoSeconds(ctx.now())
  const status = input.activate ? 'active' : 'draft'
  const warnings: string[] = []
  const cards: Card[] = []
  const files = inputFiles(ctx, input.path)
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
  const {result, commit} = await transaction(ctx, store, {op: 'import', summary: cards.length === 1 ? `import ${cards[0].id} from OME` : `import ${cards.length} cards from OME`, cards: cards.map(c => c.id), commit: config.commit.enabled && !input.noCommit, verify: config.commit.verify}, tx => {
    const clashes = cards.flatMap(c => findById(store, c.id, {archive: true}).filter(f => tx.exists(f.path)).map(f => `"${c.id}" (${f.path})`))
    if (clashes.length) throw new CairnError('conflict', `these ids are already in the store: ${clashes.join(', ')}. Nothing was imported`, {ids: clashes})
    return cards.map(c => {
      const target = cardRel(store, location, c.type, c.id)
      tx.write(target, renderCard(c))
      return {id: c.id, type: c.type, status: c.status, path: target}
    })
  })
  return {cards: result, commit, warnings}
}

function inputFiles(ctx: Context, p: string): string[] {
  if (p === '-') return [p]
  const full = path.resolve(ctx.cwd, p)
  let stat: fs.Stats
  try {
    stat = fs.statSync(full)
  } catch {
    throw new CairnError('not_found', `${p}: no such file or directory`)
  }
  if (!stat.isDirectory()) return [p]
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue
      const f = path.join(dir, name)
      if (fs.statSync(f).isDirectory()) walk(f)
      else if (/\.(md|json)$/.test(name)) out.push(path.relative(ctx.cwd, f) || f)
    }
  }
  walk(full)
  return out
}
