import {replay} from '../../domain/board/replay.js'
import {normalizeTimestamp} from '../../domain/board/time.js'
import type {BoardState} from '../../domain/board/types.js'
import {CairnError} from '../../domain/errors.js'
import type {OpenBoard} from './open.js'

/**
 * The board as it was at a point of its history, replayed from the records: an event_seq (a
 * whole number; after a merge the numbers may have moved, so a batch id or a time is steadier),
 * an RFC 3339 time (every batch committed at or before it), or a batch id (up to and including it).
 */
export function pastState(board: OpenBoard, point: string): {state: BoardState; event_seq: number} {
  const all = board.events()
  const records = board.files ? board.files.readRecords().records : []
  // Everything up to that event in the replayed order, repeats included: a repeat is still a parent of what follows.
  const upTo = (last: number) => new Set(all.slice(0, last + 1).map(e => e.key))
  let keep: Set<string>
  if (/^\d+$/.test(point)) {
    const seq = Number(point)
    if (seq > board.state.event_seq)
      throw new CairnError(
        'usage',
        `--diff-from ${point} is past this board's last event, ${board.state.event_seq}. Fix: give an event_seq from 0 to ${board.state.event_seq}, a batch id or a time`,
      )
    keep = seq === 0 ? new Set() : upTo(all.findIndex(e => e.event_seq === seq))
  } else if (normalizeTimestamp(point)) {
    const at = Date.parse(normalizeTimestamp(point)!)
    keep = new Set()
    for (const r of records) if (Date.parse(r.now) <= at) keep.add(r.key)
  } else {
    const hit = all.findIndex(e => e.batch_id === point && e.event_seq !== null)
    if (hit < 0)
      throw new CairnError(
        'usage',
        `--diff-from "${point}" is neither an event_seq, an RFC 3339 time, nor a batch id of this board. Fix: pick one from "cairn board history"`,
      )
    keep = upTo(hit)
  }
  const {state} = replay(
    records.filter(r => keep.has(r.key)),
    board.settings,
  )
  return {state, event_seq: state.event_seq}
}
