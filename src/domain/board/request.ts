import {z} from '../vendor/zod.js'
import {boardError, jsonPath} from './errors.js'
import {normalizeTimestamp, timestampProblem} from './time.js'
import type {BoardError, CommitRequest, Declaration} from './types.js'

/** Ids reach commit messages and (batch ids) file names, so they stay plain tokens. */
export const ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/
export const BATCH_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
/** a-<8 hex digits> since ids are made without a counter; a-<number> on boards written before. */
export const ANNOTATION_ID = /^a-(?:[0-9a-f]{8}|\d{1,9})$/

const id = z.string().regex(ITEM_ID)
/** A real instant: 2026-02-30 or 24:00 is refused with the reason, never rolled over. */
const timestamp = z.string().transform((t, ctx) => {
  const normalized = normalizeTimestamp(t)
  if (normalized) return normalized
  ctx.addIssue({code: 'custom', message: timestampProblem(t) ?? 'out of range', params: {detail: true}})
  return z.NEVER
})
const weight = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)])
const kind = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/)
const summary = z
  .string()
  .refine(s => s.trim().length > 0)
  .pipe(z.string().max(4000))

const patch = {
  parent: id.nullable().optional(),
  summary: summary.optional(),
  share: z.number().positive().finite().nullable().optional(),
  reason: z.string().max(4000).nullable().optional(),
  due_at: timestamp.nullable().optional(),
  stale_at: timestamp.nullable().optional(),
  sources: z.array(z.string().min(1).max(2000)).optional(),
  budget: z.number().positive().finite().nullable().optional(),
  children: z.array(id).optional(),
}

const OPS = {
  new: z.strictObject({op: z.literal('new'), id, kind, weight, ...patch, summary}),
  supersedes: z.strictObject({op: z.literal('supersedes'), id, kind, weight, ...patch}),
  children: z.strictObject({op: z.literal('children'), id, kind, weight, ...patch, children: z.array(id)}),
  merges: z.strictObject({
    op: z.literal('merges'),
    id,
    from: z.array(id).min(2),
    kind,
    weight,
    ...patch,
    summary,
    children: z.never().optional(),
    budget: z.never().optional(),
  }),
  withdraw: z.strictObject({op: z.literal('withdraw'), id, reason: z.string().max(4000).nullable().optional()}),
} as const

/** Why a field's value is refused, in the terms the contract uses. */
const FIELD_RULES: Record<string, string> = {
  id: 'must be an id: letters, digits, ".", "_" or "-", starting with a letter or digit, at most 100 characters',
  parent: 'must be the id of the parent item, or null for the root layer',
  kind: 'must be a lowercase word such as request, result, progress or finding',
  weight: 'must be an integer from 1 to 5',
  summary: 'must be non-empty text of at most 4000 characters',
  share: 'must be a positive number, or null to go back to the share derived from the weight',
  reason: 'must be text of at most 4000 characters, or null',
  due_at: 'must be an RFC 3339 timestamp such as 2026-10-12T00:00:00Z, or null',
  stale_at: 'must be an RFC 3339 timestamp such as 2026-10-12T00:00:00Z, or null',
  sources: 'must be a list of non-empty strings; give [] to clear it',
  budget: "must be a positive number (the budget of this item's child layer), or null for the default",
  children: 'must be the list of direct child ids (the target set); give [] to empty the child layer',
  from: 'must list at least two ids of same-layer active leaves to merge',
}

const REQUIRED: Record<string, string> = {
  weight: '"weight" is required: every declaration except withdraw gives weight and kind',
  kind: '"kind" is required: every declaration except withdraw gives weight and kind',
  summary: '"summary" is required for a new or merged item',
  id: '"id" is required',
  from: '"from" is required: the ids to merge',
  children: '"children" is required: the target set of direct children',
}

export type Parsed = {ok: true; request: CommitRequest} | {ok: false; batch_id: string | null; errors: BoardError[]}

/**
 * The most declarations one batch may hold: far more than an agent's batch (tens), room for a
 * board of 2,000 items declared at once, and a bound on what one record asks of every replay.
 */
export const MAX_DECLARATIONS = 2000

/**
 * Validates a batch `{batch_id, declarations, acknowledges}`; every error names its JSON path.
 * A committed record is read without the cap (`max: Infinity`): it may be older than the cap.
 */
