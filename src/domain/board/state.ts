import {createHash} from 'node:crypto'
import {CairnError} from '../errors.js'
import {ANNOTATION_ID, BATCH_ID, ITEM_ID, parseCommitRequest} from './request.js'
import {normalizeTimestamp} from './time.js'
import {
  type Annotation,
  type BatchRecord,
  type BoardRequest,
  type BoardState,
  type Effects,
  type Item,
} from './types.js'

export const RECORD_SCHEMA = 'cairn/board-batch@2' as const
/** The record format before records merged across branches: `<seq>-<batch_id>.json` with effects and a committed state.json. */
export const LEGACY_RECORD_SCHEMA = 'cairn/board-batch@1'

/** Folds a batch's effects into a copy of the state; the state passed in is left as it was. */
export function applyEffects(state: BoardState, effects: Effects): BoardState {
  const copy: BoardState = {
    ...state,
    items: new Map(state.items),
    kids: new Map([...state.kids].map(([k, v]) => [k, new Set(v)])),
    annotations: new Map(state.annotations),
    conflicts: new Map(state.conflicts),
    problems: [...state.problems],
  }
  applyEffectsInPlace(copy, effects)
  return copy
}

/** Folds effects into the state itself: replaying thousands of batches must not copy the board each time. */
export function applyEffectsInPlace(state: BoardState, effects: Effects): void {
  for (const item of effects.items) putItem(state, item)
  for (const a of effects.annotations) state.annotations.set(a.id, a)
  state.event_seq = effects.board.event_seq
  state.revision = effects.board.revision
  state.last_checked_at = effects.board.last_checked_at
}

/** Sets an item, keeping the children index in step. */
export function putItem(state: Pick<BoardState, 'items' | 'kids'>, item: Item): void {
  const old = state.items.get(item.id)
  if (old && old.parent !== item.parent) state.kids.get(old.parent)?.delete(item.id)
  if (!old || old.parent !== item.parent) kidsOf(state.kids, item.parent).add(item.id)
  state.items.set(item.id, item)
}

export function kidsOf(kids: Map<string | null, Set<string>>, parent: string | null): Set<string> {
  let set = kids.get(parent)
  if (!set) kids.set(parent, (set = new Set()))
  return set
}

/** A state holding these items and annotations (the children index built from them). */
export function stateOf(base: Omit<BoardState, 'kids' | 'items'> & {items: Iterable<Item>}): BoardState {
  const state: BoardState = {...base, items: new Map(), kids: new Map()}
  for (const item of base.items) putItem(state, item)
  return state
}

/** Stable key order, so equal values serialise to equal text (retry comparison). */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map(k => [k, canonical((value as Record<string, unknown>)[k])]),
    )
  }
  return value
}

export const sameValue = (a: unknown, b: unknown): boolean =>
  JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))

/** Indented to the level of declarations, each of which stays on one line, so a record reads well in a diff. */
export function serializeRecord(record: BatchRecord): string {
  const {key: _key, ...stored} = record
  return `${shallow(stored, 0, 3)}\n`
}

