import {describe, expect, it} from 'vitest'
import {applyBatch} from '../../src/domain/board/apply.js'
import {parseCommitRequest} from '../../src/domain/board/request.js'
import {salvage} from '../../src/domain/board/salvage.js'
import {DEFAULT_BOARD_SETTINGS} from '../../src/domain/board/scale.js'
import {applyEffects} from '../../src/domain/board/state.js'
import {
  type BoardError,
  type BoardState,
  type CommitRequest,
  type Declaration,
  emptyState,
} from '../../src/domain/board/types.js'
import {prng} from '../helpers.js'

/**
 * salvage keeps what still applies of a record, declaration by declaration, on one draft. The
 * definition it must match is the loop replay ran before: apply the declarations kept so far
 * plus the next one afresh, as one batch, and keep it when that applies.
 */
const NOW = '2026-10-09T12:00:00Z'
const settings = DEFAULT_BOARD_SETTINGS

type Refusal = [index: number, error: BoardError]

function byDefinition(state: BoardState, request: CommitRequest): {kept: Declaration[]; refused: Refusal[]} {
  const kept: Declaration[] = []
  const refused: Refusal[] = []
  const attempt = (ds: Declaration[]) =>
    applyBatch(state, {...request, declarations: ds, acknowledges: []}, NOW, settings, {budgets: false})
  request.declarations.forEach((d, i) => {
    const tried = attempt([...kept, d])
    if (!tried.ok && d.op === 'new' && state.items.has(d.id)) {
      const asPatch: Declaration = {...d, op: 'supersedes'}
      if (attempt([...kept, asPatch]).ok) return void kept.push(asPatch)
    }
    if (tried.ok) return void kept.push(d)
    refused.push([i, tried.errors.find(e => e.path.startsWith(`declarations[${kept.length}]`)) ?? tried.errors[0]])
  })
  return {kept, refused}
}

function bySalvage(state: BoardState, request: CommitRequest) {
  const refused: Refusal[] = []
  const kept = salvage(state, request, NOW, (i, e) => refused.push([i, e]))
  return {kept, refused}
}

function request(declarations: unknown[], batch_id = 'b'): CommitRequest {
  const r = parseCommitRequest({batch_id, declarations}, 'agent')
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.request
}

function applied(state: BoardState, declarations: unknown[]): BoardState {
  const r = applyBatch(state, request(declarations), NOW, settings, {budgets: false})
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return applyEffects(state, r.effects)
}

/** Three layers under two topics, then what another branch did: a withdrawal, a merge, a move. */
function startState(): BoardState {
  const item = (id: string, parent: string | null) => ({
    op: 'new',
    id,
    parent,
    kind: 'progress',
    weight: 1,
    summary: id,
  })
  let state = applied(emptyState(), [
    item('t1', null),
    item('t2', null),
    item('a', 't1'),
    item('b', 't1'),
    item('c', 't1'),
    item('d', 't2'),
    item('e', 't2'),
    item('f', 'd'),
    item('g', 'd'),
    item('h', null),
    item('i', null),
  ])
  state = applied(state, [
    {op: 'withdraw', id: 'e'},
    {op: 'merges', from: ['h', 'i'], id: 'hi', kind: 'result', weight: 2, summary: 'h and i'},
    {op: 'supersedes', id: 'g', parent: 't1', kind: 'progress', weight: 1},
  ])
  return state
}

const IDS = ['t1', 't2', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'hi', 'n1', 'n2', 'n3', 'zz']

/** A random declaration over a small pool of ids, so declarations meet each other: cycles, moves, removals, merges. */
function randomDeclaration(rand: () => number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]
  const id = pick(IDS)
  const parent = rand() < 0.3 ? null : pick(IDS)
  const some = () => IDS.filter(() => rand() < 0.2)
  const extra = {
    ...(rand() < 0.4 ? {parent} : {}),
    ...(rand() < 0.15 ? {children: some()} : {}),
    ...(rand() < 0.1 ? {share: 5, ...(rand() < 0.5 ? {reason: 'why'} : {})} : {}),
  }
  switch (pick(['new', 'new', 'supersedes', 'supersedes', 'children', 'merges', 'withdraw'] as const)) {
    case 'new':
      return {op: 'new', id, kind: 'finding', weight: 2, summary: `new ${id}`, ...extra}
    case 'supersedes':
      return {op: 'supersedes', id, kind: 'result', weight: 3, ...extra}
    case 'children':
      return {op: 'children', id, kind: 'topic', weight: 2, children: some()}
    case 'merges': {
      const from = [pick(IDS), pick(IDS), ...(rand() < 0.3 ? [pick(IDS)] : [])]
      return {op: 'merges', id, from, kind: 'result', weight: 2, summary: 'merged'}
    }
    case 'withdraw':
      return {op: 'withdraw', id, ...(rand() < 0.5 ? {reason: 'done'} : {})}
  }
}

describe('salvage', () => {
  it('keeps and refuses exactly what applying each growing batch afresh does, on 600 random records', () => {
    const rand = prng(27)
    const base = startState()
    let refusals = 0
    const codes = new Set<string>()
    for (let n = 0; n < 600; n++) {
      const declarations = Array.from({length: 2 + Math.floor(rand() * 14)}, () => randomDeclaration(rand))
      const req = request(declarations, `r-${n}`)
      const expected = byDefinition(base, req)
      expect(bySalvage(base, req), `record ${n}: ${JSON.stringify(req.declarations)}`).toEqual(expected)
      refusals += expected.refused.length
      for (const [, e] of expected.refused) codes.add(e.code)
    }
    // The records reach every kind of refusal, the whole-batch ones included.
    expect(refusals).toBeGreaterThan(1200)
    expect([...codes].sort()).toEqual(
      expect.arrayContaining([
        'cycle',
        'id_exists',
        'merged',
        'not_active',
        'not_found',
        'not_leaf',
        'not_same_layer',
        'parent_not_active',
        'reason_required',
        'removed_child_not_withdrawn',
      ]),
    )
  })

  it('a declaration taken back leaves children in their order: a later error lists them as a fresh batch would', () => {
    const base = startState()
    const req = request([
      // Moves a out of t1, then fails (its share needs a reason): a goes back to its place among t1's children.
      {op: 'supersedes', id: 'a', parent: 't2', share: 5, kind: 'progress', weight: 1},
      {op: 'merges', from: ['t1', 'd'], id: 'm', kind: 'result', weight: 2, summary: 'm'},
    ])
    const out = bySalvage(base, req)
    expect(out).toEqual(byDefinition(base, req))
    expect(out.refused.map(([i, e]) => [i, e.code, e.message])).toEqual([
      [0, 'reason_required', expect.stringContaining('needs a "reason"')],
      [1, 'not_leaf', 'only leaves merge; "t1" has a child layer (including withdrawn children: a, b, c, g)'],
    ])
  })
})
