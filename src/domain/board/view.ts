import {derivedShare, effectiveShare, layerBudget, roundShare, type BoardSettings} from './scale.js'
import {secondsBetween} from './time.js'
import type {Annotation, BoardState, Conflict, Item, ReplayProblem, Weight} from './types.js'

/** Durations in seconds, all from the same `now`; negative until_due means overdue. */
export interface Projections {
  age: number
  since_update: number
  until_due: number | null
  until_stale: number | null
}

export interface ItemView extends Omit<Item, 'share' | 'merged_into'> {
  /** The final share: the override when there is one, else derived from the weight. */
  share: number
  derived_share: number
  share_override: number | null
  rank: number
  depth: number
  projections: Projections
  /** Two branches changed this item: `conflicts` holds both versions until a batch resolves it. */
  conflict: boolean
}

export interface LayerView {
  parent: string | null
  budget: number
  used: number
  free: number
  /** After a merge, batches that each fitted may together exceed the budget: flagged until a batch brings it back. */
  over_budget: boolean
  items: string[]
}

export interface AnnotationView extends Annotation {
  item_status: Item['status'] | 'missing'
  /** For an annotation on a merged item: the item that now carries it forward. */
  successor: string | null
}

export interface StateView {
  now: string
  event_seq: number
  revision: number
  last_checked_at: string | null
  /** Reading is not tracked: always null, never inferred from state calls or annotations. */
  last_seen_at: null
  since_seen: null
  scale: {budget: number; weight_shares: Record<Weight, number>}
  layers: LayerView[]
  items: ItemView[]
  inactive: {
    id: string
    status: Item['status']
    parent: string | null
    kind: string
    weight: Weight
    summary: string
    merged_into: string | null
    updated_at: string
  }[]
  annotations: AnnotationView[]
  /** Items two branches changed, with every version, oldest first. */
  conflicts: Conflict[]
  /** What replay could not apply as committed (batch_id_conflict, not_applied). */
  problems: ReplayProblem[]
}

/** Rank within a layer: share, then weight, then the most recent update, then id. */
export function byRank(settings: BoardSettings): (a: Item, b: Item) => number {
  return (a, b) =>
    effectiveShare(settings, b) - effectiveShare(settings, a) ||
    b.weight - a.weight ||
    cmp(b.updated_at, a.updated_at) ||
    cmp(a.id, b.id)
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

export function activeChildrenIndex(state: BoardState, settings: BoardSettings): Map<string | null, Item[]> {
  const index = new Map<string | null, Item[]>()
  for (const item of state.items.values()) {
    if (item.status !== 'active') continue
    const list = index.get(item.parent) ?? []
    list.push(item)
    index.set(item.parent, list)
  }
  const rank = byRank(settings)
  for (const list of index.values()) list.sort(rank)
  return index
}

export function projections(
  item: Pick<Item, 'created_at' | 'updated_at' | 'due_at' | 'stale_at'>,
  now: string,
): Projections {
  return {
    age: secondsBetween(item.created_at, now),
    since_update: secondsBetween(item.updated_at, now),
    until_due: item.due_at ? secondsBetween(now, item.due_at) : null,
    until_stale: item.stale_at ? secondsBetween(now, item.stale_at) : null,
  }
}

/** What `board state` shows: active layers by rank (parents before their child layers), then the rest. */
export function viewState(state: BoardState, settings: BoardSettings, now: string): StateView {
  const index = activeChildrenIndex(state, settings)
  const layers: LayerView[] = []
  const items: ItemView[] = []
  // Parents before their child layers, each item followed by its own layer, with a stack of its own:
  // a board a chain of batches made thousands deep would overflow the call stack.
  const enter = (parent: string | null, depth: number) => {
    const children = index.get(parent) ?? []
    const used = roundShare(children.reduce((n, c) => n + effectiveShare(settings, c), 0))
    const budget = layerBudget(settings, state.items, parent)
    layers.push({
      parent,
      budget,
      used,
      free: roundShare(budget - used),
      over_budget: used > budget,
      items: children.map(c => c.id),
    })
    return {children, depth, next: 0}
  }
  const stack = [enter(null, 0)]
  while (stack.length) {
    const layer = stack.at(-1)!
    const c = layer.children[layer.next++]
    if (!c) {
      stack.pop()
      continue
    }
    const {share, merged_into: _merged, ...rest} = c
    items.push({
      ...rest,
      share: effectiveShare(settings, c),
      derived_share: derivedShare(settings, c.weight),
      share_override: share,
      rank: layer.next,
      depth: layer.depth,
      projections: projections(c, now),
      conflict: state.conflicts.has(c.id),
    })
    if (index.has(c.id)) stack.push(enter(c.id, layer.depth + 1))
  }
  const inactive = [...state.items.values()]
    .filter(i => i.status !== 'active')
    .sort((a, b) => cmp(a.id, b.id))
    .map(i => ({
      id: i.id,
      status: i.status,
      parent: i.parent,
      kind: i.kind,
      weight: i.weight,
      summary: i.summary,
      merged_into: i.merged_into,
      updated_at: i.updated_at,
    }))
  return {
    now,
    event_seq: state.event_seq,
    revision: state.revision,
    last_checked_at: state.last_checked_at,
    last_seen_at: null,
    since_seen: null,
    scale: {budget: settings.budget, weight_shares: settings.weight_shares},
    layers,
    items,
    inactive,
    annotations: savedAnnotations(state),
    conflicts: [...state.conflicts.values()].sort((a, b) => cmp(a.item, b.item)),
    problems: state.problems,
  }
}

/** Saved annotations stay retrievable whatever happened to their item (withdrawn, merged). */
export function savedAnnotations(state: BoardState): AnnotationView[] {
  return [...state.annotations.values()]
    .filter(a => a.status === 'saved')
    .sort((a, b) => a.event_seq - b.event_seq || cmp(a.id, b.id))
    .map(a => ({
      ...a,
      item_status: state.items.get(a.item)?.status ?? 'missing',
      successor: successorOf(state, a.item),
    }))
}

function successorOf(state: BoardState, id: string): string | null {
  let item = state.items.get(id)
  const seen = new Set<string>()
  while (item?.merged_into && !seen.has(item.id)) {
    seen.add(item.id)
    const next = state.items.get(item.merged_into)
    if (!next) return item.merged_into
    item = next
  }
  return item && item.id !== id ? item.id : null
}