function shallow(value: unknown, depth: number, max: number): string {
  const pad = '  '.repeat(depth + 1)
  const end = '  '.repeat(depth)
  if (depth >= max || !value || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value))
    return value.length ? `[\n${value.map(v => pad + shallow(v, depth + 1, max)).join(',\n')}\n${end}]` : '[]'
  const entries = Object.entries(value).filter(([, v]) => v !== undefined)
  return entries.length
    ? `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${shallow(v, depth + 1, max)}`).join(',\n')}\n${end}}`
    : '{}'
}

/** A record written before this format: what the migration turns into a record of today. */
export interface LegacyRecord {
  seq: number
  now: string
  request: BoardRequest
  /** The annotation id it created (legacy ids are a-1, a-2, ...). */
  annotation?: string
  /** sha256 of the file's text: the new name's suffix, the same on every clone. */
  digest: string
}

export type ParsedRecord = {legacy: false; record: BatchRecord} | {legacy: true; record: LegacyRecord}

/** Parses a record file of either format; `key` is its file stem. */
export function parseRecordFile(text: string, key: string, label: string): ParsedRecord {
  let data: Record<string, any>
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new CairnError(
      'validation',
      `${label}: the batch record is not valid JSON: ${(error as Error).message.replace(/\.$/, '')}. Fix: restore it with "git checkout -- ${label}"`,
    )
  }
  const request = data?.request
  const requestOk =
    request &&
    typeof request === 'object' &&
    typeof request.batch_id === 'string' &&
    (request.kind === 'commit' || request.kind === 'annotate')
  if (
    data?.schema === LEGACY_RECORD_SCHEMA &&
    Number.isSafeInteger(data.seq) &&
    typeof data.now === 'string' &&
    normalizeTimestamp(data.now) === data.now &&
    requestOk
  ) {
    const annotation =
      request.kind === 'annotate' ? (data.effects?.annotations?.[0] as Annotation | undefined)?.id : undefined
    const bad = (field: string, problem: string) =>
      new CairnError('validation', `${label}: ${field} ${problem}. Fix: restore it with "git checkout -- ${label}"`)
    return {
      legacy: true,
      record: {
        seq: data.seq,
        now: data.now,
        request: checkedRequest(request, annotation, bad),
        annotation,
        digest: createHash('sha256').update(text).digest('hex'),
      },
    }
  }
  const parentsOk =
    Array.isArray(data?.parents) &&
    data.parents.length <= 1000 &&
    data.parents.every((p: unknown) => typeof p === 'string' && RECORD_KEY.test(p))
  if (
    data?.schema !== RECORD_SCHEMA ||
    !Number.isSafeInteger(data.clock) ||
    data.clock < 1 ||
    data.clock > MAX_CLOCK ||
    !parentsOk ||
    !requestOk
  ) {
    throw new CairnError(
      'validation',
      `${label}: not a board batch record, which has schema ${RECORD_SCHEMA} with a whole clock from 1 to ${MAX_CLOCK}, parents naming records, now and request. Fix: restore it with "git checkout -- ${label}"`,
    )
  }
  const bad = (field: string, problem: string) =>
    new CairnError(
      'validation',
      `${label}: ${field} ${problem}. Records are written by cairn and never edited. Fix: restore it with "git checkout -- ${label}"`,
    )
  if (typeof data.now !== 'string' || normalizeTimestamp(data.now) !== data.now)
    throw bad('now', 'must be an RFC 3339 time in UTC such as 2026-10-09T12:00:00Z')
  if (key !== `${request.batch_id}-${key.slice(-8)}` || !/^[0-9a-f]{8}$/.test(key.slice(-8)))
    throw bad('the file name', `must be <batch_id>-<8 hex digits>.json for batch "${request.batch_id}"`)
  return {
    legacy: false,
    record: {
      schema: RECORD_SCHEMA,
      key,
      clock: data.clock,
      parents: data.parents,
      now: data.now,
      request: checkedRequest(request, data.annotation, bad),
      annotation: data.annotation,
    },
  }
}

/** A record's file stem: `<batch_id>-<8 hex digits>`. */
export const RECORD_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}-[0-9a-f]{8}$/
/** Far above any real history, and far below where clock + 1 stops being exact. */
const MAX_CLOCK = 1e12

/** The stored request, checked as strictly as the batch it came from: a hand-edited record never replays as garbage. */
function checkedRequest(
  request: Record<string, any>,
  annotation: unknown,
  bad: (field: string, problem: string) => CairnError,
): BoardRequest {
  const actor = request.actor
  if (typeof actor !== 'string' || !actor.trim() || actor.length > 100 || /[\r\n]/.test(actor))
    throw bad('request.actor', 'must name the agent in one line of at most 100 characters')
  if (request.kind === 'annotate') {
    if (typeof annotation !== 'string' || !ANNOTATION_ID.test(annotation))
      throw bad('annotation', 'must be an annotation id such as a-5f3c9e21')
    if (!BATCH_ID.test(request.batch_id)) throw bad('request.batch_id', 'must be a batch id')
    if (typeof request.item !== 'string' || !ITEM_ID.test(request.item)) throw bad('request.item', 'must be an item id')
    if (typeof request.text !== 'string' || !request.text.trim() || request.text.length > 4000)
      throw bad('request.text', 'must be non-empty text of at most 4000 characters')
    const extra = Object.keys(request).filter(k => !['kind', 'batch_id', 'actor', 'item', 'text'].includes(k))
    if (extra.length) throw bad(`request.${extra[0]}`, 'is not a field of an annotation')
    return {kind: 'annotate', batch_id: request.batch_id, actor, item: request.item, text: request.text}
  }
  const extra = Object.keys(request).filter(
    k => !['kind', 'batch_id', 'actor', 'declarations', 'acknowledges'].includes(k),
  )
  if (extra.length) throw bad(`request.${extra[0]}`, 'is not a field of a batch')
  // A record may be older than the cap on declarations: it is read whole, and replay decides.
  const {batch_id, declarations, acknowledges} = request
  const parsed = parseCommitRequest({batch_id, declarations, acknowledges}, actor, {max: Infinity})
  if (!parsed.ok) throw bad(`request.${parsed.errors[0].path}`, `is invalid: ${parsed.errors[0].message}`)
  return parsed.request
}

/**
 * Legacy records as records of today, in their old order: each one's parent is the one
 * before it. Deterministic, so two clones migrating the same board write the same files.
 */
export function upgradeLegacy(legacy: LegacyRecord[]): BatchRecord[] {
  const out: BatchRecord[] = []
  // The clock is the place in the old order, so a duplicated seq can never sort a record before its parent.
  for (const r of [...legacy].sort((a, b) => a.seq - b.seq || (a.digest < b.digest ? -1 : 1))) {
    const prev = out.at(-1)
    out.push({
      schema: RECORD_SCHEMA,
      key: `${r.request.batch_id}-${r.digest.slice(0, 8)}`,
      clock: out.length + 1,
      parents: prev ? [prev.key] : [],
      now: r.now,
      request: r.request,
      ...(r.annotation ? {annotation: r.annotation} : {}),
    })
  }
  return out
}
