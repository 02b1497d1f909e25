import {DEFAULT_BOARD_SETTINGS, type BoardSettings} from '../../domain/board/scale.js'
import {serializeState} from '../../domain/board/state.js'
import {normalizeTimestamp} from '../../domain/board/time.js'
import {emptyState} from '../../domain/board/types.js'
import {CairnError} from '../../domain/errors.js'
import {isCommitted, loadBoard, type LoadedBoard, recordRel, stateRel} from '../../store/board.js'
import {type Context, isoSeconds} from '../../store/context.js'
import type {Store} from '../../store/layout.js'
import {openStores, type Stores} from '../../store/stores.js'

export type BoardStoreChoice = 'project' | 'personal'

export interface BoardInput {
  store?: BoardStoreChoice
  /** RFC 3339; defaults to the context clock, the only place the board reads time. */
  now?: string
}

export interface OpenBoard extends LoadedBoard {
  store: Store | null
  /** The stores of the pinned context; writes open their transaction here. */
  stores: Stores
  settings: BoardSettings
  now: string
  /** The context with its clock pinned to `now`, so commits carry the batch's time. */
  ctx: Context
}

/** `now` from --now, or the context clock; a bad value is a usage error. */
export function resolveNow(ctx: Context, now: string | undefined): {now: string; ctx: Context} {
  const text = now ?? isoSeconds(ctx.now())
  const normalized = normalizeTimestamp(text)
  if (!normalized)
    throw new CairnError('usage', `--now "${text}" is not an RFC 3339 timestamp such as 2026-10-09T12:00:00Z`)
  const fixed = new Date(normalized)
  return {now: normalized, ctx: {...ctx, now: () => new Date(fixed), pinnedClock: true}}
}

/**
 * The board of the chosen store, recovered first: a record newer than the snapshot (or a
 * snapshot left uncommitted) is replayed and committed before anything else happens.
 * Reading a personal board that does not exist yet creates nothing.
 */
export async function openBoard(baseCtx: Context, input: BoardInput, options: {write: boolean}): Promise<OpenBoard> {
  const {now, ctx} = resolveNow(baseCtx, input.now)
  const stores = openStores(ctx)
  const store =
    input.store === 'personal'
      ? options.write
        ? await stores.ensurePersonal()
        : (stores.personal ?? null)
      : stores.requireProject()
  if (!store)
    return {store, stores, settings: DEFAULT_BOARD_SETTINGS, now, ctx, state: emptyState(), pending: [], records: []}
  const config = stores.config(store)
  const settings: BoardSettings = {
    budget: config.board.budget,
    weight_shares: config.board.weight_shares,
    fold_below: config.board.fold_below,
  }
  const base = {store, stores, settings, now, ctx}
  let loaded = loadBoard(store)
  // A snapshot left uncommitted (a crash between write and commit) is committed now; no snapshot, no git call.
  const snapshot = stores.exists(store, stateRel(store))
  if (loaded.pending.length || (config.commit.enabled && snapshot && !(await isCommitted(ctx, store, stateRel(store))))) {
    await recover(stores, store)
    loaded = loadBoard(store)
  }
  return {...base, ...loaded}
}

/** Replays newer records into the snapshot under the lock; each record's effects apply exactly once. */
async function recover(stores: Stores, store: Store): Promise<void> {
  const peek = loadBoard(store)
  const ids = peek.pending.map(r => r.request.batch_id)
  const summary = ids.length ? `replay ${ids.join(', ')}` : 'commit the board snapshot'
  await stores.tx({op: 'board-recover', summary, store, batch: ids[ids.length - 1]}, tx => {
    // Re-read under the lock: another process may have finished the write meanwhile.
    const {state, pending, records} = loadBoard(store, p => tx.read(p))
    // The replayed records (and the newest one, which an interrupted commit may have left
    // uncommitted) go into the same commit as the snapshot; rewriting them keeps their bytes.
    const paths = new Set([
      ...pending.map(r => recordRel(store, r.seq, r.request.batch_id)),
      ...records.slice(-1).map(r => r.path),
    ])
    for (const p of paths) tx.write(p, tx.read(p)!)
    tx.write(stateRel(store), serializeState(state))
  })
}
