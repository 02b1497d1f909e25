import {isSafeId} from '../domain/card/types.js'
import {CairnError} from '../domain/errors.js'
import {ARCHIVE_STAMP, compareStamps} from '../domain/lifecycle.js'
import {closest, didYouMean} from '../domain/suggest.js'
import type {CardFile} from '../store/cards/cards.js'
import {type Context, isoSeconds} from '../context.js'
import {patchCard} from '../domain/card/format.js'
import type {Store} from '../store/layout.js'
import {type Stores} from '../store/stores.js'
import {openStores} from './stores.js'
import {refuseOrgCard} from './layers.js'
import {restore, type RestoreResult, restoredPath} from './archive.js'

export interface RestoreTarget {
  /** An archive timestamp (then `ids` picks cards from it), or one card id. */
  target: string
  ids?: string[]
  store?: 'project' | 'personal'
  noCommit?: boolean
}

/**
 * `cairn restore <target> [ids]`: a timestamp shape (20261129T100000Z, or -N after it) names an
 * archive, as it always has; a kebab-case slug names a card, restored from the newest archive
 * that holds it. Anything else is neither, and is refused with the closest ids and timestamps.
 */
export async function restoreTarget(ctx: Context, input: RestoreTarget): Promise<RestoreResult> {
  const {target, ids, ...rest} = input
  if (ARCHIVE_STAMP.test(target)) return restore(ctx, {ts: target, ids, ...rest})
  if (ids?.length)
    throw new CairnError(
      'usage',
      `Restore by card id takes one id, and got ${ids.length + 1}. Fix: restore them one by one, or give the archive's timestamp first: cairn restore <ts> <id>...`,
    )
  return restoreCard(ctx, {id: target, ...rest})
}

/**
 * Restores one card from the newest archive that holds it, in one commit. A card already live in
 * the store (pending or active) is refused, never overwritten or renamed: the timestamp form is
 * the way to bring an archived copy back beside it.
 */
export async function restoreCard(
  ctx: Context,
  input: {id: string; store?: 'project' | 'personal'; noCommit?: boolean},
): Promise<RestoreResult> {
  const {id} = input
  const stores = openStores(ctx)
  const [store] = stores.readable(input.store ?? 'project')
  const archived = stores.list(store, {archive: true}).filter(f => f.location === 'archive' && f.archiveTs)
  if (!isSafeId(id)) throw neither(id, archived)
  // Archives are listed oldest first (compareStamps), so the last copy is the newest.
  const newest = archived.filter(f => f.name === id).at(-1)
  assertNotLive(stores, store, id, newest)
  if (!newest) {
    // An org card's archive is the org's own: read-only here.
    refuseOrgCard(stores, id)
    const suggestions = closest(
      id,
      archived.map(f => f.name),
    )
    throw new CairnError(
      'not_found',
      `No archive in the ${store.kind} store holds a card "${id}".${didYouMean(suggestions)} Fix: pick one from "cairn restore --list", which shows the archives and their cards`,
      {id, suggestions},
    )
  }
  const ts = newest.archiveTs!
  const to = restoredPath(store, ts, newest.path, id)
  const {result, commit} = await stores.tx(
    {op: 'restore', summary: `${id} from archive/${ts}`, store, cards: [id], noCommit: input.noCommit},
    tx => {
      // Checked again inside the lock: a restore running at the same time may have won.
      assertNotLive(stores, store, id, newest, p => tx.exists(p))
      const text = tx.readFound(newest.path, `archived card "${id}"`)
      tx.move(newest.path, to)
      // As fresh as the decision to bring it back: maintain must not plan its archive again at once.
      tx.write(to, patchCard(text, to, [[['updated'], isoSeconds(ctx.now())]]))
      return [{id, from: newest.path, to, renamed: false}]
    },
  )
  return {ts, store: store.kind, restored: result, commit}
}

function assertNotLive(
  stores: Stores,
  store: Store,
  id: string,
  archived: CardFile | undefined,
  exists?: (p: string) => boolean,
) {
  const live = stores.find(store, id).find(h => !exists || exists(h.path))
  if (!live) return
  const where = live.location === 'pending' ? 'waiting for review' : 'active'
  const beside = archived
    ? ` Fix: to bring the archived copy back beside it as restored-${id}, run "cairn restore ${archived.archiveTs} ${id}"`
    : ' Fix: nothing; "cairn show" prints the card'
  throw new CairnError(
    'invalid_transition',
    `Card "${id}" is already live at ${live.path}, ${where}, so there is nothing to restore; nothing was written.${beside}`,
    {id, path: live.path},
  )
}

function neither(arg: string, archived: CardFile[]): CairnError {
  const suggestions = closest(arg, [...archived.map(f => f.name), ...archived.map(f => f.archiveTs!)])
  const fix = 'give a card id or an archive timestamp as "cairn restore --list" shows them'
  return new CairnError(
    'validation',
    `"${arg}" is neither an archive timestamp, like 20261129T100000Z, nor a card id, a kebab-case slug.${didYouMean(suggestions)} Fix: ${fix}`,
    {issues: [{field: 'target', message: 'neither an archive timestamp nor a card id', fix}], suggestions},
  )
}
