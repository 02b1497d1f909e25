import {checkBatch} from './checks.js'
import {Draft} from './draft.js'
import {boardError} from './errors.js'
import {applyDeclaration} from './ops.js'
import type {BoardSettings} from './scale.js'
import {
  type Annotation,
  type BoardError,
  type BoardState,
  type Changes,
  type CommitRequest,
  type Effects,
  emptyChanges,
  type EventKind,
  type Item,
  type Receipt,
} from './types.js'

export type Applied = {ok: true; receipt: Receipt; effects: Effects} | {ok: false; errors: BoardError[]}

/**
 * Applies a validated batch: all of it or nothing. Pure: same state, request and now give the
 * same result, and the state is not changed (applyEffects folds the effects in). Budgets are
 * checked unless a merged history is being replayed.
 */
export function applyBatch(
  state: BoardState,
  request: CommitRequest,
  now: string,
  settings: BoardSettings,
  options = {budgets: true},
): Applied {
  const draft = new Draft(state)
  request.declarations.forEach((d, i) => applyDeclaration(draft, d, `declarations[${i}]`, now))
  const {fresh, already, errors} = resolveAcks(state, request.acknowledges)
  draft.errors.push(...errors)
  if (!draft.errors.length) checkBatch(draft, settings, options)
  if (draft.errors.length) return {ok: false, errors: draft.errors}

  const seq = state.event_seq + 1
  const changes = emptyChanges()
  const items: Item[] = []
  for (const id of [...draft.touched].sort()) {
    const before = state.items.get(id)
    let after = draft.get(id)!
    const kinds = classify(before, after)
    for (const k of kinds) changes[k].push(id)
    if (kinds.length) after = {...after, revision: (before?.revision ?? 0) + 1, updated_at: now}
    else after = {...after, revision: before!.revision, updated_at: before!.updated_at}
    if (!before || !sameItem(before, after)) items.push(after)
  }
  const business = Object.values(changes).some(list => list.length > 0)
  const event: EventKind = business ? 'changed' : fresh.length ? 'acknowledged' : 'checked'
  const acknowledgement = {batch_id: request.batch_id, event_seq: seq, actor: request.actor, at: now}
  const annotations: Annotation[] = fresh.map(id => ({
    ...state.annotations.get(id)!,
    status: 'acknowledged',
    acknowledged_by: acknowledgement,
  }))
  const effects: Effects = {
    items,
    annotations,
    board: {
      event_seq: seq,
      revision: state.revision + (business ? 1 : 0),
      last_checked_at: event === 'checked' ? now : state.last_checked_at,
    },
  }
  const receipt: Receipt = {
    status: 'committed',
    batch_id: request.batch_id,
    event_seq: seq,
    event,
    revision: effects.board.revision,
    actor: request.actor,
    now,
    changes,
    acknowledged: fresh,
    already_acknowledged: already,
    checked: event === 'checked',
  }
  return {ok: true, receipt, effects}
}

function resolveAcks(state: BoardState, ids: string[]): {fresh: string[]; already: string[]; errors: BoardError[]} {
  const fresh: string[] = []
  const already: string[] = []
  const errors: BoardError[] = []
  ids.forEach((id, k) => {
    const a = state.annotations.get(id)
    if (!a)
      errors.push(
        boardError(
          `acknowledges[${k}]`,
          'not_found',
          `annotation "${id}" does not exist; "cairn board state" lists the saved ones`,
          {id},
        ),
      )
    else if (fresh.includes(id) || already.includes(id)) return
    else if (a.status === 'acknowledged') already.push(id)
    else fresh.push(id)
  })
  return {fresh, already, errors}
}

const CONTENT = ['summary', 'kind', 'due_at', 'stale_at'] as const
const ALLOCATION = ['weight', 'share', 'budget'] as const

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i])

/** Field by field: replaying thousands of batches compares items on every one. */
function sameItem(a: Item, b: Item): boolean {
  for (const k of Object.keys(a) as (keyof Item)[]) {
    const x = a[k]
    const y = b[k]
    if (Array.isArray(x) ? !Array.isArray(y) || !sameList(x, y) : x !== y) return false
  }
  return Object.keys(a).length === Object.keys(b).length
}

/** Which business changes an item went through; reason and automatic metadata are not among them. */
function classify(before: Item | undefined, after: Item): (keyof Changes)[] {
  if (!before) return ['structure']
  const out: (keyof Changes)[] = []
  if (before.status !== after.status || before.parent !== after.parent || before.merged_into !== after.merged_into)
    out.push('structure')
  if (CONTENT.some(f => before[f] !== after[f])) out.push('content')
  if (ALLOCATION.some(f => before[f] !== after[f])) out.push('allocation')
  if (!sameList(before.sources, after.sources)) out.push('sources')
  return out
}

/** An annotation is its own event: saved until a batch acknowledges it. Its id is made when it is written, never counted. */
export function applyAnnotation(
  state: BoardState,
  input: {batch_id: string; actor: string; item: string; text: string},
  now: string,
  id: string,
): Applied {
  const item = state.items.get(input.item)
  if (!item)
    return {
      ok: false,
      errors: [
        boardError('item', 'not_found', `item "${input.item}" does not exist; "cairn board state" lists the items`, {
          id: input.item,
        }),
      ],
    }
  const seq = state.event_seq + 1
  const annotation: Annotation = {
    id,
    item: input.item,
    text: input.text,
    actor: input.actor,
    status: 'saved',
    created_at: now,
    batch_id: input.batch_id,
    event_seq: seq,
    acknowledged_by: null,
  }
  const effects: Effects = {
    items: [],
    annotations: [annotation],
    board: {event_seq: seq, revision: state.revision, last_checked_at: state.last_checked_at},
  }
  const receipt: Receipt = {
    status: 'committed',
    batch_id: input.batch_id,
    event_seq: seq,
    event: 'annotated',
    revision: state.revision,
    actor: input.actor,
    now,
    changes: emptyChanges(),
    acknowledged: [],
    already_acknowledged: [],
    checked: false,
    annotation,
  }
  return {ok: true, receipt, effects}
}
