import type {ReplayEvent} from '../../domain/board/replay.js'
import type {BatchRecord, BoardRequest, BoardState, Receipt} from '../../domain/board/types.js'
import {CairnError} from '../../domain/errors.js'
import type {Context} from '../../context.js'
import {type BoardInput, openBoard} from './open.js'

export interface HistoryInput extends BoardInput {
  id?: string
  batch?: string
}

export interface HistoryEntry {
  /** The event's place in the replayed order; null for a repeat of an earlier record (same batch id and request). */
  seq: number | null
  batch_id: string
  /** The record's file stem under board/batches/. */
  record: string
  kind: BoardRequest['kind']
  event: Receipt['event']
  actor: string
  now: string
  /** The git commit holding this record, read back from its Cairn-Batch trailer; null if uncommitted. */
  commit: string | null
  request: BoardRequest
  receipt: Receipt
  /** Item ids whose stored state this batch changed. */
  items: string[]
  duplicate_of: string | null
}

/** `board history`: full batch records in the replayed order; for one item, or one batch id. */
export async function boardHistory(ctx: Context, input: HistoryInput = {}): Promise<{entries: HistoryEntry[]}> {
  const board = await openBoard(ctx, input, {write: false})
  const files = board.files
  if (!files) return notFoundOr(input, [])
  const events = input.batch ? board.events().filter(e => e.batch_id === input.batch) : board.events()
  let entries = events.map(e => ({event: e, record: files.readRecord(e.key)}))
  if (input.id) entries = entries.filter(x => mentions(x.event, x.record, board.state, input.id!))
  const shas = entries.length ? await files.batchCommits() : new Map<string, string>()
  // A batch id on two branches has two records, and two commits its trailer cannot tell apart.
  const twice = new Set(
    board
      .events()
      .filter(
        e =>
          e.duplicate_of !== null ||
          board.state.problems.some(p => p.code === 'batch_id_conflict' && p.batch_id === e.batch_id),
      )
      .map(e => e.batch_id),
  )
  const out: HistoryEntry[] = []
  for (const x of entries) {
    const commit = twice.has(x.event.batch_id)
      ? await files.recordCommit(x.event.key)
      : (shas.get(x.event.batch_id) ?? null)
    out.push(entry(x.event, x.record, commit))
  }
  return notFoundOr(input, out)
}

function notFoundOr(input: HistoryInput, entries: HistoryEntry[]): {entries: HistoryEntry[]} {
  if (input.batch && !entries.length) {
    throw new CairnError(
      'not_found',
      `No committed batch "${input.batch}": it was never saved. Fix: retry it with the same batch id, actor and content; now may change`,
      {batch_id: input.batch},
    )
  }
  return {entries}
}

function entry(e: ReplayEvent, r: BatchRecord, commit: string | null): HistoryEntry {
  return {
    seq: e.event_seq,
    batch_id: e.batch_id,
    record: e.key,
    kind: r.request.kind,
    event: e.receipt.event,
    actor: r.request.actor,
    now: r.now,
    commit,
    request: r.request,
    receipt: e.receipt,
    items: e.items,
    duplicate_of: e.duplicate_of,
  }
}

/** A batch concerns an item when it changed it, declared it, or annotated or acknowledged a note on it. */
function mentions(e: ReplayEvent, r: BatchRecord, state: BoardState, id: string): boolean {
  if (e.items.includes(id) || e.receipt.acknowledged.some(a => state.annotations.get(a)?.item === id)) return true
  if (r.request.kind === 'annotate') return r.request.item === id
  return r.request.declarations.some(
    d =>
      d.id === id ||
      ('from' in d && d.from.includes(id)) ||
      ('children' in d && d.children?.includes(id)) ||
      ('parent' in d && d.parent === id),
  )
}
