import type {ChildrenDecl, Draft, ItemLookup} from './draft.js'
import {effectiveShare, layerBudget, roundShare, type BoardSettings} from './scale.js'
import type {Item} from './types.js'

/**
 * Whole-batch rules, checked on the final state of the draft (declaration order does not matter).
 * Budgets are checked when a batch is written, not when a merged history is replayed: two batches
 * that were each within budget on their branches stay, and the layer is flagged instead.
 */
export function checkBatch(draft: Draft, settings: BoardSettings, options: {budgets: boolean}): void {
  checkCycles(draft)
  if (draft.errors.length) return
  checkParentsActive(draft)
  checkChildrenSets(draft)
  if (draft.errors.length || !options.budgets) return
  checkBudgets(draft, settings)
}

/**
 * A cycle this batch made passes through an item whose parent it set. Each walk up from one ends at
 * the root, at a cycle, or at an item an earlier walk settled, so the walks cost the items they pass
 * once. The state before the batch has no cycle: when the batch moved none of its items (it only
 * added items, or set a parent an item already had), a walk that reaches one of them reaches the
 * root, and stops there. So a batch that grows the board costs what it adds, however deep the board
 * (a chain of batches) has grown; one that moves an item walks up to the root once.
 */
export function checkCycles(draft: Draft): void {
  const rootward = new Set<string>()
  const reported = new Set<string>()
  const settled = movedNone(draft) ? (id: string) => draft.base.items.has(id) : () => false
  for (const [id, path] of draft.parentSetAt) {
    const seen = new Set<string>([id])
    let cursor = draft.get(id)?.parent ?? null
    while (cursor !== null && !seen.has(cursor) && !rootward.has(cursor) && !reported.has(cursor)) {
      if (settled(cursor)) {
        cursor = null
        break
      }
      seen.add(cursor)
      cursor = draft.get(cursor)?.parent ?? null
    }
    if (cursor === null || rootward.has(cursor)) {
      seen.forEach(c => rootward.add(c))
      continue
    }
    if (reported.has(cursor)) continue
    const cycle = [...seen]
    cycle.forEach(c => reported.add(c))
    draft.fail(path, 'cycle', `this parent would make a cycle: ${[...cycle, id].join(' → ')}`, {cycle})
  }
}

/** Whether every item the state had before this batch keeps its parent. */
function movedNone(draft: Draft): boolean {
  for (const id of draft.touched) {
    const before = draft.base.items.get(id)
    if (before && before.parent !== draft.get(id)!.parent) return false
  }
  return true
}

/** Every active item that came into (or moved within) the board this batch needs an active parent. */
export function checkParentsActive(draft: Draft, ids: Iterable<string> = draft.touched): void {
  for (const id of ids) {
    const item = draft.get(id)!
    if (item.status !== 'active' || item.parent === null) continue
    const parent = draft.get(item.parent)
    if (parent?.status === 'active') continue
    const path = draft.restoredAt.get(id) ?? draft.parentSetAt.get(id) ?? `(item ${id})`
    const restoring = draft.restoredAt.has(id)
    draft.fail(
      path,
      'parent_not_active',
      restoring
        ? `restoring "${id}" needs an active parent; "${item.parent}" is ${parent?.status ?? 'missing'}: restore it in the same batch, or move "${id}" with "parent"`
        : `parent "${item.parent}" is ${parent?.status ?? 'missing'}; an active item needs an active parent`,
      {id, parent: item.parent},
    )
  }
}

/** Removing an active child needs its explicit withdraw (or an explicit move) in the same batch. */
export function checkChildrenSets(draft: Draft, decls: Iterable<ChildrenDecl> = draft.childrenDecls): void {
  for (const decl of decls) {
    for (const t of decl.targets) {
      const child = draft.get(t.id)!
      if (child.status !== 'active')
        draft.fail(
          t.path,
          'not_active',
          `child "${t.id}" is ${child.status}; restore it with a supersedes on "${t.id}" in the same batch to list it`,
          {id: t.id},
        )
    }
    const unexplained = decl.removed.filter(
      id => !draft.withdrawn.has(id) && !(draft.parentSetAt.has(id) && draft.get(id)!.parent !== decl.parent),
    )
    if (unexplained.length) {
      draft.fail(
        decl.path,
        'removed_child_not_withdrawn',
        `removing active ${unexplained.length === 1 ? 'child' : 'children'} ${unexplained.map(c => `"${c}"`).join(', ')} of "${decl.parent}" needs an explicit withdraw of each in the same batch (the parent's reason does not replace it)`,
        {parent: decl.parent, children: unexplained},
      )
    }
  }
}

export interface LayerUse {
  layer: string | null
  used: number
  budget: number
  items: {id: string; weight: number; share: number; share_override: number | null}[]
}

export function layerUse(items: ItemLookup, children: Item[], layer: string | null, settings: BoardSettings): LayerUse {
  const active = children.filter(c => c.status === 'active')
  const list = active.map(c => ({
    id: c.id,
    weight: c.weight,
    share: effectiveShare(settings, c),
    share_override: c.share,
  }))
  list.sort((a, b) => b.share - a.share || b.weight - a.weight || (a.id < b.id ? -1 : 1))
  return {
    layer,
    used: roundShare(list.reduce((n, c) => n + c.share, 0)),
    budget: layerBudget(settings, items, layer),
    items: list,
  }
}

/** A batch that takes a layer over its budget is rejected whole; the script never picks what yields. */
function checkBudgets(draft: Draft, settings: BoardSettings): void {
  const layers = new Set<string | null>(draft.layerFirstTouch.keys())
  for (const id of draft.touched) if (draft.get(id)!.budget !== draft.base.items.get(id)?.budget) layers.add(id)
  for (const layer of layers) {
    if (layer !== null && draft.get(layer)?.status !== 'active') continue
    const after = layerUse(draft, draft.children(layer), layer, settings)
    if (after.used <= after.budget) continue
    const beforeKids = [...(draft.base.kids.get(layer) ?? [])].map(id => draft.base.items.get(id)!)
    const before = layerUse(draft.base.items, beforeKids, layer, settings)
    // A layer that was already over (budget lowered in config) may still shrink toward it.
    if (before.used > before.budget && after.used <= before.used && after.budget >= before.budget) continue
    const name = layer === null ? 'the root layer' : `the layer under "${layer}"`
    draft.fail(
      draft.layerFirstTouch.get(layer) ?? 'declarations',
      'over_budget',
      `${name} would use ${after.used} of its budget ${after.budget}: ${after.items.map(i => `${i.id} ${i.share}`).join(', ')}. Lower weights or shares, or withdraw items; the whole batch was rejected`,
      {...after},
    )
  }
}
