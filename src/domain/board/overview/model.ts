import type {BoardDiff} from '../diff.js'
import {effectiveShare, layerBudget, roundShare, type BoardSettings} from '../scale.js'
import type {BoardState, Item} from '../types.js'
import {activeChildrenIndex} from '../view.js'
import {fieldLines} from './labels.js'
import {type Rect, squarify} from './treemap.js'
import type {OverviewView} from './view.js'

/** The area the larger of budget and used maps to in a current panel (a 16:9 rectangle). */
export const PANEL_WIDTH = 960
export const PANEL_HEIGHT = 540

export interface Tile extends Rect {
  kind: 'item' | 'not_shown' | 'blank'
  id: string | null
  share: number
  /** Items folded into a not-shown tile. */
  items: string[]
  marks: ('added' | 'changed' | 'moved_in')[]
  item_kind: string | null
  lines: string[]
  notes: string[]
  hidden_children: number
}

export interface OutsideTile extends Rect {
  id: string
  status: 'withdrawn' | 'merged' | 'moved' | 'missing'
  successor: string | null
  moved_to: string | null
  share: number
}

export interface Panel {
  name: string
  layer: string | null
  end: 'current' | 'from'
  event_seq: number
  budget: number
  used: number
  /** Pixels of area per unit of share: the same for both ends of a diff. */
  px_per_share: number
  width: number
  height: number
  tiles: Tile[]
  outside: OutsideTile[]
  details: {id: string; lines: string[]}[]
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

/** Panels for the chosen scope: one budget rectangle per layer; area = share / budget of that rectangle. */
export function buildPanels(ends: Ends, settings: BoardSettings, view: OverviewView, now: string, scope: {layers: (string | null)[]; shown: Set<string>}): Panel[] {
  const panels: Panel[] = []
  const index = activeChildrenIndex(ends.state, settings)
  const fromIndex = ends.from ? activeChildrenIndex(ends.from, settings) : null
  for (const layer of scope.layers) {
    const items = index.get(layer) ?? []
    const budget = layerBudget(settings, ends.state.items, layer)
    const used = roundShare(items.reduce((n, i) => n + effectiveShare(settings, i), 0))
    const pxPerShare = (PANEL_WIDTH * PANEL_HEIGHT) / Math.max(budget, used)
    const current = panel(`now-${layerName(layer)}`, layer, 'current', ends.state, items, budget, pxPerShare, id => scope.shown.has(id), ends.diff, settings, view, now, index)
    if (ends.from && fromIndex) {
      const before = fromIndex.get(layer) ?? []
      current.outside = outside(before, ends.state, layer, pxPerShare, current.width, settings)
      const shownBefore = (id: string) => scope.shown.has(id) || current.outside.some(o => o.id === id) || (!view.items && !view.changes_only)
      panels.push(current, panel(`from-${layerName(layer)}`, layer, 'from', ends.from, before, layerBudget(settings, ends.from.items, layer), pxPerShare, shownBefore, null, settings, view, now, fromIndex))
    } else panels.push(current)
  }
  return panels
}

/** File-name stem of a layer: "root", or "under-<item id>" (ids are plain tokens). */
const layerName = (layer: string | null): string => (layer === null ? 'root' : `under-${layer}`)

function panel(name: string, layer: string | null, end: Panel['end'], state: BoardState, items: Item[], budget: number, pxPerShare: number, isShown: (id: string) => boolean,
  diff: BoardDiff | null, settings: BoardSettings, view: OverviewView, now: string, index: Map<string | null, Item[]>): Panel {
  const used = roundShare(items.reduce((n, i) => n + effectiveShare(settings, i), 0))
  const total = Math.max(budget, used)
  // Same scale at both ends: a smaller budget or use gives a smaller rectangle, never a zoom.
  const width = Math.sqrt((total * pxPerShare * PANEL_WIDTH) / PANEL_HEIGHT)
  const height = (total * pxPerShare) / width
  const shown = items.filter(i => isShown(i.id))
  const hidden = items.filter(i => !isShown(i.id))
  const hiddenShare = roundShare(hidden.reduce((n, i) => n + effectiveShare(settings, i), 0))
  type Key = {kind: Tile['kind']; item?: Item}
  const entries: {key: Key; value: number}[] = [
    ...shown.map(item => ({key: {kind: 'item' as const, item}, value: effectiveShare(settings, item)})),
    {key: {kind: 'not_shown'}, value: hiddenShare},
    {key: {kind: 'blank'}, value: roundShare(Math.max(0, budget - used))},
  ]
  const notes = new Map<string, string[]>()
  for (const a of state.annotations.values()) if (a.status === 'saved') notes.set(a.item, [...(notes.get(a.item) ?? []), a.id])
  const tiles: Tile[] = squarify(entries, {x: 0, y: 0, w: width, h: height}).map(p => {
    const base = {x: p.x, y: p.y, w: p.w, h: p.h, marks: [] as Tile['marks'], notes: [] as string[], hidden_children: 0, item_kind: null, lines: [] as string[]}
    if (p.key.kind === 'not_shown') return {...base, kind: 'not_shown', id: null, share: hiddenShare, items: hidden.map(i => i.id), lines: [`not shown: ${hidden.length} item${hidden.length === 1 ? '' : 's'}, share ${hiddenShare}`]}
    if (p.key.kind === 'blank') return {...base, kind: 'blank', id: null, share: roundShare(budget - used), items: [], lines: [`free ${roundShare(budget - used)}`]}
    const item = p.key.item!
    const marks: Tile['marks'] = []
    if (diff?.added.includes(item.id)) marks.push('added')
    if (diff?.changed.some(c => c.id === item.id)) marks.push('changed')
    if (diff?.moved.some(m => m.id === item.id && m.to_parent === layer)) marks.push('moved_in')
    return {...base, kind: 'item', id: item.id, share: effectiveShare(settings, item), items: [item.id], marks, item_kind: item.kind,
      lines: fieldLines(item, view.fields, settings, now), notes: notes.get(item.id) ?? [], hidden_children: (index.get(item.id) ?? []).length}
  })
  const details = shown.map(item => ({id: item.id, lines: fieldLines(item, ['id', 'kind', 'weight', 'share', 'summary', 'due_at', 'stale_at', 'updated_at', 'reason', 'sources'], settings, now)}))
  return {name, layer, end, event_seq: state.event_seq, budget, used, px_per_share: pxPerShare, width, height, tiles, outside: [], details}
}

/** Items that were in this layer at the start and are not now: drawn beside the rectangle, at the same scale. */
function outside(before: Item[], now: BoardState, layer: string | null, pxPerShare: number, panelWidth: number, settings: BoardSettings): OutsideTile[] {
  const out: OutsideTile[] = []
  let y = 0
  for (const old of before) {
    const current = now.items.get(old.id)
    if (current?.status === 'active' && current.parent === layer) continue
    const share = effectiveShare(settings, old)
    const side = Math.sqrt(share * pxPerShare)
    const status = !current ? 'missing' : current.status === 'active' ? 'moved' : current.status
    out.push({id: old.id, status, successor: current?.merged_into ?? null, moved_to: status === 'moved' ? current!.parent : null, share, x: panelWidth + 32, y, w: side, h: side})
    y += side + 12
  }
  return out
}
