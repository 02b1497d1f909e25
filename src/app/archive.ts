import path from 'node:path'
import {patchCard} from '../domain/card/format.js'
import type {Load} from '../domain/card/types.js'
import {CairnError} from '../domain/errors.js'
import {archiveStamp, assertStamp, restoredId} from '../domain/lifecycle.js'
import type {LoadedCard} from '../store/cards/cards.js'
import {type Context, isoSeconds} from '../context.js'
import type {Store} from '../store/layout.js'
import {rel, writable} from '../store/stores.js'
import {openStores} from './stores.js'
import type {ChangeSet} from '../store/cards/transaction.js'

export interface ArchiveInput {
  ids?: string[]
  load?: Load
  all?: boolean
  store?: 'project' | 'personal'
  noCommit?: boolean
}

export interface ArchiveResult {
  /** The first store's archive directory (each store gets its own). */
  ts: string | null
  store: 'project' | 'personal'
  archives: {store: 'project' | 'personal'; ts: string}[]
  archived: {id: string; from: string; to: string}[]
  /** Protected cards a bulk selection left alone. */
  skipped: {id: string; reason: string}[]
  /** The first store's commit; commits has one per store. */
  commit: string | null
  commits: {project?: string | null; personal?: string | null}
}

/** A free archive directory for this moment, chosen inside the lock: two archives in one second get -2, -3, ... */
export function archiveDir(tx: ChangeSet, now: Date): string {
  const base = archiveStamp(now)
  for (let n = 1; ; n++) {
    const ts = n === 1 ? base : `${base}-${n}`
    if (!tx.hasDir(rel(tx.store, 'archive', ts))) return ts
  }
}

/** Moves cards (git mv) into archive/<ts>/, keeping their relative paths; used by maintain too. */
export function archiveInto(tx: ChangeSet, ts: string, cards: LoadedCard[]): {id: string; from: string; to: string}[] {
  const store = tx.store
  return cards.map(c => {
    const inner = path.posix.relative(store.prefix || '.', c.path)
    const to = rel(store, 'archive', ts, inner)
    tx.move(c.path, to)
    return {id: c.card.id, from: c.path, to}
  })
}

export async function archive(ctx: Context, input: ArchiveInput): Promise<ArchiveResult> {
  const picks = [input.ids?.length ? 'ids' : null, input.load ? '--load' : null, input.all ? '--all' : null].filter(
    Boolean,
  )
  if (picks.length !== 1)
    throw new CairnError(
      'usage',
      'Nothing to archive. Fix: give card ids, --load recall|core, or --all; exactly one of them',
    )
  const stores = openStores(ctx)
  let cards: LoadedCard[]
  const skipped: ArchiveResult['skipped'] = []
  if (input.ids?.length) {
    cards = await Promise.all([...new Set(input.ids)].map(id => stores.findCard(id, {store: input.store ?? 'all'})))
  } else {
    const [store] = stores.readable(input.store ?? 'project')
    const active = await Promise.all(
      stores
        .list(store)
        .filter(f => f.location === 'cards')
        .map(f => stores.load(f)),
    )
    cards = active.filter(c => !input.load || c.card.load === input.load)
    for (const c of cards.filter(x => x.card.protected)) skipped.push({id: c.card.id, reason: 'protected'})
    cards = cards.filter(c => !c.card.protected)
    if (cards.length === 0)
      return {archives: [], archived: [], skipped, commits: {}, ts: null, store: store.kind, commit: null}
  }
  const targets = cards.map(c => writable(c.store))
  const ids = cards.map(c => c.card.id)
  const summary = `${ids.length === 1 ? ids[0] : `${ids.length} cards`} to the archive`
  const {result, commits} = await stores.tx({op: 'archive', summary, store: targets, noCommit: input.noCommit}, tx => {
    const archives: {store: 'project' | 'personal'; ts: string}[] = []
    const archived: ArchiveResult['archived'] = []
    for (const store of targets.filter((s, i) => targets.findIndex(o => o.kind === s.kind) === i)) {
      const cs = tx.in(store)
      const mine = cards.filter(c => c.store.kind === store.kind)
      for (const c of mine) cs.readFound(c.path, `card "${c.card.id}"`)
      const ts = archiveDir(cs, ctx.now())
      archives.push({store: store.kind, ts})
      archived.push(...archiveInto(cs, ts, mine))
    }
    return {archives, archived}
  })
  for (const store of targets.filter((s, i) => targets.findIndex(o => o.kind === s.kind) === i)) {
    const gone = cards.filter(c => c.store.kind === store.kind).map(c => c.card.id)
    const local = await stores.local(store)
    local.recordUsage({event: 'card_archived', cards: gone}, ctx.now())
  }
  const first = result.archives[0]
  return {
    ...result,
    skipped,
    commits,
    ts: first?.ts ?? null,
    store: first?.store ?? targets[0].kind,
    commit: commits[targets[0].kind] ?? null,
  }
}

