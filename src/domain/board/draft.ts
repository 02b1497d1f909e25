import {boardError} from './errors.js'
import type {BoardError, BoardState, Item} from './types.js'

/** Items by id: the state's map, or a draft's view over it. */
export interface ItemLookup {
  get(id: string): Item | undefined
}

const NONE: ReadonlySet<string> = new Set()

/**
 * The working copy a batch is applied to: an overlay over the state, so applying a batch costs
 * what it touches, not the size of the board. Items are replaced, never mutated, and the state
 * underneath is never written, so it stays intact for the before/after comparison and for rejection.
 */
export class Draft implements ItemLookup {
  private readonly changed = new Map<string, Item>()
  /** Children sets this batch changed, copied from the state's on first change. */
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

  constructor(readonly base: BoardState) {}

  get(id: string): Item | undefined {
    return this.changed.get(id) ?? this.base.items.get(id)
  }

  private kidsIds(parent: string | null): ReadonlySet<string> {
    return this.kids.get(parent) ?? this.base.kids.get(parent) ?? NONE
  }

  private ownKids(parent: string | null): Set<string> {
    let set = this.kids.get(parent)
    if (!set) this.kids.set(parent, (set = new Set(this.base.kids.get(parent) ?? NONE)))
    return set
  }

  put(item: Item, path: string): void {
    const old = this.get(item.id)
    if (!old || old.parent !== item.parent) {
      if (old) this.ownKids(old.parent).delete(item.id)
      this.ownKids(item.parent).add(item.id)
    }
    this.changed.set(item.id, item)
    this.touched.add(item.id)
    for (const layer of [old?.parent, item.parent]) {
      if (layer !== undefined && !this.layerFirstTouch.has(layer)) this.layerFirstTouch.set(layer, path)
    }
  }

  /** Children of any status: a merge source must not have even a withdrawn subtree. */
  children(id: string | null): Item[] {
    return [...this.kidsIds(id)].map(k => this.get(k)!)
  }

  activeChildren(id: string | null): Item[] {
    return this.children(id).filter(c => c.status === 'active')
  }

  /** The item and its active descendants, parents first. */
  activeSubtree(id: string): Item[] {
    const out: Item[] = []
    const stack = [this.get(id)!]
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
