import {describe, expect, it} from 'vitest'
import {boardMetrics} from '../../src/app/board/read.js'
import {renderMetrics} from '../../src/cli/board.js'
import {annotate, commit, commitCli, state, T, us03Repo} from './helpers.js'

describe('board metrics and concurrent writers', () => {
  it('share override rate per batch: withdraw excluded, empty batch not applicable, inherited overrides and share: null not counted', async () => {
    const repo = await us03Repo()
    await commit(
      repo,
      {
        batch_id: 'override',
        declarations: [
          {op: 'supersedes', id: 'visa', kind: 'request', weight: 4, share: 25, reason: 'Blocks the trip.'},
          {op: 'supersedes', id: 'weekly-report', kind: 'result', weight: 2},
          {op: 'withdraw', id: 'reading'},
        ],
      },
      T(9, 8),
    )
    await commit(
      repo,
      {batch_id: 'inherit', declarations: [{op: 'supersedes', id: 'visa', kind: 'request', weight: 5}]},
      T(10, 8),
    )
    await commit(
      repo,
      {batch_id: 'cancel', declarations: [{op: 'supersedes', id: 'visa', kind: 'request', weight: 5, share: null}]},
      T(11, 8),
    )
    await commit(repo, {batch_id: 'empty', declarations: []}, T(12, 8))
    await annotate(repo, 'visa', 'Thanks.', 'note-1', T(13, 8))
    await commit(repo, {batch_id: 'withdraw-only', declarations: [{op: 'withdraw', id: 'pr-a'}]}, T(14, 8))
    const r = await boardMetrics(repo.ctx())
    expect(r).toEqual({
      batches: [
        {seq: 1, batch_id: 'run-20261008-setup', actor: 'agent-1', now: T(8, 8), allocatable: 7, overrides: 0, rate: 0},
        {seq: 2, batch_id: 'override', actor: 'agent-1', now: T(9, 8), allocatable: 2, overrides: 1, rate: 0.5},
        {seq: 3, batch_id: 'inherit', actor: 'agent-1', now: T(10, 8), allocatable: 1, overrides: 0, rate: 0},
        {seq: 4, batch_id: 'cancel', actor: 'agent-1', now: T(11, 8), allocatable: 1, overrides: 0, rate: 0},
        {seq: 5, batch_id: 'empty', actor: 'agent-1', now: T(12, 8), allocatable: 0, overrides: 0, rate: null},
        {seq: 7, batch_id: 'withdraw-only', actor: 'agent-1', now: T(14, 8), allocatable: 0, overrides: 0, rate: null},
      ],
      total: {batches: 6, applicable: 4, allocatable: 11, overrides: 1, rate: 0.0909},
    })
    expect(`${renderMetrics(r)}\n`).toBe(
      [
        'SEQ  BATCH               ALLOCATABLE  OVERRIDES  RATE',
        '1    run-20261008-setup  7            0          0.0%',
        '2    override            2            1          50.0%',
        '3    inherit             1            0          0.0%',
        '4    cancel              1            0          0.0%',
        '5    empty               0            0          n/a',
        '7    withdraw-only       0            0          n/a',
        'All batches: 1 override(s) in 11 allocatable declaration(s) over 4 applicable batch(es) of 6: 9.1%.',
        '',
      ].join('\n'),
    )
  })

  it('parallel commits are serialised: each gets its own event, record and commit; the same batch id twice is committed once', async () => {
    const repo = await us03Repo()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const batches = ['alpha', 'bravo', 'charlie', 'delta'].map(id => ({
      batch_id: `par-${id}`,
      declarations: [{op: 'new', id, kind: 'finding', weight: 1, summary: `Finding ${id}.`}],
    }))
    const results = await Promise.all([...batches, batches[0]].map(b => commitCli(repo, b, T(9, 8))))
    expect(results.map(r => [r.code, r.stderr])).toEqual(Array(5).fill([0, '']))
    const receipts = results.map(r => r.json().data)
    expect(receipts.map(r => r.status).sort()).toEqual([
      'already_committed',
      'committed',
      'committed',
      'committed',
      'committed',
    ])
    expect(
      receipts
        .slice(0, 4)
        .map(r => r.event_seq)
        .sort(),
    ).toEqual([2, 3, 4, 5])
    expect(receipts[4].event_seq).toBe(receipts[0].event_seq)
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('4')
    for (let i = 0; i < 4; i++)
      expect(repo.git('show', '--name-only', '--format=', `HEAD~${i}`).trim().split('\n')).toEqual([
        expect.stringMatching(/^.cairn\/board\/batches\/par-[a-z]+-[0-9a-f]{8}\.json$/),
      ])
    expect(repo.git('status', '--porcelain')).toBe('')
    const s = await state(repo, T(10, 8))
    expect(s.layers[0]).toMatchObject({used: 88, items: expect.arrayContaining(['alpha', 'bravo', 'charlie', 'delta'])})
  })
})
