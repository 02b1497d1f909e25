import {DEFAULT_BOARD_SETTINGS, type BoardSettings} from '../../domain/board/scale.js'
import {serializeRecord} from '../../domain/board/state.js'
import {normalizeTimestamp} from '../../domain/board/time.js'
import {emptyState} from '../../domain/board/types.js'
import {CairnError} from '../../domain/errors.js'
import type {BoardData} from '../../store/board/board.js'
import type {BoardFiles} from '../../store/board/board-files.js'
import {type Context, isoSeconds, withContext} from '../../context.js'
import type {ChangeSet} from '../../store/cards/transaction.js'
import type {Store} from '../../store/layout.js'
import {type Stores} from '../../store/stores.js'
import {openStores} from '../stores.js'

export type BoardStoreChoice = 'project' | 'personal'

export interface BoardInput {
  store?: BoardStoreChoice
  /** RFC 3339; defaults to the context clock, the only place the board reads time. */
  now?: string
  /** A board in the previous format is migrated (one commit) unless this is false: the session hook only reads. */
  migrate?: boolean
}

export interface OpenBoard extends BoardData {
  store: Store | null
  /** The board's files in that store; null with it. */
  files: BoardFiles | null
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
    throw new CairnError(
      'usage',
      `--now "${text}" is not an RFC 3339 timestamp. Fix: give one such as 2026-10-09T12:00:00Z`,
    )
  const fixed = new Date(normalized)
  return {now: normalized, ctx: withContext(ctx, {now: () => new Date(fixed), pinnedClock: true})}
}

export async function boardSettings(stores: Stores, store: Store): Promise<BoardSettings> {
  const config = await stores.config(store)
  return {budget: config.board.budget, weight_shares: config.board.weight_shares, fold_below: config.board.fold_below}
}

/**
 * The board of the chosen store, replayed from its records (or read from the cache of that
 * replay). A board in the previous format is migrated first, in one commit. Reading a personal
 * board that does not exist yet creates nothing.
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
    return {
      store,
      files: null,
      stores,
      settings: DEFAULT_BOARD_SETTINGS,
      now,
      ctx,
      state: emptyState(),
      events: () => [],
      heads: [],
      clock: 0,
      legacy: false,
    }
  const settings = await boardSettings(stores, store)
  const files = await stores.board(store)
  // A write killed midway is finished or rolled back before the records are read.
  if (input.migrate !== false) await stores.recoverInterrupted(store)
  let data = files.load(settings)
  if (input.migrate !== false) {
    try {
      // Mid-merge (or rebase) the board is read as it stands: a commit now would tangle with the user's.
      files.assertNoGitOperation()
      if (data.legacy)
        await stores.tx({op: 'board-migrate', summary: 'board records that merge across branches', store}, tx =>
          migrate(tx, files),
        )
      else if (!files.knownCommitted(data.fingerprint)) await commitLoose(stores, files, store, data.fingerprint)
    } catch (error) {
      // A read still answers; a write refuses with the reason (its own transaction would say the same).
      if (options.write || !(error instanceof CairnError)) throw error
      ctx.warn(
        `the board was read as it stands, without ${data.legacy ? 'migrating it' : 'committing records left uncommitted'}: ${error.message}`,
      )
    }
    if (data.legacy) data = files.load(settings)
  }
  return {store, files, stores, settings, now, ctx, ...data}
}

/**
 * A record on disk but not committed (a write killed before its commit) counts already; it is
 * committed as it is. A committed record edited since is never committed: records are append-only.
 */
async function commitLoose(
  stores: Stores,
  files: BoardFiles,
  store: Store,
  fingerprint: string | undefined,
): Promise<void> {
  if (!(await stores.commitOptions(store)).commit) return
  const {added: loose, changed} = await files.looseRecords()
  for (const p of changed)
    stores.ctx.warn(
      `${p} was changed after it was committed; board records are append-only: restore it with "git checkout -- ${p}" and record the change as a new batch`,
    )
  if (!loose.length) {
    if (!changed.length) files.markCommitted(fingerprint)
    return
  }
  const keys = loose.map(p => p.slice(p.lastIndexOf('/') + 1, -'.json'.length))
  await stores.tx(
    {op: 'board-recover', summary: `commit ${keys.join(', ')}`, store, batch: files.batchIdOf(keys[keys.length - 1])},
    tx => {
      for (const p of loose) {
        const text = tx.read(p)
        if (text !== null) tx.write(p, text)
      }
    },
  )
}

/**
 * The previous format's records (`<seq>-<batch_id>.json`, with effects) become records of
 * today, and the committed board/state.json goes: one commit. Each new name and text follows
 * from the old file alone, so branches that migrate the same board write the same files.
 * Returns how many records it rewrote (0: another command migrated meanwhile).
 */
export function migrate(tx: ChangeSet, files: BoardFiles): number {
  const {records, legacy} = files.readRecords(p => tx.read(p))
  if (!legacy) return 0
  const wanted = new Map(records.map(r => [`${r.key}.json`, serializeRecord(r)]))
  let rewritten = 0
  for (const name of files.recordNames()) {
    const relPath = `${files.batchesRel}/${name}`
    if (wanted.get(name) === tx.read(relPath)) {
      wanted.delete(name)
      continue
    }
    if (!wanted.has(name)) tx.remove(relPath)
  }
  for (const r of records) {
    const text = wanted.get(`${r.key}.json`)
    if (text === undefined) continue
    tx.write(files.recordRel(r.key), text)
    rewritten++
  }
  if (tx.exists(files.legacyStateRel)) tx.remove(files.legacyStateRel)
  return rewritten
}
