/**
 * Ids in insertion order, like a Set, except that taking back a removal puts the id back where it
 * was: a Set would put it last, and the order of an item's children shows in error messages, so a
 * declaration tried and taken back (salvage.ts) must leave the order as it found it.
 */
export class IdList implements Iterable<string> {
  private readonly links = new Map<string, {prev: string | null; next: string | null}>()
  private head: string | null = null
  private tail: string | null = null

  constructor(ids: Iterable<string> = []) {
    for (const id of ids) this.add(id)
  }

  get size(): number {
    return this.links.size
  }

  has(id: string): boolean {
    return this.links.has(id)
  }

  /** Appends id when absent; false when it was already there. */
  add(id: string): boolean {
    if (this.links.has(id)) return false
    this.links.set(id, {prev: this.tail, next: null})
    if (this.tail === null) this.head = id
    else this.links.get(this.tail)!.next = id
    this.tail = id
    return true
  }

  /** Removes id; the function returned puts it back in its place (take removals back in reverse order). */
  delete(id: string): (() => void) | null {
    const link = this.links.get(id)
    if (!link) return null
    this.relink(link.prev, link.next)
    this.links.delete(id)
    return () => {
      this.links.set(id, link)
      this.relink(link.prev, id)
      this.relink(id, link.next)
    }
  }

  /** Makes `next` follow `prev` (null: the list's head or tail). */
  private relink(prev: string | null, next: string | null): void {
    if (prev === null) this.head = next
    else this.links.get(prev)!.next = next
    if (next === null) this.tail = prev
    else this.links.get(next)!.prev = prev
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let id = this.head; id !== null; id = this.links.get(id)!.next) yield id
  }
}
