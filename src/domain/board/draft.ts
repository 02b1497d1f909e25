import {boardError} from './errors.js'
import {IdList} from './id-list.js'
import type {BoardError, BoardState, Item} from './types.js'

/** Items by id: the state's map, or a draft's view over it. */
export interface ItemLookup {
  get(id: string): Item | undefined
}

export interface ChildrenDecl {
  path: string
  parent: string
  removed: string[]
  targets: {id: string; path: string}[]
}

/** What one tried declaration changed (Draft.begin to commit or rollback). */
export interface Trial {
  errorsAt: number
  declsAt: number
  /** Items it put, in order. */
  put: Set<string>
  /** Items whose parent it set (a new item included). */
  moved: Set<string>
  /** Items it withdrew by an explicit declaration. */
  withdrawn: Set<string>
  undo: (() => void)[]
}

const NONE: ReadonlySet<string> = new Set()

/**
 * The working copy a batch is applied to: an overlay over the state, so applying a batch costs
 * what it touches, not the size of the board. Items are replaced, never mutated, and the state
 * underneath is never written, so it stays intact for the before/after comparison and for rejection.
 * One declaration at a time can be tried (begin) and then kept (commit) or taken back exactly
 * (rollback), which is how replay keeps what still applies of a batch without applying it again
 * for every declaration.
 */
export class Draft implements ItemLookup {
  private readonly changed = new Map<string, Item>()
  /** Children lists this batch changed, copied from the state's on first change. */
  private readonly kids = new Map<string | null, IdList>()
  private readonly touchedAt = new Map<string, number>()
  private readonly setAt = new Map<string, string>()
  private readonly restored = new Map<string, string>()
  private readonly withdrawnIds = new Set<string>()
  private readonly decls: ChildrenDecl[] = []
  private readonly firstTouch = new Map<string | null, string>()
  readonly touched = new Set<string>()
  readonly errors: BoardError[] = []
  private trial: Trial | null = null

  constructor(readonly base: BoardState) {}

  /** Ids withdrawn by an explicit declaration in this batch. */
  get withdrawn(): ReadonlySet<string> {
    return this.withdrawnIds
  }

  /** Where each explicitly set parent came from, to locate a cycle or an inactive parent. */
  get parentSetAt(): ReadonlyMap<string, string> {
    return this.setAt
  }

  get restoredAt(): ReadonlyMap<string, string> {
    return this.restored
  }

  get childrenDecls(): readonly ChildrenDecl[] {
    return this.decls
  }

  /** The first declaration that touched each layer: where an over-budget error points. */
  get layerFirstTouch(): ReadonlyMap<string | null, string> {
    return this.firstTouch
  }

  get(id: string): Item | undefined {
    return this.changed.get(id) ?? this.base.items.get(id)
  }

  private kidsIds(parent: string | null): Iterable<string> & {size: number} {
    return this.kids.get(parent) ?? this.base.kids.get(parent) ?? NONE
  }

  private ownKids(parent: string | null): IdList {
    let list = this.kids.get(parent)
    if (!list) this.kids.set(parent, (list = new IdList(this.base.kids.get(parent) ?? NONE)))
    return list
  }

  put(item: Item, path: string): void {
    const old = this.get(item.id)
    if (this.trial) {
      const prior = this.changed.get(item.id)
      this.trial.put.add(item.id)
      this.log(() => (prior ? this.changed.set(item.id, prior) : this.changed.delete(item.id)))
    }
    if (!old || old.parent !== item.parent) {
      if (old) this.log(this.ownKids(old.parent).delete(item.id))
      const into = this.ownKids(item.parent)
      if (into.add(item.id)) this.log(() => into.delete(item.id))
      this.trial?.moved.add(item.id)
    }
    this.changed.set(item.id, item)
    if (!this.touched.has(item.id)) {
      this.touched.add(item.id)
      this.touchedAt.set(item.id, this.touchedAt.size)
      this.log(() => this.touched.delete(item.id) && this.touchedAt.delete(item.id))
    }
    for (const layer of [old?.parent, item.parent]) {
      if (layer !== undefined && !this.firstTouch.has(layer)) {
        this.firstTouch.set(layer, path)
        this.log(() => this.firstTouch.delete(layer))
      }
    }
  }

  setParentAt(id: string, path: string): void {
    this.keyed(this.setAt, id, path)
  }

  setRestoredAt(id: string, path: string): void {
    this.keyed(this.restored, id, path)
  }

  markWithdrawn(id: string): void {
    this.trial?.withdrawn.add(id)
    if (this.withdrawnIds.has(id)) return
    this.withdrawnIds.add(id)
    this.log(() => this.withdrawnIds.delete(id))
  }

  addChildrenDecl(decl: ChildrenDecl): void {
    this.decls.push(decl)
  }

  /** Children of any status: a merge source must not have even a withdrawn subtree. */
  children(id: string | null): Item[] {
    return [...this.kidsIds(id)].map(k => this.get(k)!)
  }

  hasChildren(id: string): boolean {
    return this.kidsIds(id).size > 0
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

  /** Ids in the order they were first touched, as a walk over `touched` meets them. */
  inTouchedOrder(ids: Iterable<string>): string[] {
    return [...ids].sort((a, b) => this.touchedAt.get(a)! - this.touchedAt.get(b)!)
  }

  fail(path: string, code: string, message: string, data: Record<string, unknown> | null = null): void {
    this.errors.push(boardError(path, code, message, data))
  }

  /** Starts trying one declaration; what it changes is logged until commit or rollback. */
  begin(): Trial {
    const at = {errorsAt: this.errors.length, declsAt: this.decls.length}
    this.trial = {...at, put: new Set(), moved: new Set(), withdrawn: new Set(), undo: []}
    return this.trial
  }

  commit(): void {
    this.trial = null
  }

  /** Takes back every change since begin, in reverse, so the draft is exactly as it was. */
  rollback(): void {
    const trial = this.trial!
    this.trial = null
    for (let i = trial.undo.length - 1; i >= 0; i--) trial.undo[i]()
    this.errors.length = trial.errorsAt
    this.decls.length = trial.declsAt
  }

  private keyed(map: Map<string, string>, id: string, value: string): void {
    const prior = map.get(id)
    this.log(() => (prior === undefined ? map.delete(id) : map.set(id, prior)))
    map.set(id, value)
  }

  private log(undo: (() => unknown) | null): void {
    if (this.trial && undo) this.trial.undo.push(undo)
  }
}
