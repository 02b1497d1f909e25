import {createHash} from 'node:crypto'
import {CairnError} from '../errors.js'
import {type Annotation, type BatchRecord, type BoardRequest, type BoardState, type Effects, type Item} from './types.js'

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
    return Object.fromEntries(Object.keys(value).sort().map(k => [k, canonical((value as Record<string, unknown>)[k])]))
  }
  return value
}

export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))

/** Indented to the level of declarations, each of which stays on one line, so a record reads well in a diff. */
export function serializeRecord(record: BatchRecord): string {
  const {key: _key, ...stored} = record
  return `${shallow(stored, 0, 3)}\n`
}

function shallow(value: unknown, depth: number, max: number): string {
  const pad = '  '.repeat(depth + 1)
  const end = '  '.repeat(depth)
  if (depth >= max || !value || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return value.length ? `[\n${value.map(v => pad + shallow(v, depth + 1, max)).join(',\n')}\n${end}]` : '[]'
  const entries = Object.entries(value).filter(([, v]) => v !== undefined)
  return entries.length ? `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${shallow(v, depth + 1, max)}`).join(',\n')}\n${end}}` : '{}'
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
    throw new CairnError('validation', `${label}: the batch record is not valid JSON (${(error as Error).message}). Restore it with "git checkout -- ${label}"`)
  }
  const request = data?.request
  const requestOk = request && typeof request === 'object' && typeof request.batch_id === 'string' && (request.kind === 'commit' || request.kind === 'annotate')
  if (data?.schema === LEGACY_RECORD_SCHEMA && typeof data.seq === 'number' && typeof data.now === 'string' && requestOk) {
    const annotation = request.kind === 'annotate' ? (data.effects?.annotations?.[0] as Annotation | undefined)?.id : undefined
    return {legacy: true, record: {seq: data.seq, now: data.now, request, annotation, digest: createHash('sha256').update(text).digest('hex')}}
  }
  const parentsOk = Array.isArray(data?.parents) && data.parents.every((p: unknown) => typeof p === 'string')
  if (data?.schema !== RECORD_SCHEMA || !Number.isInteger(data.clock) || data.clock < 1 || !parentsOk || typeof data.now !== 'string' || !requestOk
    || (request.kind === 'annotate' && typeof data.annotation !== 'string')) {
    throw new CairnError('validation', `${label}: not a board batch record (schema ${RECORD_SCHEMA} with clock, parents, now and request). Restore it with "git checkout -- ${label}"`)
  }
  return {legacy: false, record: {schema: RECORD_SCHEMA, key, clock: data.clock, parents: data.parents, now: data.now, request, annotation: data.annotation}}
}

/**
 * Legacy records as records of today, in their old order: each one's parent is the one
 * before it. Deterministic, so two clones migrating the same board write the same files.
 */
export function upgradeLegacy(legacy: LegacyRecord[]): BatchRecord[] {
  const out: BatchRecord[] = []
  for (const r of [...legacy].sort((a, b) => a.seq - b.seq)) {
    const prev = out.at(-1)
    out.push({
      schema: RECORD_SCHEMA, key: `${r.request.batch_id}-${r.digest.slice(0, 8)}`, clock: r.seq, parents: prev ? [prev.key] : [],
      now: r.now, request: r.request, ...(r.annotation ? {annotation: r.annotation} : {}),
    })
  }
  return out
}
