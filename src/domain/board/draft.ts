import {boardError} from './errors.js'
import type {BoardError, BoardState, Item} from './types.js'

/**
 * The working copy a batch is applied to. Items are replaced, never mutated, so the state
 * the batch started from stays intact for the before/after comparison and for rejection.
 */
export class Draft {
  readonly items: Map<string, Item>
  /** Children of every status, by parent id (null: root layer). */
  private readonly kids = new Map<string | null, Set<string>>()
  readonly touched = new Set<string>()
  readonly errors: BoardError[] = []
  /** Ids withdrawn by an explicit declaration in this batch. */
  readonly withdrawn = new Set<string>()
  /** Where each explicitly set parent came from, to locate a cycle or an inactive parent. */
  readonly parentSetAt = new Map<string, string>()
  readonly restoredAt = new Map<string, string>()
  readonly childrenDecls: {path: string; parent: string; removed: string[]; targets: {id: string; path: string}[]}[] = []
  /** The first declaration that touched each layer: where an over-budget error points. */
  readonly layerFirstTouch = new Map<string | null, string>()

  constructor(readonly base: BoardState) {
    this.items = new Map(base.items)
    for (const item of base.items.values()) this.kidsOf(item.parent).add(item.id)
  }

  private kidsOf(parent: string | null): Set<string> {
    let set = this.kids.get(parent)
    if (!set) this.kids.set(parent, (set = new Set()))
    return set
  }

  get(id: string): Item | undefined {
    return this.items.get(id)
  }

  put(item: Item, path: string): void {
    const old = this.items.get(item.id)
    if (old && old.parent !== item.parent) this.kidsOf(old.parent).delete(item.id)
    this.kidsOf(item.parent).add(item.id)
    this.items.set(item.id, item)
    this.touched.add(item.id)
    for (const layer of [old?.parent, item.parent]) {
      if (layer !== undefined && !this.layerFirstTouch.has(layer)) this.layerFirstTouch.set(layer, path)
    }
  }

  /** Children of any status: a merge source must not have even a withdrawn subtree. */
  children(id: string | null): Item[] {
    return [...(this.kids.get(id) ?? [])].map(k => this.items.get(k)!)
  }

  activeChildren(id: string | null): Item[] {
    return this.children(id).filter(c => c.status === 'active')
  }

  /** The item and its active descendants, parents first. */
  activeSubtree(id: string): Item[] {
    const out: Item[] = []
    const stack = [this.items.get(id)!]
    while (stack.length) {
      const item = stack.pop()!
      out.push(item)
      stack.push(...this.activeChildren(item.id).reverse())
    }
    return out
  }

  fail(path: string, code: string, message: string, data: Record<string, unknown> | null = null): void {
    this.errors.push(boardError(path, code, message, data))
  }
}
