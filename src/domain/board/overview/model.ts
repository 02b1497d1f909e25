import type {BoardDiff} from '../diff.js'
import {effectiveShare, layerBudget, roundShare, type BoardSettings} from '../scale.js'
import type {BoardState, Item} from '../types.js'
import {activeChildrenIndex} from '../view.js'
import {type BoxLabel, boxLabel} from './labels.js'
import {type Rect, split, squarify} from './treemap.js'
import type {OverviewView} from './view.js'

/** Pixels of area the larger end of a layer maps to: a panel alone, or each half of a diff (16:10). */
export const PANEL_AREA = {single: 960 * 600, half: 720 * 450}
const ASPECT = 1.6

/** added, changed, moved_in and conflict are drawn on the current end; the rest on the diff start. */
export type Mark = 'added' | 'changed' | 'moved_in' | 'moved_out' | 'withdrawn' | 'merged' | 'conflict'

export interface Box extends Rect {
  kind: 'item' | 'not_shown' | 'free'
  /** The layer the box is laid out in (null: the root layer). */
  layer: string | null
  id: string | null
  share: number
  /** Items folded into a not-shown box. */
  items: string[]
  item_kind: string | null
  marks: Mark[]
  /** Saved (unacknowledged) annotations on the item. */
  notes: string[]
  /** What the box can say, worked out only for a box large enough to say it. */
  label: (() => BoxLabel) | null
  /** The item's own child layer, drawn inside its box (one level deep). */
  inner: Frame | null
}

/** One layer laid out in a rectangle whose area is max(budget, used) × px_per_share (or the parent's box). */
export interface Frame extends Rect {
  layer: string | null
  budget: number
  used: number
  boxes: Box[]
}

export interface Half {
  end: 'now' | 'then'
  event_seq: number
  frame: Frame
}

export interface Panel {
  /** File-name stem: now-root, now-under-<id>, or diff-root, diff-under-<id>. */
  name: string
  layer: string | null
  parent: {id: string; summary: string} | null
  /** Pixels of area per unit of share in the layer's own rectangles: the same for both halves of a diff. */
  px_per_share: number
  /** [now], or [then, now] for a diff. */
  halves: Half[]
}

export interface Omission {
  reason: 'filtered' | 'unchanged' | 'depth' | 'fields' | 'inactive'
  layer?: string | null
  items?: string[]
  share?: number
  fields?: string[]
  count?: number
}

export interface Ends {
  state: BoardState
  from: BoardState | null
  diff: BoardDiff | null
}

export interface PanelScope {
  layers: (string | null)[]
  shown: Set<string>
}

/** What to draw: the view, the board's time, the layers in scope and the items in conflict (none by default). */
export interface PanelRequest {
  view: OverviewView
  now: string
  scope: PanelScope
  conflicts?: ReadonlySet<string>
}

/** What one end contributes to a layout. */
interface Side {
  end: Half['end']
  state: BoardState
  index: Map<string | null, Item[]>
  shown: (id: string) => boolean
  nests: (id: string) => boolean
  marks: (item: Item, layer: string | null) => Mark[]
  notes: Map<string, string[]>
}

/**
 * One panel per layer in scope. In a layer's rectangle a box's area is share / max(budget, used); an item whose
 * child layer is in scope holds that layer inside its box on the same rule, so free child budget shows there too.
 */
