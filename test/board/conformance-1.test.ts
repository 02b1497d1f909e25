import {describe, expect, it} from 'vitest'
import {boardHistory} from '../../src/app/board/history.js'
import {snapshot} from '../helpers.js'
import {
  annotate,
  boardRepo,
  commit,
  emptyChanges,
  receipt,
  recordFiles,
  snapshotText,
  state,
  T,
  tryCommit,
  US03,
  us03Repo,
} from './helpers.js'

/** Seed 003, "操作契约的确定性检查", rows 1-4. */

const TRADEOFF = {
  batch_id: 'run-20261009-tradeoff',
  declarations: [
    {
      op: 'supersedes',
      id: 'visa',
      kind: 'request',
      weight: 5,
      reason: 'Visa agent confirmed the bank statement is missing; only the user can provide it.',
    },
    {op: 'supersedes', id: 'weekly-report', kind: 'result', weight: 2},
    {op: 'merges', from: ['pr-a', 'pr-b'], id: 'prs', kind: 'result', weight: 2, summary: 'Both PRs merged.'},
    {op: 'supersedes', id: 'flight', kind: 'result', weight: 2},
    {
      op: 'withdraw',
      id: 'reading',
      reason: 'No current use for the article; revisit if the user needs it for a meeting.',
    },
  ],
}

const OVER = {
  batch_id: 'run-over',
  declarations: [
    {op: 'supersedes', id: 'reading', kind: 'finding', weight: 5},
    {op: 'new', id: 'hotel', kind: 'request', weight: 5, summary: 'Hotel not booked yet.'},
  ],
}

