import {describe, expect, it} from 'vitest'
import {replay} from '../../src/domain/board/replay.js'
import {parseCommitRequest} from '../../src/domain/board/request.js'
import {DEFAULT_BOARD_SETTINGS} from '../../src/domain/board/scale.js'
import {RECORD_SCHEMA} from '../../src/domain/board/state.js'
import type {BatchRecord} from '../../src/domain/board/types.js'

/** Replaying records of several branches: pure, so each shape of history is one small case. */

let n = 0
function rec(batch: string, clock: number, parents: string[], declarations: unknown[], actor = 'agent'): BatchRecord {
  const parsed = parseCommitRequest({batch_id: batch, declarations}, actor)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors))
  return {
    schema: RECORD_SCHEMA,
    key: `${batch}-${(++n).toString(16).padStart(8, '0')}`,
    clock,
    parents,
    now: `2026-10-09T${String(clock).padStart(2, '0')}:00:00Z`,
    request: parsed.request,
  }
}
const patch = (id: string, weight: number, summary: string) => ({
  op: 'supersedes',
  id,
  kind: 'progress',
  weight,
  summary,
})
const base = rec(
  'setup',
  1,
  [],
  [
    {op: 'new', id: 'x', kind: 'progress', weight: 1, summary: 'x0'},
    {op: 'new', id: 'y', kind: 'progress', weight: 1, summary: 'y0'},
  ],
)
const run = (records: BatchRecord[]) => replay(records, DEFAULT_BOARD_SETTINGS)
const versions = (records: BatchRecord[], id = 'x') =>
  run(records)
    .state.conflicts.get(id)
    ?.versions.map(v => `${v.batch_id}:${v.item.summary}`)

describe('board replay across branches', () => {
  it('the order of the input never matters', () => {
    const a1 = rec('a1', 2, [base.key], [patch('x', 2, 'xa')])
    const b1 = rec('b1', 2, [base.key], [patch('x', 3, 'xb')])
    const b2 = rec('b2', 3, [b1.key], [patch('y', 2, 'yb')])
    const m = rec('m', 4, [a1.key, b2.key], [])
    const one = run([base, a1, b1, b2, m])
    const two = run([m, b2, a1, base, b1])
    expect(two).toEqual(one)
    expect(one.state.event_seq).toBe(5)
  })

  it('a linear history flags nothing', () => {
    const r1 = rec('r1', 2, [base.key], [patch('x', 2, 'x1')])
    const r2 = rec('r2', 3, [r1.key], [patch('x', 3, 'x2')])
    expect(run([base, r1, r2]).state.conflicts.size).toBe(0)
  })

  it('a version built on a flagged one replaces it; a batch that never saw it does not clear the flag', () => {
    const a = rec('a', 2, [base.key], [patch('x', 2, 'xa')])
    const b1 = rec('b1', 2, [base.key], [patch('x', 3, 'xb1')])
    const b2 = rec('b2', 3, [b1.key], [patch('x', 4, 'xb2')])
    expect(versions([base, a, b1, b2])).toEqual(['a:xa', 'b2:xb2'])
    // Saw a and b1, not b2: the flag stays, with b2 and this batch's version.
    const c = rec('c', 4, [a.key, b1.key], [patch('x', 5, 'xc')])
    expect(versions([base, a, b1, b2, c])).toEqual(['b2:xb2', 'c:xc'])
    // Saw everything: resolved.
    const d = rec('d', 5, [b2.key, c.key], [patch('x', 1, 'xd')])
    expect(versions([base, a, b1, b2, c, d])).toBeUndefined()
  })

  it('three branches change one item: all three versions are kept', () => {
    const [a, b, c] = ['a', 'b', 'c'].map(s => rec(s, 2, [base.key], [patch('x', 2, `x${s}`)]))
    expect(versions([base, a, b, c])).toEqual(['a:xa', 'b:xb', 'c:xc'])
  })

  it('an item merged away on one branch and patched on the other is resolved by declaring what it became', () => {
    const a = rec('a', 2, [base.key], [patch('x', 2, 'xa')])
    const b = rec(
      'b',
      2,
      [base.key],
      [{op: 'merges', from: ['x', 'y'], id: 'xy', kind: 'result', weight: 2, summary: 'x and y'}],
    )
    const merged = run([base, a, b])
    expect(merged.state.conflicts.has('x')).toBe(true)
    const fix = rec('fix', 3, [a.key, b.key], [patch('xy', 3, 'x and y, checked')])
    expect(run([base, a, b, fix]).state.conflicts.size).toBe(0)
  })

  it('one batch id with requests P, Q and Q again: Q applies once, one batch_id_conflict', () => {
    const p = rec('same', 2, [base.key], [patch('x', 2, 'p')])
    const q1 = rec('same', 2, [base.key], [patch('y', 2, 'q')])
    const q2 = rec('same', 2, [base.key], [patch('y', 2, 'q')])
    const r = run([base, p, q1, q2])
    expect(r.state.event_seq).toBe(3)
    expect(r.state.problems.map(x => x.code)).toEqual(['batch_id_conflict'])
    expect(r.events.filter(e => e.duplicate_of).length).toBe(1)
  })

  it('a declaration that no longer applies is reported, the rest of its batch still applies', () => {
    const a = rec('a', 2, [base.key], [{op: 'withdraw', id: 'x'}])
    const b = rec(
      'b',
      2,
      [base.key],
      [{op: 'new', id: 'x-child', parent: 'x', kind: 'progress', weight: 1, summary: 'c'}, patch('y', 3, 'yb')],
    )
    const r = run([base, a, b])
    expect(r.state.problems).toEqual([
      {
        code: 'not_applied',
        batch_id: 'b',
        record: b.key,
        path: 'declarations[0]',
        error: 'parent_not_active',
        message: expect.stringContaining('parent "x" is withdrawn'),
      },
    ])
    expect(r.state.items.get('y')?.summary).toBe('yb')
    expect(r.state.items.has('x-child')).toBe(false)
  })
})