export function parseCommitRequest(data: unknown, actor: string, limits = {max: MAX_DECLARATIONS}): Parsed {
  const errors: BoardError[] = []
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return {
      ok: false,
      batch_id: null,
      errors: [boardError('(root)', 'invalid_type', 'a batch is a JSON object {batch_id, declarations, acknowledges}')],
    }
  }
  const raw = data as Record<string, unknown>
  for (const key of Object.keys(raw)) {
    if (!['batch_id', 'declarations', 'acknowledges'].includes(key))
      errors.push(
        boardError(key, 'unknown_field', `unknown field "${key}"; a batch has batch_id, declarations and acknowledges`),
      )
  }
  const batchId = typeof raw.batch_id === 'string' && BATCH_ID.test(raw.batch_id) ? raw.batch_id : null
  if (raw.batch_id === undefined)
    errors.push(
      boardError(
        'batch_id',
        'required',
        '"batch_id" is required: choose it before filling the batch, and keep it when retrying',
      ),
    )
  else if (!batchId)
    errors.push(
      boardError(
        'batch_id',
        'invalid_value',
        'batch_id must be letters, digits, ".", "_" or "-", starting with a letter or digit, at most 128 characters',
      ),
    )
  const declarations = parseDeclarations(raw.declarations, limits.max, errors)
  const acknowledges = parseAcknowledges(raw.acknowledges, errors)
  if (errors.length) return {ok: false, batch_id: batchId, errors}
  return {ok: true, request: {kind: 'commit', batch_id: batchId!, actor, declarations, acknowledges}}
}

/** The batch's declarations, each parsed; their errors (or the list's) go to `errors`, in order. */
function parseDeclarations(list: unknown, max: number, errors: BoardError[]): Declaration[] {
  const declarations: Declaration[] = []
  if (!Array.isArray(list)) {
    errors.push(
      boardError(
        'declarations',
        list === undefined ? 'required' : 'invalid_type',
        '"declarations" must be a list (empty when nothing changed)',
      ),
    )
  } else if (list.length > max) {
    // Refused before any declaration is looked at, so an oversized batch costs its reading only.
    const count = list.length
    const fix =
      `split it into batches of at most ${max} declarations, each with its own batch_id ` +
      "(an item's parent in the same batch or an earlier one)"
    errors.push(
      boardError(
        'declarations',
        'too_many_declarations',
        `the batch has ${count} declarations; a batch holds at most ${max}. Fix: ${fix}`,
        {count, max},
      ),
    )
  } else {
    list.forEach((d, i) => {
      const r = parseDeclaration(d, `declarations[${i}]`)
      if ('errors' in r) errors.push(...r.errors)
      else declarations.push(r.declaration)
    })
  }
  return declarations
}

/** The annotation ids the batch acknowledges; the invalid ones go to `errors`, in order. */
function parseAcknowledges(list: unknown, errors: BoardError[]): string[] {
  const acknowledges: string[] = []
  if (list !== undefined) {
    if (!Array.isArray(list))
      errors.push(boardError('acknowledges', 'invalid_type', '"acknowledges" must be a list of annotation ids'))
    else
      list.forEach((a, i) => {
        if (typeof a === 'string' && ANNOTATION_ID.test(a)) acknowledges.push(a)
        else
          errors.push(
            boardError(
              `acknowledges[${i}]`,
              'invalid_value',
              'must be an annotation id such as "a-5f3c9e21", as "cairn board state" lists them',
            ),
          )
      })
  }
  return acknowledges
}

function parseDeclaration(d: unknown, at: string): {declaration: Declaration} | {errors: BoardError[]} {
  if (!d || typeof d !== 'object' || Array.isArray(d))
    return {errors: [boardError(at, 'invalid_type', 'a declaration is an object with an "op"')]}
  const op = (d as {op?: unknown}).op
  const schema = typeof op === 'string' ? OPS[op as keyof typeof OPS] : undefined
  if (!schema || !Object.hasOwn(OPS, op as string)) {
    const message = op === undefined ? '"op" is required' : `unknown op ${JSON.stringify(op)}`
    return {
      errors: [
        boardError(
          `${at}.op`,
          op === undefined ? 'required' : 'unknown_op',
          `${message}; use one of ${Object.keys(OPS).join(', ')}`,
        ),
      ],
    }
  }
  const result = schema.safeParse(d)
  if (result.success) return {declaration: stripUndefined(result.data) as Declaration}
  return {errors: result.error.issues.flatMap(issue => issueErrors(issue, d as Record<string, unknown>, at))}
}

function issueErrors(issue: z.core.$ZodIssue, d: Record<string, unknown>, at: string): BoardError[] {
  const path = issue.path
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map(k => boardError(`${at}.${k}`, 'unknown_field', `unknown field "${k}" for op ${String(d.op)}`))
  }
  const field = String(path[0] ?? '')
  const where = `${at}${path.length ? `.${jsonPath(path)}`.replace('.[', '[') : ''}`
  const value = path.length === 1 ? d[field] : undefined
  if (path.length === 1 && value === undefined && !(field in d)) {
    return [boardError(where, 'required', REQUIRED[field] ?? `"${field}" is required`)]
  }
  if (path.length === 1 && value !== undefined && issue.code === 'invalid_type' && issue.expected === 'never') {
    return [boardError(where, 'not_allowed', `"${field}" is not allowed for op ${String(d.op)}`)]
  }
  if (value === null)
    return [
      boardError(
        where,
        'null_not_allowed',
        `${field} cannot be null; ${FIELD_RULES[field] ?? 'omit it to keep the current value'}`,
      ),
    ]
  const detail = issue.code === 'custom' && issue.params?.detail ? `; ${issue.message}` : ''
  return [boardError(where, 'invalid_value', `${field} ${FIELD_RULES[field] ?? issue.message}${detail}`)]
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
}
