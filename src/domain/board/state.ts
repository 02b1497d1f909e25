import {CairnError} from '../errors.js'
import {type Annotation, type BatchRecord, type BoardState, type Effects, emptyState, type Item} from './types.js'

export const STATE_SCHEMA = 'cairn/board-state@1'
export const RECORD_SCHEMA = 'cairn/board-batch@1'

/** Folds a record's effects (full after-values) into a state: applying it twice gives the same state. */
export function applyEffects(state: BoardState, effects: Effects): BoardState {
  const items = new Map(state.items)
  for (const item of effects.items) items.set(item.id, item)
  const annotations = new Map(state.annotations)
  for (const a of effects.annotations) annotations.set(a.id, a)
  return {...effects.board, items, annotations}
}

/** The state after the records up to `seq`: any past event_seq can be rebuilt from the records alone. */
export function stateAt(records: BatchRecord[], seq: number): BoardState {
  let state = emptyState()
  for (const r of records) if (r.seq <= seq) state = applyEffects(state, r.effects)
  return state
}

/** Stable key order, so equal values serialise to equal text (retry comparison, git diffs). */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map(k => [k, canonical((value as Record<string, unknown>)[k])]))
  }
  return value
}

export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))

/** state.json: one item or annotation per line, so a batch's commit shows a readable diff. */
export function serializeState(state: BoardState): string {
  const items = [...state.items.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
  const annotations = [...state.annotations.values()].sort((a, b) => annotationNumber(a.id) - annotationNumber(b.id))
  const lines = (xs: unknown[]) => (xs.length ? `[\n${xs.map(x => `    ${JSON.stringify(x)}`).join(',\n')}\n  ]` : '[]')
  return `{
  "schema": "${STATE_SCHEMA}",
  "event_seq": ${state.event_seq},
  "revision": ${state.revision},
  "last_checked_at": ${JSON.stringify(state.last_checked_at)},
  "next_annotation": ${state.next_annotation},
  "items": ${lines(items)},
  "annotations": ${lines(annotations)}
}
`
}

const annotationNumber = (id: string): number => Number(id.slice(2))

export function parseState(text: string, label: string): BoardState {
  let data: {schema?: string; event_seq?: number; revision?: number; last_checked_at?: string | null; next_annotation?: number; items?: Item[]; annotations?: Annotation[]}
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new CairnError('validation', `${label}: the board snapshot is not valid JSON (${(error as Error).message}). Restore it with "git checkout -- ${label}"`)
  }
  if (data.schema !== STATE_SCHEMA || !Array.isArray(data.items) || !Array.isArray(data.annotations) || typeof data.event_seq !== 'number') {
    throw new CairnError('validation', `${label}: not a board snapshot (schema ${STATE_SCHEMA}). Restore it with "git checkout -- ${label}"`)
  }
  return {
    event_seq: data.event_seq,
    revision: data.revision ?? 0,
    last_checked_at: data.last_checked_at ?? null,
    next_annotation: data.next_annotation ?? 1,
    items: new Map(data.items.map(i => [i.id, i])),
    annotations: new Map(data.annotations.map(a => [a.id, a])),
  }
}

/** Indented to the level of declarations and items, each of which stays on one line. */
export function serializeRecord(record: BatchRecord): string {
  return `${shallow(record, 0, 3)}\n`
}

function shallow(value: unknown, depth: number, max: number): string {
  const pad = '  '.repeat(depth + 1)
  const end = '  '.repeat(depth)
  if (depth >= max || !value || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return value.length ? `[\n${value.map(v => pad + shallow(v, depth + 1, max)).join(',\n')}\n${end}]` : '[]'
  const entries = Object.entries(value).filter(([, v]) => v !== undefined)
  return entries.length ? `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${shallow(v, depth + 1, max)}`).join(',\n')}\n${end}}` : '{}'
}

export function parseRecord(text: string, label: string): BatchRecord {
  let data: BatchRecord
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new CairnError('validation', `${label}: the batch record is not valid JSON (${(error as Error).message})`)
  }
  if (data?.schema !== RECORD_SCHEMA || typeof data.seq !== 'number' || !data.request || !data.receipt || !data.effects) {
    throw new CairnError('validation', `${label}: not a board batch record (schema ${RECORD_SCHEMA})`)
  }
  return data
}
