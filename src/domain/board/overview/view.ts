import {type Issue, validationError} from '../../errors.js'

/** What the overview shows. The renderer lays out; the view only chooses scope and fields. */
export interface OverviewView {
  /** Items to show (with `depth` levels of their child layers); null: the root layer. */
  items: string[] | null
  /** Child levels to expand; null: all of them. */
  depth: number | null
  fields: OverviewField[]
  /** Show only what changed since --diff-from; the rest stays a neutral "not shown" area. */
  changes_only: boolean
}

export const OVERVIEW_FIELDS = [
  'id',
  'kind',
  'weight',
  'share',
  'summary',
  'due_at',
  'stale_at',
  'updated_at',
  'reason',
  'sources',
] as const
export type OverviewField = (typeof OVERVIEW_FIELDS)[number]

export const DEFAULT_VIEW: OverviewView = {
  items: null,
  depth: null,
  fields: ['id', 'kind', 'weight', 'share', 'summary', 'due_at'],
  changes_only: false,
}

/** Validates a view file's content; problems name the field, like any other input. */
export function parseView(data: unknown, label: string): OverviewView {
  const issues: Issue[] = []
  const bad = (field: string, message: string, fix: string) => issues.push({file: label, field, message, fix})
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw validationError([
      {
        file: label,
        field: '(root)',
        message: 'a view is a JSON object',
        fix: 'give {"items": [...], "depth": 1, "fields": [...], "changes_only": false}',
      },
    ])
  }
  const raw = data as Record<string, unknown>
  for (const k of Object.keys(raw))
    if (!['items', 'depth', 'fields', 'changes_only'].includes(k))
      bad(k, 'unknown field', `remove "${k}"; a view has items, depth, fields and changes_only`)
  const view: OverviewView = {...DEFAULT_VIEW, fields: [...DEFAULT_VIEW.fields]}
  if (raw.items !== undefined && raw.items !== null) {
    if (!Array.isArray(raw.items) || raw.items.some(i => typeof i !== 'string'))
      bad('items', 'must be a list of item ids', 'list the ids to show')
    else view.items = [...new Set(raw.items as string[])]
  }
  if (raw.depth !== undefined && raw.depth !== null) {
    if (!Number.isInteger(raw.depth) || (raw.depth as number) < 0 || (raw.depth as number) > 10)
      bad('depth', 'must be an integer from 0 to 10', 'give how many child levels to expand, or null for all')
    else view.depth = raw.depth as number
  }
  if (raw.fields !== undefined) {
    const fields = raw.fields
    if (!Array.isArray(fields) || fields.some(f => !OVERVIEW_FIELDS.includes(f)))
      bad('fields', `must be a list of ${OVERVIEW_FIELDS.join(', ')}`, 'pick fields from that list')
    else view.fields = [...new Set(['id', ...fields])] as OverviewField[]
  }
  if (raw.changes_only !== undefined) {
    if (typeof raw.changes_only !== 'boolean') bad('changes_only', 'must be true or false', 'give a boolean')
    else view.changes_only = raw.changes_only
  }
  if (issues.length) throw validationError(issues, `Invalid overview view in ${label}`)
  return view
}
