import {applyAnnotation, applyBatch, type Applied} from './apply.js'
import {differingFields} from './retry.js'
import type {BoardSettings} from './scale.js'
import {applyEffectsInPlace, sameValue} from './state.js'
import {MAX_DECLARATIONS} from './request.js'
import {salvage} from './salvage.js'
import {
  type BatchRecord,
  type BoardState,
  type CommitRequest,
  type ConflictVersion,
  emptyChanges,
  emptyState,
  type Item,
  type Receipt,
} from './types.js'

/** One record in the replayed order. A record repeating an earlier one's batch id and request is no event of its own. */
export interface ReplayEvent {
  key: string
  batch_id: string
  /** null for a repeat of `duplicate_of`. */
  event_seq: number | null
  receipt: Receipt
  /** Items whose stored state this batch changed. */
  items: string[]
  duplicate_of: string | null
}

export interface Replayed {
  state: BoardState
  events: ReplayEvent[]
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The order every clone replays: by clock (a record's clock is above every record its writer
 * saw, so this keeps each branch's own order), then time, batch id and file name. It depends on
 * the records alone, never on which side of a merge was which.
 */
export const byReplayOrder = (a: BatchRecord, b: BatchRecord): number =>
  a.clock - b.clock || cmp(a.now, b.now) || cmp(a.request.batch_id, b.request.batch_id) || cmp(a.key, b.key)

/**
 * Replays the committed requests into the board. A record written on top of everything before it
 * applies as it did when it was written. A record from another branch may meet changes it never
 * saw: an item both sides changed is flagged with both versions until a batch that saw them all
 * declares it; a declaration that no longer applies is reported, never dropped silently; budgets
 * are not checked (the view flags a layer over budget).
 */
export function replay(records: BatchRecord[], settings: BoardSettings): Replayed {
  const order = [...records].sort(byReplayOrder)
  const ancestry = new Ancestry()
  const state = emptyState()
  const heads = new Set<string>()
  const lastWriter = new Map<string, BatchRecord>()
  /** The first record of each distinct request under a batch id: a later copy of any of them is a repeat. */
  const firsts = new Map<string, BatchRecord[]>()
  const receipts = new Map<string, Receipt>()
  /** A repeated annotation's id, as the first copy named it, so acknowledgements from either branch find it. */
  const aliases = new Map<string, string>()
  const events: ReplayEvent[] = []
  for (const r of order) {
    const linear = [...heads].every(h => r.parents.includes(h))
    for (const p of r.parents) heads.delete(p)
    heads.add(r.key)
    ancestry.add(r)
    const seen = firsts.get(r.request.batch_id) ?? []
    const same = seen.find(f => sameValue(f.request, r.request))
    if (same) {
      if (r.annotation && same.annotation) aliases.set(r.annotation, same.annotation)
      events.push({
        key: r.key,
        batch_id: r.request.batch_id,
        event_seq: null,
        receipt: {...receipts.get(same.key)!, status: 'already_committed'},
        items: [],
        duplicate_of: same.key,
      })
      continue
    }
    if (seen.length)
      state.problems.push({
        code: 'batch_id_conflict',
        batch_id: r.request.batch_id,
        records: [seen[0].key, r.key],
        differing_fields: differingFields(seen[0].request, r.request),
      })
    firsts.set(r.request.batch_id, [...seen, r])
    const saw = linear ? () => true : (key: string) => ancestry.saw(r, key)
    const applied = applyRecord(state, r, settings, aliases)
    const changed = applied.effects.items.map(i => i.id)
    for (const item of applied.effects.items) {
      const writer = lastWriter.get(item.id)
      lastWriter.set(item.id, r)
      const mine = version(r, receipts, item, applied.receipt.event_seq!)
      const conflict = state.conflicts.get(item.id)
      if (conflict) {
        // This version replaces every version it saw; the ones it did not see stay beside it.
        const unseen = conflict.versions.filter(v => v.record !== r.key && !saw(v.record))
        if (unseen.length) conflict.versions = [...unseen, mine]
        else state.conflicts.delete(item.id)
      } else if (writer && !saw(writer.key)) {
        state.conflicts.set(item.id, {
          item: item.id,
          versions: [version(writer, receipts, state.items.get(item.id)!), mine],
        })
      }
    }
    receipts.set(r.key, applied.receipt)
    events.push({
      key: r.key,
      batch_id: r.request.batch_id,
      event_seq: applied.receipt.event_seq,
      receipt: applied.receipt,
      items: changed,
      duplicate_of: null,
    })
    applyEffectsInPlace(state, applied.effects)
    resolve(state, r, changed, saw)
  }
  return {state, events}
}

function version(r: BatchRecord, receipts: Map<string, Receipt>, item: Item, seq?: number): ConflictVersion {
  return {
    batch_id: r.request.batch_id,
    record: r.key,
    actor: r.request.actor,
    now: r.now,
    event_seq: seq ?? receipts.get(r.key)?.event_seq ?? 0,
    item,
  }
}

/**
 * Where each record sits in the history: on a chain (a run of records each written on top of the
 * one before), at an index, plus the furthest index of every other chain its ancestors reach.
 * A record continues its first parent's chain unless another record already did (a fork), so a
 * long branch shares one `reach` map and "did r see w" is one lookup, however long the history.
 */
interface Position {
  chain: number
  index: number
  reach: Map<number, number>
}

class Ancestry {
  private readonly at = new Map<string, Position>()
  private readonly continued = new Set<string>()
  private chains = 0

  add(r: BatchRecord): void {
    const parents = r.parents.map(p => ({key: p, pos: this.at.get(p)})).filter(p => p.pos) as {
      key: string
      pos: Position
    }[]
    const first = parents[0]
    const extend = first && !this.continued.has(first.key)
    let reach = first ? first.pos.reach : new Map<number, number>()
    if (!extend || parents.length > 1) {
      reach = new Map(reach)
      for (const {pos} of parents) {
        for (const [chain, index] of pos.reach) if ((reach.get(chain) ?? -1) < index) reach.set(chain, index)
        if ((reach.get(pos.chain) ?? -1) < pos.index) reach.set(pos.chain, pos.index)
      }
    }
    if (extend) this.continued.add(first.key)
    this.at.set(
      r.key,
      extend ? {chain: first.pos.chain, index: first.pos.index + 1, reach} : {chain: this.chains++, index: 0, reach},
    )
  }

  /** Whether `key` is an ancestor of `r` (both already added). */
  saw(r: BatchRecord, key: string): boolean {
    const mine = this.at.get(r.key)
    const theirs = this.at.get(key)
    if (!mine || !theirs || key === r.key) return false
    if (theirs.chain === mine.chain) return theirs.index < mine.index
    return (mine.reach.get(theirs.chain) ?? -1) >= theirs.index
  }
}

/**
 * A batch that saw every version of a flagged item and declares or changes it resolves the flag.
 * The write path calls this too: a new record has seen everything, so it resolves what it names.
 */
export function resolve(
  state: BoardState,
  r: BatchRecord,
  changed: string[],
  saw: (key: string) => boolean = () => true,
): void {
  if (!state.conflicts.size) return
  for (const named of new Set([...declaredIds(r), ...changed])) {
    // An item merged into another is resolved by declaring what it became (it cannot be declared itself).
    for (const id of [named, ...predecessors(state, named)]) {
      const conflict = state.conflicts.get(id)
      if (conflict?.versions.every(v => v.record !== r.key && saw(v.record))) state.conflicts.delete(id)
    }
  }
}

/** The items merged into this one, and into those, and so on. */
function predecessors(state: BoardState, id: string): string[] {
  const out: string[] = []
  const stack = [...(state.items.get(id)?.merged_from ?? [])]
  while (stack.length && out.length < 1000) {
    const next = stack.pop()!
    if (out.includes(next)) continue
    out.push(next)
    stack.push(...(state.items.get(next)?.merged_from ?? []))
  }
  return out
}

/** Ids a batch names: declaring an item (or merging it) is how a batch resolves a flagged one. */
function declaredIds(r: BatchRecord): string[] {
  if (r.request.kind === 'annotate') return []
  return r.request.declarations.flatMap(d => [d.id, ...('from' in d ? d.from : [])])
}

/**
 * The record as committed; else each declaration that still applies, and a problem for each one
 * that does not. A record over the batch cap (hand-committed, or older than the cap) is only
 * applied whole: sorting out what of it still applies is work a committed file must not be able
 * to make as large as it likes, so when it no longer applies whole none of it does, and one
 * problem names the record.
 */
function applyRecord(
  state: BoardState,
  r: BatchRecord,
  settings: BoardSettings,
  aliases: Map<string, string>,
): Extract<Applied, {ok: true}> {
  const request = r.request
  if (request.kind === 'annotate') {
    const applied = applyAnnotation(state, request, r.now, r.annotation!)
    if (applied.ok) return applied
    state.problems.push({
      code: 'not_applied',
      batch_id: request.batch_id,
      record: r.key,
      path: 'item',
      error: applied.errors[0].code,
      message: applied.errors[0].message,
    })
    return nothing(state, request.batch_id, request.actor, r.now)
  }
  const acknowledges = request.acknowledges.map(id => aliases.get(id) ?? id)
  const strict = applyBatch(state, {...request, acknowledges}, r.now, settings, {budgets: false})
  if (strict.ok) return strict
  const count = request.declarations.length
  if (count > MAX_DECLARATIONS) {
    const why = `${strict.errors[0].path}: ${strict.errors[0].message}`
    state.problems.push({
      code: 'not_applied',
      batch_id: request.batch_id,
      record: r.key,
      path: 'declarations',
      error: 'too_many_declarations',
      message:
        `record ${r.key} holds ${count} declarations, over the ${MAX_DECLARATIONS} a batch may hold, and no longer ` +
        `applies whole (${why}), so none of it was applied. Fix: commit what it should still change as new batches of at ` +
        `most ${MAX_DECLARATIONS} declarations`,
    })
    return nothing(state, request.batch_id, request.actor, r.now)
  }
  const kept = salvage(state, request, r.now, (i, error) => {
    state.problems.push({
      code: 'not_applied',
      batch_id: request.batch_id,
      record: r.key,
      path: `declarations[${i}]`,
      error: error.code,
      message: error.message,
    })
  })
  const known = acknowledges.filter(id => state.annotations.has(id))
  const final: CommitRequest = {...request, declarations: kept, acknowledges: known}
  const applied = applyBatch(state, final, r.now, settings, {budgets: false})
  if (applied.ok) return applied
  return nothing(state, request.batch_id, request.actor, r.now)
}

/** An event that changes nothing: a record none of whose content applies any more. */
function nothing(state: BoardState, batchId: string, actor: string, now: string): Extract<Applied, {ok: true}> {
  const seq = state.event_seq + 1
  return {
    ok: true,
    effects: {
      items: [],
      annotations: [],
      board: {event_seq: seq, revision: state.revision, last_checked_at: state.last_checked_at},
    },
    receipt: {
      status: 'committed',
      batch_id: batchId,
      event_seq: seq,
      event: null,
      revision: state.revision,
      actor,
      now,
      changes: emptyChanges(),
      acknowledged: [],
      already_acknowledged: [],
      checked: false,
    },
  }
}
