import type {BatchRecord, BoardRequest, Receipt} from '../../domain/board/types.js'
import {CairnError} from '../../domain/errors.js'
import {batchCommits, diskReader, readRecord} from '../../store/board.js'
import type {Context} from '../../store/context.js'
import {type BoardInput, openBoard} from './open.js'

export interface HistoryInput extends BoardInput {
  id?: string
  batch?: string
}

export interface HistoryEntry {
  seq: number
  batch_id: string
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
}

/** `board history`: full batch records, oldest first; for one item, or one batch id. */
export async function boardHistory(ctx: Context, input: HistoryInput = {}): Promise<{entries: HistoryEntry[]}> {
  const board = await openBoard(ctx, input, {write: false})
  if (!board.store) return notFoundOr(input, [])
  const store = board.store
  const files = input.batch ? board.records.filter(r => r.batch_id === input.batch) : board.records
  const read = diskReader(store)
  let records = files.map(f => readRecord(read, f))
  if (input.id) records = records.filter(r => mentions(r, input.id!))
  const shas = records.length ? await batchCommits(board.ctx, store) : new Map<string, string>()
  const entries = records.map(r => entry(r, shas.get(r.request.batch_id) ?? null))
  return notFoundOr(input, entries)
}

function notFoundOr(input: HistoryInput, entries: HistoryEntry[]): {entries: HistoryEntry[]} {
  if (input.batch && !entries.length) {
    throw new CairnError('not_found', `no committed batch "${input.batch}": it was never saved. Retry it with the same batch id, actor and content (now may change)`, {batch_id: input.batch})
  }
  return {entries}
}

function entry(r: BatchRecord, commit: string | null): HistoryEntry {
  return {
    seq: r.seq, batch_id: r.request.batch_id, kind: r.request.kind, event: r.receipt.event, actor: r.request.actor, now: r.now,
    commit, request: r.request, receipt: r.receipt, items: r.effects.items.map(i => i.id),
  }
}

/** A batch concerns an item when it changed it, declared it, or annotated or acknowledged a note on it. */
function mentions(r: BatchRecord, id: string): boolean {
  if (r.effects.items.some(i => i.id === id) || r.effects.annotations.some(a => a.item === id)) return true
  if (r.request.kind === 'annotate') return r.request.item === id
  return r.request.declarations.some(d => d.id === id || ('from' in d && d.from.includes(id)) || ('children' in d && d.children?.includes(id)) || ('parent' in d && d.parent === id))
}
