import {sameValue} from './state.js'
import type {BoardState, Item} from './types.js'
import {type Projections, projections} from './view.js'

export interface BoardDiff {
  from: {event_seq: number; revision: number}
  to: {event_seq: number; revision: number}
  /** Both ends are projected with this same now, so time passing is not mistaken for change. */
  now: string
  added: string[]
  removed: {id: string; status: Item['status'] | 'missing'; merged_into: string | null; parent: string | null}[]
  moved: {id: string; from_parent: string | null; to_parent: string | null}[]
  changed: {
    id: string
    fields: Record<string, {from: unknown; to: unknown}>
    projections: {from: Projections; to: Projections}
  }[]
  annotations: {added: string[]; acknowledged: string[]}
}

const FIELDS = ['kind', 'summary', 'weight', 'share', 'reason', 'due_at', 'stale_at', 'sources', 'budget'] as const

/** Endpoint diff between two states: what is active, where, and with which fields; not the steps between. */
export function diffStates(from: BoardState, to: BoardState, now: string): BoardDiff {
  const active = (s: BoardState, id: string) => s.items.get(id)?.status === 'active'
  const diff: BoardDiff = {
    from: {event_seq: from.event_seq, revision: from.revision},
    to: {event_seq: to.event_seq, revision: to.revision},
    now,
    added: [],
    removed: [],
    moved: [],
    changed: [],
    annotations: {added: [], acknowledged: []},
  }
  const ids = [...new Set([...from.items.keys(), ...to.items.keys()])].sort()
  for (const id of ids) {
    const a = from.items.get(id)
    const b = to.items.get(id)
    if (!active(from, id) && active(to, id)) diff.added.push(id)
    else if (active(from, id) && !active(to, id))
      diff.removed.push({id, status: b?.status ?? 'missing', merged_into: b?.merged_into ?? null, parent: a!.parent})
    else if (active(from, id) && a && b) {
      if (a.parent !== b.parent) diff.moved.push({id, from_parent: a.parent, to_parent: b.parent})
      const fields: Record<string, {from: unknown; to: unknown}> = {}
      for (const f of FIELDS) if (!sameValue(a[f], b[f])) fields[f] = {from: a[f], to: b[f]}
      if (Object.keys(fields).length)
        diff.changed.push({id, fields, projections: {from: projections(a, now), to: projections(b, now)}})
    }
  }
  for (const [id, note] of to.annotations) {
    const old = from.annotations.get(id)
    if (!old) diff.annotations.added.push(id)
    if (note.status === 'acknowledged' && old?.status !== 'acknowledged') diff.annotations.acknowledged.push(id)
  }
  return diff
}
