import {describe, expect, it} from 'vitest'
import {applyBatch} from '../../src/domain/board/apply.js'
import {parseCommitRequest} from '../../src/domain/board/request.js'
import {DEFAULT_BOARD_SETTINGS} from '../../src/domain/board/scale.js'
import {applyEffects} from '../../src/domain/board/state.js'
import {type BoardState, emptyState} from '../../src/domain/board/types.js'

const NOW = '2026-10-09T12:00:00Z'
const step = (k: number) => ({
  op: 'new',
  id: `i-${k}`,
  parent: k ? `i-${k - 1}` : null,
  kind: 'progress',
  weight: 1,
  summary: `Step ${k}.`,
})

function apply(state: BoardState, batchId: string, declarations: unknown[]) {
  const parsed = parseCommitRequest({batch_id: batchId, declarations}, 'agent', {max: Infinity})
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors))
  return applyBatch(state, parsed.request, NOW, DEFAULT_BOARD_SETTINGS, {budgets: false})
}

/** One line of descent, i-0 at the root, 40 items to a batch. */
function deep(n: number): BoardState {
  let state = emptyState()
  for (let b = 0; b < n / 40; b++) {
    const r = apply(
      state,
      `b${b}`,
      Array.from({length: 40}, (_, i) => step(b * 40 + i)),
    )
    if (!r.ok) throw new Error(JSON.stringify(r.errors))
    state = applyEffects(state, r.effects)
  }
  return state
}

describe('a batch on a deep board is checked for cycles (checkCycles)', () => {
  const base = deep(400)

  it('takes items added at the bottom, and a parent an item already had', () => {
    const r = apply(base, 'grow', [
      step(400),
      step(401),
      {op: 'supersedes', id: 'i-5', kind: 'progress', weight: 1, parent: 'i-4'},
    ])
    expect(r.ok).toBe(true)
  })

  it('refuses moving an item under its own descendant, naming the whole cycle', () => {
    const r = apply(base, 'loop', [{op: 'supersedes', id: 'i-396', kind: 'progress', weight: 1, parent: 'i-399'}])
    expect(r).toEqual({
      ok: false,
      errors: [
        {
          path: 'declarations[0].parent',
          code: 'cycle',
          message: 'this parent would make a cycle: i-396 → i-399 → i-398 → i-397 → i-396',
          data: {cycle: ['i-396', 'i-399', 'i-398', 'i-397']},
        },
      ],
    })
  })

  it('refuses a cycle through an item the same batch added: the move sends the walk past the old items', () => {
    const r = apply(base, 'loop-new', [
      step(400),
      {op: 'supersedes', id: 'i-398', kind: 'progress', weight: 1, parent: 'i-400'},
    ])
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.errors.map(e => [e.path, e.code])).toEqual([['declarations[0].parent', 'cycle']])
  })
})