export interface RestoreResult {
  ts: string
  store: 'project' | 'personal'
  restored: {id: string; from: string; to: string; renamed: boolean}[]
  commit: string | null
}

/** Moves archived cards back; a taken id is restored as restored-<id>, never overwriting. */
export async function restore(
  ctx: Context,
  input: {ts: string; ids?: string[]; store?: 'project' | 'personal'; noCommit?: boolean},
): Promise<RestoreResult> {
  assertStamp(input.ts)
  const stores = openStores(ctx)
  const [store] = stores.readable(input.store ?? 'project')
  const inArchive = stores
    .list(store, {archive: true})
    .filter(f => f.location === 'archive' && f.archiveTs === input.ts)
  if (inArchive.length === 0)
    throw new CairnError(
      'not_found',
      `No archive ${input.ts} in the ${store.kind} store. Fix: pick one from "cairn restore --list"`,
    )
  const wanted = input.ids?.length ? new Set(input.ids) : null
  for (const id of wanted ?? [])
    if (!inArchive.some(f => f.name === id))
      throw new CairnError(
        'not_found',
        `Archive ${input.ts} holds no card "${id}". Fix: pick one from "cairn restore --list"`,
      )
  const files = await Promise.all(inArchive.filter(f => !wanted || wanted.has(f.name)).map(f => stores.load(f)))
  // Filled while the change set is built; the commit message is written after that.
  const renames: [string, string][] = []
  const summary = `${files.length === 1 ? files[0].card.id : `${files.length} cards`} from archive/${input.ts}`
  // A restored card is as fresh as the decision to bring it back: maintain must not plan its archive again at once.
  const now = isoSeconds(ctx.now())
  const {result, commit} = await stores.tx(
    {op: 'restore', summary, store, cards: files.map(f => f.card.id), renames, noCommit: input.noCommit},
    tx => {
      const claimed = new Set<string>()
      return files.map(f => {
        const taken = (id: string) => claimed.has(id) || stores.find(store, id).some(h => tx.exists(h.path))
        const id = restoredId(f.card.id, taken)
        claimed.add(id)
        if (!tx.exists(f.path))
          throw new CairnError(
            'not_found',
            `${f.path} is no longer in the archive: another cairn command restored it meanwhile. Nothing was written. Fix: run "cairn restore --list" to see what is left`,
            {id: f.card.id},
          )
        const to = restoredPath(store, input.ts, f.path, id)
        tx.move(f.path, to)
        const patches: [string[], unknown][] = [[['updated'], now]]
        if (id !== f.card.id) {
          patches.push([['id'], id])
          renames.push([f.card.id, id])
        }
        tx.write(to, patchCard(tx.read(to)!, to, patches))
        return {id, from: f.path, to, renamed: id !== f.card.id}
      })
    },
  )
  return {ts: input.ts, store: store.kind, restored: result, commit}
}

/** Where an archived card file goes back to: its path inside archive/<ts>/, under the id it comes back as. */
export function restoredPath(store: Store, ts: string, archived: string, id: string): string {
  const inner = archived.slice(rel(store, 'archive', ts).length + 1)
  return rel(store, path.posix.dirname(inner), `${id}.md`)
}

export interface ArchiveListing {
  store: 'project' | 'personal'
  archives: {ts: string; cards: {id: string; path: string}[]}[]
}

export function listArchives(ctx: Context, input: {store?: 'project' | 'personal'} = {}): ArchiveListing {
  const stores = openStores(ctx)
  const [store] = stores.readable(input.store ?? 'project')
  const byTs = new Map<string, {id: string; path: string}[]>()
  for (const f of stores.list(store, {archive: true})) {
    if (f.location !== 'archive' || !f.archiveTs) continue
    byTs.set(f.archiveTs, [...(byTs.get(f.archiveTs) ?? []), {id: f.name, path: f.path}])
  }
  return {store: store.kind, archives: [...byTs].map(([ts, cards]) => ({ts, cards}))}
}