export function buildPanels(ends: Ends, settings: BoardSettings, request: PanelRequest): Panel[] {
  const {view, now, scope, conflicts = new Set()} = request
  const layers = new Set(scope.layers)
  const all = view.items === null && view.depth === null && !view.changes_only
  const diff = ends.diff
  const added = new Set(diff?.added)
  const changed = new Set(diff?.changed.map(c => c.id))
  const moved = new Map(diff?.moved.map(m => [m.id, m]))
  const removed = new Map(diff?.removed.map(r => [r.id, r]))
  const current: Side = {
    end: 'now',
    state: ends.state,
    index: activeChildrenIndex(ends.state, settings),
    shown: id => scope.shown.has(id),
    nests: id => layers.has(id),
    notes: savedNotes(ends.state),
    marks: (item, layer) => {
      const marks: Mark[] = []
      if (added.has(item.id)) marks.push('added')
      if (changed.has(item.id)) marks.push('changed')
      if (moved.get(item.id)?.to_parent === layer) marks.push('moved_in')
      if (conflicts.has(item.id)) marks.push('conflict')
      return marks
    },
  }
  const left = (id: string, layer: string | null) => removed.has(id) || moved.get(id)?.from_parent === layer
  const start: Side | null = ends.from && {
    end: 'then',
    state: ends.from,
    index: activeChildrenIndex(ends.from, settings),
    notes: savedNotes(ends.from),
    shown: id => all || scope.shown.has(id) || removed.has(id) || moved.has(id),
    nests: id => layers.has(id) || all,
    marks: (item, layer) => {
      const marks: Mark[] = []
      if (changed.has(item.id)) marks.push('changed')
      const gone = removed.get(item.id)
      if (gone) marks.push(gone.status === 'merged' ? 'merged' : 'withdrawn')
      else if (left(item.id, layer)) marks.push('moved_out')
      return marks
    },
  }
  const lay = new Layout(settings, view, now)
  return scope.layers.map(layer => {
    const sides = start ? [start, current] : [current]
    const totals = sides.map(s => lay.total(s, layer))
    const pxPerShare = (start ? PANEL_AREA.half : PANEL_AREA.single) / Math.max(...totals, 1e-9)
    const halves = sides.map((side, k) => {
      const width = Math.sqrt(totals[k] * pxPerShare * ASPECT)
      const rect = {x: 0, y: 0, w: width, h: width / ASPECT}
      return {end: side.end, event_seq: side.state.event_seq, frame: lay.frame(rect, layer, side, true)}
    })
    const parent = layer === null ? null : ends.state.items.get(layer)!
    return {
      name: `${start ? 'diff' : 'now'}-${layer === null ? 'root' : `under-${layer}`}`,
      layer,
      parent: parent && {id: parent.id, summary: parent.summary},
      px_per_share: pxPerShare,
      halves,
    }
  })
}

class Layout {
  constructor(
    private settings: BoardSettings,
    private view: OverviewView,
    private now: string,
  ) {}

  total(side: Side, layer: string | null): number {
    return Math.max(layerBudget(this.settings, side.state.items, layer), this.used(side.index.get(layer) ?? []))
  }

  used(items: Item[]): number {
    return roundShare(items.reduce((n, i) => n + effectiveShare(this.settings, i), 0))
  }

  /** Lays a layer out in `rect`: shown items by rank, then the share the view left out, then free budget. */
  frame(rect: Rect, layer: string | null, side: Side, nest: boolean): Frame {
    const items = side.index.get(layer) ?? []
    const budget = layerBudget(this.settings, side.state.items, layer)
    const used = this.used(items)
    const hidden = items.filter(i => !side.shown(i.id))
    const hiddenShare = this.used(hidden)
    const freeShare = roundShare(Math.max(0, budget - used))
    // Free budget is one region along the far side; the shares squarify in the rest, so the last row of small
    // items is not squeezed against a large free area into slivers.
    const [usedRect, freeRect] = split(rect, used / Math.max(budget, used))
    type Key = Item | 'not_shown'
    const entries: {key: Key; value: number}[] = [
      ...items
        .filter(i => side.shown(i.id))
        .map(item => ({key: item as Key, value: effectiveShare(this.settings, item)})),
      {key: 'not_shown', value: hiddenShare},
    ]
    const base = {layer, marks: [], notes: [], label: null, inner: null, item_kind: null}
    const boxes = squarify(entries, usedRect).map((p): Box => {
      const at = {x: p.x, y: p.y, w: p.w, h: p.h, ...base}
      if (p.key === 'not_shown')
        return {...at, kind: 'not_shown', id: null, share: hiddenShare, items: hidden.map(i => i.id)}
      const item = p.key
      const inner = nest && side.nests(item.id) && side.index.has(item.id) ? this.frame(p, item.id, side, false) : null
      return {
        ...at,
        kind: 'item',
        id: item.id,
        share: p.value,
        items: [item.id],
        item_kind: item.kind,
        marks: side.marks(item, layer),
        notes: side.notes.get(item.id) ?? [],
        label: () => boxLabel(item, this.view.fields, this.settings, this.now),
        inner,
      }
    })
    if (freeShare > 0) boxes.push({...freeRect, ...base, kind: 'free', id: null, share: freeShare, items: []})
    return {...rect, layer, budget, used, boxes}
  }
}

function savedNotes(state: BoardState): Map<string, string[]> {
  const notes = new Map<string, string[]>()
  for (const a of state.annotations.values())
    if (a.status === 'saved') notes.set(a.item, [...(notes.get(a.item) ?? []), a.id])
  return notes
}
