import {checkChildrenSets, checkCycles, checkParentsActive} from './checks.js'
import {type ChildrenDecl, Draft, type Trial} from './draft.js'
import {applyDeclaration} from './ops.js'
import type {BoardError, BoardState, CommitRequest, Declaration} from './types.js'

/**
 * What still applies of a batch that no longer applies whole (a branch's record replayed after
 * changes it never saw): its declarations in order, each kept when the ones kept so far plus it
 * would apply as one batch, else refused with the error that batch would give.
 *
 * Applying that growing batch afresh for every declaration costs the batch's size squared (a
 * 4,000-declaration record took 13 s). Here each declaration is tried once on one draft and
 * taken back when refused, and the whole-batch rules are checked only where it changed
 * something, since the batch before it passed them all; what is kept and what each refusal says
 * are the same (test/board/salvage.test.ts compares the two on random records).
 */
export function salvage(
  state: BoardState,
  request: CommitRequest,
  now: string,
  refused: (index: number, error: BoardError) => void,
): Declaration[] {
  const draft = new Draft(state)
  const named = new NamedBy()
  const kept: Declaration[] = []
  const attempt = (d: Declaration): BoardError[] => {
    const trial = draft.begin()
    applyDeclaration(draft, d, `declarations[${kept.length}]`, now)
    if (draft.errors.length === trial.errorsAt) checkTrial(draft, trial, named)
    const errors = draft.errors.slice(trial.errorsAt)
    if (errors.length) {
      draft.rollback()
      return errors
    }
    named.add(draft.childrenDecls, trial.declsAt)
    draft.commit()
    kept.push(d)
    return []
  }
  request.declarations.forEach((d, i) => {
    const errors = attempt(d)
    if (!errors.length) return
    // Both branches declared the same new id: the later one becomes a version of the same item.
    if (d.op === 'new' && state.items.has(d.id) && !attempt({...d, op: 'supersedes'}).length) return
    const at = `declarations[${kept.length}]`
    refused(i, errors.find(e => e.path.startsWith(at)) ?? errors[0])
  })
  return kept
}

/**
 * checkBatch (budgets off) on the draft with one more declaration, given that it passed without
 * it: a new cycle runs through an item the declaration moved, an item can only lose its active
 * parent by being put, and a children set can only break through the items put or withdrawn.
 */
function checkTrial(draft: Draft, trial: Trial, named: NamedBy): void {
  // Which cycle is reported, and from where, depends on the whole batch: the full check says it.
  if ([...trial.moved].some(id => onCycle(draft, id))) checkCycles(draft)
  if (draft.errors.length > trial.errorsAt) return
  checkParentsActive(draft, draft.inTouchedOrder(trial.put))
  const before = named.naming(draft.childrenDecls, [...trial.put, ...trial.withdrawn])
  checkChildrenSets(draft, [...before, ...draft.childrenDecls.slice(trial.declsAt)])
}

/**
 * Whether walking up from id meets an item twice. An item without children is on no cycle, and a
 * new cycle has a moved item on it that does have children.
 */
function onCycle(draft: Draft, id: string): boolean {
  if (!draft.hasChildren(id)) return false
  const seen = new Set([id])
  for (let at = draft.get(id)?.parent ?? null; at !== null; at = draft.get(at)?.parent ?? null) {
    if (seen.has(at)) return true
    seen.add(at)
  }
  return false
}

/** The kept children declarations by the ids they name, as a target or as a removed child. */
class NamedBy {
  private readonly by = new Map<string, number[]>()

  add(decls: readonly ChildrenDecl[], from: number): void {
    for (let i = from; i < decls.length; i++) {
      for (const id of [...decls[i].targets.map(t => t.id), ...decls[i].removed]) {
        const list = this.by.get(id)
        if (!list) this.by.set(id, [i])
        else if (list.at(-1) !== i) list.push(i)
      }
    }
  }

  /** The declarations naming any of ids, in batch order. */
  naming(decls: readonly ChildrenDecl[], ids: readonly string[]): ChildrenDecl[] {
    const at = new Set<number>()
    for (const id of ids) for (const i of this.by.get(id) ?? []) at.add(i)
    return [...at].sort((a, b) => a - b).map(i => decls[i])
  }
}
