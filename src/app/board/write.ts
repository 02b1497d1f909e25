import {conflict, rejection} from '../../domain/board/errors.js'
import {differingFields} from '../../domain/board/retry.js'
import {RECORD_SCHEMA, serializeRecord, serializeState} from '../../domain/board/state.js'
import {
  type BatchRecord,
  type BoardError,
  type BoardRequest,
  type BoardState,
  type Effects,
  emptyChanges,
  type Receipt,
} from '../../domain/board/types.js'
import {loadBoard, readRecord, recordRel, stateRel} from '../../store/board.js'
import type {Store} from '../../store/layout.js'
import type {OpenBoard} from './open.js'

export interface WriteResult {
  receipt: Receipt
  commit: string | null
  store: Store['kind'] | null
}

type Apply = (
  state: BoardState,
) => {ok: true; state: BoardState; receipt: Receipt; effects: Effects} | {ok: false; errors: BoardError[]}

/**
 * One committed batch (or annotation) = one git commit holding its record and the new snapshot.
 * The record is written first: a crash between the two writes leaves a record newer than the
 * snapshot, which the next command replays. A batch id seen before is answered from its record.
 */
export async function writeBatch(board: OpenBoard, request: BoardRequest, apply: Apply): Promise<WriteResult> {
  const store = board.store!
  const summary = `${request.kind === 'commit' ? 'batch' : 'annotation'} ${request.batch_id}`
  // The commit's Cairn-Actor is the batch's actor ("user" for annotations), not the shell user.
  const meta = {op: `board-${request.kind}`, summary, store, batch: request.batch_id, actor: request.actor}
  const {result, commit} = await board.stores.tx(meta, tx => {
    const {state, records} = loadBoard(store, p => tx.read(p))
    const prior = records.find(r => r.batch_id === request.batch_id)
    if (prior)
      return retried(
        readRecord(p => tx.read(p), prior),
        request,
      )
    const applied = apply(state)
    if (!applied.ok)
      throw rejection(rejectedReceipt(request.batch_id, request.actor, board.now, state.revision), applied.errors)
    const record: BatchRecord = {
      schema: RECORD_SCHEMA,
      seq: applied.receipt.event_seq!,
      now: board.now,
      request,
      receipt: applied.receipt,
      effects: applied.effects,
    }
    tx.write(recordRel(store, record.seq, request.batch_id), serializeRecord(record))
    tx.write(stateRel(store), serializeState(applied.state))
    return applied.receipt
  })
  return {receipt: result, commit, store: store.kind}
}

/** Same content: the first receipt, not redone, whatever `now` the retry carries. Else a conflict. */
function retried(record: BatchRecord, request: BoardRequest): Receipt {
  const differing = differingFields(record.request, request)
  if (differing.length) throw conflict(request.batch_id, record.receipt, differing)
  return {...record.receipt, status: 'already_committed'}
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
