import {type Issue, validationError} from '../../errors.js'
import type {BoardDiff} from '../diff.js'
import {effectiveShare, roundShare, type BoardSettings} from '../scale.js'
import type {BoardState, Item} from '../types.js'
import {activeChildrenIndex} from '../view.js'
import type {Omission} from './model.js'
import {OVERVIEW_FIELDS, type OverviewView} from './view.js'

export interface Scope {
  /** Layers drawn, parents before children (null: the root layer). */
  layers: (string | null)[]
  shown: Set<string>
  omissions: Omission[]
}

/** Which layers and items the view selects, and everything it leaves out, so omissions are never silent. */
export function selectScope(
  state: BoardState,
  settings: BoardSettings,
  view: OverviewView,
  diff: BoardDiff | null,
  label: string,
): Scope {
  const index = activeChildrenIndex(state, settings)
  checkView(state, view, diff, label)

  const base = view.items ?? (index.get(null) ?? []).map(i => i.id)
  const shown = new Set(base)
  const layers = new Set<string | null>(view.items ? base.map(id => state.items.get(id)!.parent) : [null])
  let frontier = base
  for (let d = 0; d < (view.depth ?? Infinity) && frontier.length; d++) {
    const next: string[] = []
    for (const id of frontier) {
      const kids = index.get(id) ?? []
      if (kids.length) layers.add(id)
      for (const k of kids) (shown.add(k.id), next.push(k.id))
    }
    frontier = next
  }
  const omissions: Omission[] = []
  if (view.changes_only && diff) {
    const changed = new Set([...diff.added, ...diff.changed.map(c => c.id), ...diff.moved.map(m => m.id)])
    for (const id of [...shown]) if (!changed.has(id)) shown.delete(id)
  }
  const ordered = parentsFirst(index, layers)
  for (const layer of ordered) {
    const hidden = (index.get(layer) ?? []).filter(i => !shown.has(i.id))
    if (hidden.length)
      omissions.push({
        reason: view.changes_only ? 'unchanged' : 'filtered',
        layer,
        items: hidden.map(i => i.id),
        share: shareOf(hidden, settings),
      })
  }
  const unexpanded = [...shown].filter(id => (index.get(id) ?? []).length && !layers.has(id))
  if (unexpanded.length)
    omissions.push({
      reason: 'depth',
      items: unexpanded,
      count: unexpanded.reduce((n, id) => n + index.get(id)!.length, 0),
    })
  const missingFields = OVERVIEW_FIELDS.filter(f => !view.fields.includes(f))
  if (missingFields.length) omissions.push({reason: 'fields', fields: missingFields})
  const inactive = [...state.items.values()].filter(i => i.status !== 'active').length
  if (inactive) omissions.push({reason: 'inactive', count: inactive})
  return {layers: ordered, shown, omissions}
}

/** The view names only active items, and asks for changes only with a diff to tell them. */
function checkView(state: BoardState, view: OverviewView, diff: BoardDiff | null, label: string): void {
  const issues: Issue[] = []
  view.items?.forEach((id, k) => {
    const item = state.items.get(id)
    if (!item)
      issues.push({
        file: label,
        field: `items[${k}]`,
        message: `no item "${id}"`,
        fix: 'list ids "cairn board state" shows',
      })
    else if (item.status !== 'active')
      issues.push({
        file: label,
        field: `items[${k}]`,
        message: `"${id}" is ${item.status}; the overview draws active items (with --diff-from, old ones appear beside the rectangle)`,
        fix: 'remove it from items',
      })
  })
  if (view.changes_only && !diff)
    issues.push({
      file: label,
      field: 'changes_only',
      message: 'needs --diff-from to know what changed',
      fix: 'add --diff-from SEQ, or set changes_only to false',
    })
  if (issues.length) throw validationError(issues, `Invalid overview view in ${label}`)
}

/** The layers selected, parents before children, depth first, with a stack of its own: a board can be thousands deep. */
function parentsFirst(index: ReturnType<typeof activeChildrenIndex>, layers: Set<string | null>): (string | null)[] {
  const ordered: (string | null)[] = []
  const stack: (string | null)[] = [null]
  while (stack.length) {
    const layer = stack.pop()!
    if (layers.has(layer)) ordered.push(layer)
    const kids = index.get(layer) ?? []
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k].id)
  }
  return ordered
}

const shareOf = (items: Item[], settings: BoardSettings): number =>
  roundShare(items.reduce((n, i) => n + effectiveShare(settings, i), 0))
