import {replay} from '../../domain/board/replay.js'
import {normalizeTimestamp} from '../../domain/board/time.js'
import type {BoardState} from '../../domain/board/types.js'
import {CairnError} from '../../domain/errors.js'
import {readRecords} from '../../store/board.js'
import type {OpenBoard} from './open.js'

/**
 * The board as it was at a point of its history, replayed from the records: an event_seq (a
 * whole number; after a merge the numbers may have moved, so a batch id or a time is steadier),
 * an RFC 3339 time (every batch committed at or before it), or a batch id (up to and including it).
 */
export function pastState(board: OpenBoard, point: string): {state: BoardState; event_seq: number} {
  const events = board.events().filter(e => e.event_seq !== null)
  let keep: Set<string>
  if (/^\d+$/.test(point)) {
    const seq = Number(point)
    if (seq > board.state.event_seq) throw new CairnError('usage', `--diff-from ${point} is past this board's last event (${board.state.event_seq}); give an event_seq from 0 to ${board.state.event_seq}, a batch id or a time`)
    keep = new Set(events.filter(e => e.event_seq! <= seq).map(e => e.key))
  } else if (normalizeTimestamp(point)) {
    const at = Date.parse(normalizeTimestamp(point)!)
    keep = new Set()
    for (const r of board.store ? readRecords(board.store).records : []) if (Date.parse(r.now) <= at) keep.add(r.key)
  } else {
    const hit = events.find(e => e.batch_id === point)
    if (!hit) throw new CairnError('usage', `--diff-from "${point}" is neither an event_seq, an RFC 3339 time, nor a batch id of this board; "cairn board history" lists them`)
    keep = new Set(events.filter(e => e.event_seq! <= hit.event_seq!).map(e => e.key))
  }
  if (!board.store || !keep.size) return {state: replay([], board.settings).state, event_seq: 0}
  const {state} = replay(readRecords(board.store).records.filter(r => keep.has(r.key)), board.settings)
  return {state, event_seq: state.event_seq}
}