describe('board conformance (seed 003), rows 1-4', () => {
  it('row 1: the same state, declarations and now give the same shares, rank and verdicts', async () => {
    const runs = []
    for (let i = 0; i < 2; i++) {
      const repo = await boardRepo()
      const results = [
        await tryCommit(repo, US03, T(8, 8)),
        await tryCommit(repo, OVER, T(9, 8)),
        await tryCommit(repo, TRADEOFF, T(12)),
      ]
      runs.push({
        codes: results.map(r => r.code),
        outputs: results.map(r => r.json()),
        state: await state(repo, T(18)),
        snapshot: snapshotText(repo),
      })
    }
    expect(runs[1]).toEqual(runs[0])
    const [setup, over, tradeoff] = runs[0].outputs
    expect(runs[0].codes).toEqual([0, 6, 0])
    expect(setup).toEqual({
      ok: true,
      warnings: [],
      data: receipt({
        batch_id: 'run-20261008-setup',
        event_seq: 1,
        revision: 1,
        now: T(8, 8),
        changes: {...emptyChanges, structure: ['flight', 'pr-a', 'pr-b', 'reading', 'trip', 'visa', 'weekly-report']},
      }),
    })
    const items = [
      ['hotel', 5, 30],
      ['reading', 5, 30],
      ['trip', 4, 20],
      ['weekly-report', 4, 20],
      ['pr-a', 3, 12],
      ['pr-b', 3, 12],
    ].map(([id, weight, share]) => ({id, weight, share, share_override: null}))
    expect(over.error.data).toEqual({
      receipt: {
        status: 'rejected',
        batch_id: 'run-over',
        event_seq: null,
        event: null,
        revision: 1,
        actor: 'agent-1',
        now: T(9, 8),
        changes: emptyChanges,
        acknowledged: [],
        already_acknowledged: [],
        checked: false,
      },
      errors: [
        {
          path: 'declarations[0]',
          code: 'over_budget',
          message:
            'the root layer would use 124 of its budget 100: hotel 30, reading 30, trip 20, weekly-report 20, pr-a 12, pr-b 12. Lower weights or shares, or withdraw items; the whole batch was rejected',
          data: {layer: null, used: 124, budget: 100, items},
        },
      ],
    })
    expect(tradeoff.data).toEqual(
      receipt({
        batch_id: 'run-20261009-tradeoff',
        event_seq: 2,
        revision: 2,
        now: T(12),
        changes: {
          ...emptyChanges,
          structure: ['pr-a', 'pr-b', 'prs', 'reading'],
          allocation: ['flight', 'visa', 'weekly-report'],
        },
      }),
    )
    const s = runs[0].state
    expect(s.layers).toEqual([
      {parent: null, budget: 100, used: 32, free: 68, over_budget: false, items: ['trip', 'prs', 'weekly-report']},
      {parent: 'trip', budget: 100, used: 36, free: 64, over_budget: false, items: ['visa', 'flight']},
    ])
    expect(
      s.items.map((i: any) => [i.id, i.share, i.derived_share, i.share_override, i.rank, i.depth, i.revision]),
    ).toEqual([
      ['trip', 20, 20, null, 1, 0, 1],
      ['visa', 30, 30, null, 1, 1, 2],
      ['flight', 6, 6, null, 2, 1, 2],
      ['prs', 6, 6, null, 2, 0, 1],
      ['weekly-report', 6, 6, null, 3, 0, 2],
    ])
    expect(s.items[1]).toEqual({
      id: 'visa',
      parent: 'trip',
      kind: 'request',
      summary: 'Visa agent needs the bank statement; only the user can provide it.',
      weight: 5,
      share: 30,
      derived_share: 30,
      share_override: null,
      reason: 'Visa agent confirmed the bank statement is missing; only the user can provide it.',
      due_at: '2026-10-12T00:00:00Z',
      stale_at: null,
      sources: [],
      budget: null,
      status: 'active',
      merged_from: [],
      created_at: T(8, 8),
      updated_at: T(12),
      revision: 2,
      rank: 1,
      depth: 1,
      projections: {age: 122400, since_update: 21600, until_due: 194400, until_stale: null},
      conflict: false,
    })
  })

  it('row 2: over budget, a missing target or a cycle give a located error; state, revision and events unchanged', async () => {
    const repo = await us03Repo()
    const cases: [unknown, number, {path: string; code: string; message?: string}[]][] = [
      [OVER, 6, [{path: 'declarations[0]', code: 'over_budget'}]],
      [
        {
          batch_id: 'missing',
          declarations: [
            {op: 'supersedes', id: 'pr-a', kind: 'progress', weight: 2},
            {op: 'supersedes', id: 'hotel', kind: 'request', weight: 2},
          ],
        },
        6,
        [
          {
            path: 'declarations[1].id',
            code: 'not_found',
            message: 'item "hotel" does not exist; declare it with op "new"',
          },
        ],
      ],
      [
        {
          batch_id: 'missing-parent',
          declarations: [{op: 'new', id: 'hotel', parent: 'conference', kind: 'request', weight: 2, summary: 'x'}],
        },
        6,
        [
          {
            path: 'declarations[0].parent',
            code: 'not_found',
            message: 'parent "conference" does not exist; declare it earlier in the batch',
          },
        ],
      ],
      [
        {batch_id: 'cycle', declarations: [{op: 'supersedes', id: 'trip', kind: 'topic', weight: 4, parent: 'visa'}]},
        6,
        [
          {
            path: 'declarations[0].parent',
            code: 'cycle',
            message: 'this parent would make a cycle: trip → visa → trip',
          },
        ],
      ],
      [
        {
          batch_id: 'cycle-children',
          declarations: [{op: 'children', id: 'visa', kind: 'request', weight: 4, children: ['trip']}],
        },
        6,
        [
          {
            path: 'declarations[0].children[0]',
            code: 'cycle',
            message: 'this parent would make a cycle: trip → visa → trip',
          },
        ],
      ],
      [
        {batch_id: 'unknown-ack', declarations: [], acknowledges: ['a-9']},
        6,
        [{path: 'acknowledges[0]', code: 'not_found'}],
      ],
    ]
    for (const [batch, code, errors] of cases) {
      const before = snapshot(repo)
      const r = await tryCommit(repo, batch, T(9, 8))
      expect(r.code, JSON.stringify(batch)).toBe(code)
      const data = r.json().error.data
      expect(data.receipt).toMatchObject({status: 'rejected', event_seq: null, revision: 1})
      expect(data.errors).toMatchObject(errors)
      expect(snapshot(repo)).toEqual(before)
      expect(recordFiles(repo)).toEqual(['run-20261008-setup-00000001.json'])
    }
    const s = await state(repo, T(9, 8))
    expect([s.event_seq, s.revision, s.items.length]).toEqual([1, 1, 7])
  })

  it('row 3: a supersedes patch keeps omitted fields, clears allowed nulls, requires weight and kind', async () => {
    const repo = await boardRepo()
    await commit(
      repo,
      {
        batch_id: 'b1',
        declarations: [
          {
            op: 'new',
            id: 'bill',
            kind: 'request',
            weight: 3,
            summary: 'Electricity bill unpaid; payment deadline passed.',
            due_at: '2026-10-10T00:00:00Z',
            stale_at: '2026-10-20T00:00:00Z',
            sources: ['mail:bill-10'],
            share: 25,
            reason: 'Overdue payment blocks the contract.',
          },
        ],
      },
      T(8),
    )
    const refused: [unknown, string, string][] = [
      [{op: 'supersedes', id: 'bill', kind: 'request'}, 'declarations[0].weight', 'required'],
      [{op: 'supersedes', id: 'bill', weight: 3}, 'declarations[0].kind', 'required'],
      [
        {op: 'supersedes', id: 'bill', kind: 'request', weight: 3, summary: null},
        'declarations[0].summary',
        'null_not_allowed',
      ],
      [
        {op: 'supersedes', id: 'bill', kind: 'request', weight: 3, sources: null},
        'declarations[0].sources',
        'null_not_allowed',
      ],
      [
        {op: 'supersedes', id: 'bill', kind: 'request', weight: 3, share: 40},
        'declarations[0].reason',
        'reason_required',
      ],
    ]
    for (const [d, path, code] of refused) {
      const r = await tryCommit(repo, {batch_id: 'b2', declarations: [d]}, T(9))
      expect([r.code, r.json().error.data.errors.map((e: any) => [e.path, e.code])]).toEqual([6, [[path, code]]])
    }
    // Omitted fields stay; due_at: null clears; the share override survives a patch that omits it.
    const kept = await commit(
      repo,
      {batch_id: 'b2', declarations: [{op: 'supersedes', id: 'bill', kind: 'request', weight: 4, due_at: null}]},
      T(9),
    )
    expect(kept.receipt.changes).toEqual({...emptyChanges, content: ['bill'], allocation: ['bill']})
    let bill = (await state(repo, T(10))).items[0]
    expect(bill).toMatchObject({
      summary: 'Electricity bill unpaid; payment deadline passed.',
      weight: 4,
      share: 25,
      share_override: 25,
      derived_share: 20,
      reason: 'Overdue payment blocks the contract.',
      due_at: null,
      stale_at: '2026-10-20T00:00:00Z',
      sources: ['mail:bill-10'],
      revision: 2,
      updated_at: T(9),
    })
    // share: null goes back to the derived share.
    await commit(
      repo,
      {batch_id: 'b3', declarations: [{op: 'supersedes', id: 'bill', kind: 'request', weight: 4, share: null}]},
      T(10),
    )
    bill = (await state(repo, T(10))).items[0]
    expect([bill.share, bill.share_override, bill.derived_share, bill.revision, bill.projections.until_stale]).toEqual([
      20,
      null,
      20,
      3,
      914400,
    ])
  })

  it('row 4: withdraw takes the whole subtree out; its history and unacknowledged annotations stay retrievable', async () => {
    const repo = await us03Repo()
    await annotate(repo, 'flight', 'Prefer the morning flight.', 'note-1', T(9, 8))
    const r = await tryCommit(
      repo,
      {batch_id: 'drop-trip', declarations: [{op: 'withdraw', id: 'trip', reason: 'Trip cancelled.'}]},
      T(10, 8),
    )
    expect(r.json().data).toEqual(
      receipt({
        batch_id: 'drop-trip',
        event_seq: 3,
        revision: 2,
        now: T(10, 8),
        changes: {...emptyChanges, structure: ['flight', 'trip', 'visa']},
      }),
    )
    const s = await state(repo, T(11, 8))
    expect(s.items.map((i: any) => i.id)).toEqual(['weekly-report', 'pr-a', 'pr-b', 'reading'])
    expect(
      s.inactive.filter((i: any) => ['trip', 'visa', 'flight'].includes(i.id)).map((i: any) => [i.id, i.status]),
    ).toEqual([
      ['flight', 'withdrawn'],
      ['trip', 'withdrawn'],
      ['visa', 'withdrawn'],
    ])
    expect(s.annotations).toEqual([
      {
        id: 'a-00000002',
        item: 'flight',
        text: 'Prefer the morning flight.',
        actor: 'tester',
        status: 'saved',
        created_at: T(9, 8),
        batch_id: 'note-1',
        event_seq: 2,
        acknowledged_by: null,
        item_status: 'withdrawn',
        successor: null,
      },
    ])
    const h = await boardHistory(repo.ctx(), {id: 'flight'})
    expect(h.entries.map((e: any) => [e.seq, e.batch_id, e.event])).toEqual([
      [1, 'run-20261008-setup', 'changed'],
      [2, 'note-1', 'annotated'],
      [3, 'drop-trip', 'changed'],
    ])
    // Restoring a child needs an active parent; restore brings back only what is declared.
    const orphan = await tryCommit(
      repo,
      {batch_id: 'restore-flight', declarations: [{op: 'supersedes', id: 'flight', kind: 'result', weight: 3}]},
      T(12, 8),
    )
    expect(orphan.json().error.data.errors).toEqual([
      {
        path: 'declarations[0].id',
        code: 'parent_not_active',
        data: {id: 'flight', parent: 'trip'},
        message:
          'restoring "flight" needs an active parent; "trip" is withdrawn: restore it in the same batch, or move "flight" with "parent"',
      },
    ])
    const back = await tryCommit(
      repo,
      {
        batch_id: 'restore-trip',
        declarations: [
          {op: 'supersedes', id: 'flight', kind: 'result', weight: 3},
          {op: 'supersedes', id: 'trip', kind: 'topic', weight: 4},
        ],
      },
      T(12, 8),
    )
    expect(back.json().data.changes).toEqual({...emptyChanges, structure: ['flight', 'trip']})
    const after = await state(repo, T(12, 8))
    expect(after.layers[1]).toEqual({
      parent: 'trip',
      budget: 100,
      used: 12,
      free: 88,
      over_budget: false,
      items: ['flight'],
    })
    expect(after.inactive.map((i: any) => i.id)).toEqual(['visa'])
  })
})
