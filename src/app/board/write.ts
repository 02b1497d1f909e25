import {conflict, rejection} from '../../domain/board/errors.js'
import type {Applied} from '../../domain/board/apply.js'
import {resolve} from '../../domain/board/replay.js'
import {differingFields} from '../../domain/board/retry.js'
import {applyEffects, parseRecordFile, RECORD_SCHEMA, serializeRecord} from '../../domain/board/state.js'
import {
  type BatchRecord,
  type BoardRequest,
  type BoardState,
  emptyChanges,
  type Receipt,
} from '../../domain/board/types.js'
import type {BoardData} from '../../store/board/board.js'
import type {BoardFiles} from '../../store/board/board-files.js'
import type {Store} from '../../store/layout.js'
import {CairnError} from '../../domain/errors.js'
import type {Context} from '../../context.js'
import type {OpenBoard} from './open.js'

export interface WriteResult {
  receipt: Receipt
  commit: string | null
  store: Store['kind'] | null
}

/** The board a write leaves: its data with the new record, and the record files (sorted) that data is made from. */
interface NextBoard {
  data: BoardData
  names: string[]
}

/**
 * One committed batch (or annotation) = one git commit adding one record file, at a path no
 * other write takes (`<batch_id>-<random suffix>.json`), so branches merge without conflict.
 * The record holds the request; the state and receipt follow from replaying the records, and
 * the new record is last in that order (its clock is above every record it saw). A batch id seen
 * before is answered from its first record. The transaction returns the board it leaves, which
 * is cached once the commit is in.
 */
export async function writeBatch(
  board: OpenBoard,
  request: BoardRequest,
  apply: (state: BoardState) => Applied,
  annotation?: string,
): Promise<WriteResult> {
  const store = board.store!
  const files = board.files!
  const summary = `${request.kind === 'commit' ? 'batch' : 'annotation'} ${request.batch_id}`
  // The commit's Cairn-Actor is the batch's actor (an --actor may name an agent), not the shell user.
  const meta = {op: `board-${request.kind}`, summary, store, batch: request.batch_id, actor: request.actor}
  const {result, commit} = await board.stores.tx(meta, (tx): {receipt: Receipt; next?: NextBoard} => {
    // Inside the lock: another command may have written a record meanwhile.
    const data = files.load(board.settings)
    if (data.legacy)
      throw new CairnError(
        'conflict',
        'An older cairn wrote to this board while this command ran. Fix: run the command again; it brings the board to the current format first',
      )
    const prior = data.events().find(e => e.batch_id === request.batch_id && e.duplicate_of === null)
    if (prior) {
      const first = parseRecordFile(
        tx.readFound(files.recordRel(prior.key), `batch ${request.batch_id}`),
        prior.key,
        files.recordRel(prior.key),
      )
      return {receipt: retried(first.record.request, prior.receipt, request)}
    }
    const applied = apply(data.state)
    if (!applied.ok)
      throw rejection(rejectedReceipt(request.batch_id, request.actor, board.now, data.state.revision), applied.errors)
    const record: BatchRecord = {
      schema: RECORD_SCHEMA,
      key: `${request.batch_id}-${board.ctx.newId()}`,
      clock: data.clock + 1,
      parents: data.heads,
      now: board.now,
      request,
      ...(annotation ? {annotation} : {}),
    }
    tx.write(files.recordRel(record.key), serializeRecord(record))
    const names = [...files.recordNames(), `${record.key}.json`].sort()
    const items = applied.effects.items.map(i => i.id)
    const {receipt} = applied
    const event = {
      key: record.key,
      batch_id: request.batch_id,
      event_seq: receipt.event_seq,
      receipt,
      items,
      duplicate_of: null,
    }
    const state = applyEffects(data.state, applied.effects)
    resolve(state, record, items)
    const events = () => [...data.events(), event]
    const left: BoardData = {state, events, heads: [record.key], clock: record.clock, legacy: false}
    return {receipt, next: {data: left, names}}
  })
  if (result.next) keepCache(files, result.next, commit)
  return {receipt: result.receipt, commit, store: store.kind}
}

/** Caches the board a write left, only if the records on disk are exactly the ones its state was made from. */
function keepCache(files: BoardFiles, next: NextBoard, commit: string | null): void {
  if (files.recordNames().join('/') !== next.names.join('/')) return
  const fingerprint = files.fingerprint()
  files.writeCache(fingerprint, next.data)
  if (commit) files.markCommitted(fingerprint)
}

/** Same content: the first receipt, not redone, whatever `now` the retry carries. Else a conflict. */
function retried(original: BoardRequest, receipt: Receipt, request: BoardRequest): Receipt {
  const differing = differingFields(original, request)
  if (differing.length) throw conflict(request.batch_id, receipt, differing)
  return {...receipt, status: 'already_committed'}
}

/**
 * Who writes to the board: --actor, else the actor rule every cairn commit follows (CAIRN_ACTOR, git's user.name,
 * $USER, else "cairn"). It is part of the request a retry repeats, so it must be one line of at most 100 characters.
 */
export function boardActor(ctx: Context, given: string | undefined): string {
  const actor = (given ?? ctx.actor()).trim()
  if (actor && actor.length <= 100 && !/[\r\n]/.test(actor)) return actor
  const rule = 'is not a name of one line and at most 100 characters'
  throw new CairnError(
    'usage',
    given === undefined
      ? `The actor from CAIRN_ACTOR, git's user.name or $USER ${rule}. Fix: name who writes with --actor.`
      : `The --actor value ${rule}. Fix: give one line of at most 100 characters.`,
  )
}

export function rejectedReceipt(batchId: string | null, actor: string, now: string, revision: number): Receipt {
  return {
    status: 'rejected',
    batch_id: batchId,
    event_seq: null,
    event: null,
    revision,
    actor,
    now,
    changes: emptyChanges(),
    acknowledged: [],
    already_acknowledged: [],
    checked: false,
  }
}
