import fs from 'node:fs'
import path from 'node:path'
import {patchCard} from '../domain/card/format.js'
import type {Load} from '../domain/card/types.js'
import {CairnError} from '../domain/errors.js'
import {archiveStamp, assertStamp, restoredId} from '../domain/lifecycle.js'
import {findById, listCardFiles, loadCardFile, type LoadedCard} from '../store/cards.js'
import type {Context} from '../store/context.js'
import {rel, type Store, storeDir} from '../store/layout.js'
import {type ChangeSet, transaction} from '../store/transaction.js'
import {findCard} from './locate.js'
import {commitOptions, readableStores, type StoreChoice} from './stores.js'

export interface ArchiveInput {
  ids?: string[]
  load?: Load
  all?: boolean
  store?: 'project' | 'personal'
  noCommit?: boolean
}

export interface ArchiveResult {
  ts: string | null
  store: 'project' | 'personal'
  archived: {id: string; from: string; to: string}[]
  /** Protected cards a bulk selection left alone. */
  skipped: {id: string; reason: string}[]
  commit: string | null
}

/** A free archive directory for this moment: two archives in one second get -2, -3, ... */
export function archiveDir(store: Store, now: Date): string {
  const base = archiveStamp(now)
  for (let n = 1; ; n++) {
    const ts = n === 1 ? base : `${base}-${n}`
    if (!fs.existsSync(path.join(storeDir(store), 'archive', ts))) return ts
  }
}

/** Moves cards (git mv) into archive/<ts>/, keeping their relative paths; used by maintain too. */
export function archiveInto(tx: ChangeSet, store: Store, ts: string, cards: LoadedCard[]): {id: string; from: string; to: string}[] {
  return cards.map(c => {
    const inner = path.posix.relative(store.prefix || '.', c.path)
    const to = rel(store, 'archive', ts, inner)
    tx.move(c.path, to)
    return {id: c.card.id, from: c.path, to}
  })
}

export async function archive(ctx: Context, input: ArchiveInput): Promise<ArchiveResult> {
  const picks = [input.ids?.length ? 'ids' : null, input.load ? '--load' : null, input.all ? '--all' : null].filter(Boolean)
  if (picks.length !== 1) throw new CairnError('usage', 'give card ids, or --load recall|core, or --all (exactly one of them)')
  let cards: LoadedCard[]
  let store: Store
  const skipped: ArchiveResult['skipped'] = []
  if (input.ids?.length) {
    cards = [...new Set(input.ids)].map(id => findCard(ctx, id, {store: input.store ?? 'all'}))
    store = cards[0].store
    if (cards.some(c => c.store !== store)) throw new CairnError('usage', 'these cards live in different stores; archive each store\'s cards in its own call (--store)')
  } else {
    ;[store] = readableStores(ctx, (input.store ?? 'project') as StoreChoice)
    cards = listCardFiles(store).filter(f => f.location === 'cards').map(loadCardFile).filter(c => !input.load || c.card.load === input.load)
    for (const c of cards.filter(x => x.card.protected)) skipped.push({id: c.card.id, reason: 'protected'})
    cards = cards.filter(c => !c.card.protected)
  }
  if (cards.length === 0) return {ts: null, store: store.kind, archived: [], skipped, commit: null}
  const ts = archiveDir(store, ctx.now())
  const ids = cards.map(c => c.card.id)
  const {result, commit} = await transaction(ctx, store, {op: 'archive', summary: `${ids.length === 1 ? ids[0] : `${ids.length} cards`} to archive/${ts}`, cards: ids, ...commitOptions(store, input.noCommit)}, tx =>
    archiveInto(tx, store, ts, cards),
  )
  return {ts, store: store.kind, archived: result, skipped, commit}
}

export interface RestoreResult {
  ts: string
  store: 'project' | 'personal'
  restored: {id: string; from: string; to: string; renamed: boolean}[]
  commit: string | null
}

/** Moves archived cards back; a taken id is restored as restored-<id>, never overwriting. */
export async function restore(ctx: Context, input: {ts: string; ids?: string[]; store?: 'project' | 'personal'; noCommit?: boolean}): Promise<RestoreResult> {
  assertStamp(input.ts)
  const [store] = readableStores(ctx, input.store ?? 'project')
  const inArchive = listCardFiles(store, {archive: true}).filter(f => f.location === 'archive' && f.archiveTs === input.ts)
  if (inArchive.length === 0) throw new CairnError('not_found', `no archive ${input.ts} in the ${store.kind} store; "cairn restore --list" shows the archives`)
  const wanted = input.ids?.length ? new Set(input.ids) : null
  for (const id of wanted ?? []) if (!inArchive.some(f => f.name === id)) throw new CairnError('not_found', `archive ${input.ts} holds no card "${id}"`)
  const files = inArchive.filter(f => !wanted || wanted.has(f.name)).map(loadCardFile)
  // Filled while the change set is built; the commit message is written after that.
  const renames: [string, string][] = []
  const {result, commit} = await transaction(ctx, store, {op: 'restore', summary: `${files.length === 1 ? files[0].card.id : `${files.length} cards`} from archive/${input.ts}`, cards: files.map(f => f.card.id), renames, ...commitOptions(store, input.noCommit)}, tx => {
    const claimed = new Set<string>()
    return files.map(f => {
      const taken = (id: string) => claimed.has(id) || findById(store, id).some(h => tx.exists(h.path))
      const id = restoredId(f.card.id, taken)
      claimed.add(id)
      const inner = f.path.slice(rel(store, 'archive', input.ts).length + 1)
      const to = rel(store, path.posix.dirname(inner), `${id}.md`)
      tx.move(f.path, to)
      if (id !== f.card.id) {
        tx.write(to, patchCard(tx.read(to)!, to, [[['id'], id]]))
        renames.push([f.card.id, id])
      }
      return {id, from: f.path, to, renamed: id !== f.card.id}
    })
  })
  return {ts: input.ts, store: store.kind, restored: result, commit}
}

export interface ArchiveListing {
  store: 'project' | 'personal'
  archives: {ts: string; cards: {id: string; path: string}[]}[]
}

export function listArchives(ctx: Context, input: {store?: 'project' | 'personal'} = {}): ArchiveListing {
  const [store] = readableStores(ctx, input.store ?? 'project')
  const byTs = new Map<string, {id: string; path: string}[]>()
  for (const f of listCardFiles(store, {archive: true})) {
    if (f.location !== 'archive' || !f.archiveTs) continue
    byTs.set(f.archiveTs, [...(byTs.get(f.archiveTs) ?? []), {id: f.name, path: f.path}])
  }
  return {store: store.kind, archives: [...byTs].map(([ts, cards]) => ({ts, cards}))}
}
