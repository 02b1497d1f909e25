import {describe, expect, it} from 'vitest'
import {boardBrief} from '../../src/app/board/read.js'
import {renderState} from '../../src/cli/board.js'
import {snapshot} from '../helpers.js'
import {annotate, boardRepo, commit, state, T, US03} from './helpers.js'

/** Seed 003, "操作契约的确定性检查", rows 9-10. */

describe('board conformance (seed 003), rows 9-10', () => {
  it('row 9: state and annotate never set last_seen_at or since_seen; only a checked batch sets last_checked_at', async () => {
    const repo = await boardRepo()
    const fields = async (now: string) => {
      const s = await state(repo, now)
      return [s.last_seen_at, s.since_seen, s.last_checked_at]
    }
    expect(await fields(T(7, 8))).toEqual([null, null, null])
    await commit(repo, US03, T(8, 8))
    await annotate(repo, 'visa', 'I read this; statement on Friday.', 'note-1', T(9, 8))
    expect(await fields(T(9, 8))).toEqual([null, null, null])
    await commit(repo, {batch_id: 'final-check', declarations: []}, T(10, 8))
    expect(await fields(T(11, 8))).toEqual([null, null, T(10, 8)])
    await commit(
      repo,
      {
        batch_id: 'update',
        declarations: [{op: 'supersedes', id: 'visa', kind: 'request', weight: 5}],
        acknowledges: ['a-00000002'],
      },
      T(12, 8),
    )
    const before = snapshot(repo)
    expect(await fields(T(13, 8))).toEqual([null, null, T(10, 8)])
    const text = renderState(await state(repo, T(13, 8)))
    expect(text.split('\n')[0]).toBe(
      `project board at ${T(13, 8)}: event 4, revision 2, last checked ${T(10, 8)}; last seen: not tracked.`,
    )
    expect(snapshot(repo)).toEqual(before)
  })

  it('row 10: the brief shows active items by rank, folds low weights, computes durations from now, never cuts a summary', async () => {
    const repo = await boardRepo()
    const long = `Visa agent needs the bank statement of the last three months; only the user can provide it. ${'The consulate closes the file if nothing arrives; '.repeat(8)}Send it by Monday.`
    await commit(repo, US03, T(8, 8))
    await commit(
      repo,
      {
        batch_id: 'tradeoff',
        declarations: [
          {op: 'supersedes', id: 'visa', kind: 'request', weight: 5, summary: long},
          {op: 'supersedes', id: 'weekly-report', kind: 'result', weight: 2, stale_at: '2026-10-09T00:00:00Z'},
          {op: 'merges', from: ['pr-a', 'pr-b'], id: 'prs', kind: 'result', weight: 2, summary: 'Both PRs merged.'},
          {op: 'supersedes', id: 'flight', kind: 'result', weight: 2},
          {op: 'withdraw', id: 'reading'},
        ],
      },
      T(12),
    )
    await annotate(repo, 'reading', "I need the article for tomorrow's meeting.", 'note-1', T(13))
    const r = await boardBrief(repo.ctx(), {now: '2026-10-10T06:30:00Z'})
    expect(`${r.text}\n`).toBe(
      [
        'Board at 2026-10-10T06:30:00Z: event 3, revision 2, never checked.',
        'Root layer: 32 of 100 used by 3 active items.',
        '1. trip · topic · weight 4 · share 20 · updated 1d 22h ago',
        '   Business trip to Berlin on 2026-10-20.',
        '   Under trip: 36 of 100 used by 2 items.',
        '   1.1. visa · request · weight 5 · share 30 · due in 1d 17h · updated 18h 30m ago',
        `        ${long}`,
        '   Folded, weight below 3: 1 item, share 6: flight (result, weight 2, updated 18h 30m ago).',
        'Folded, weight below 3: 2 items, share 12: prs (result, weight 2, updated 18h 30m ago); weekly-report (result, weight 2, updated 18h 30m ago).',
        'Saved annotations (no acknowledgement yet): 1.',
        "  a-00000003 on reading (withdrawn), 17h 30m ago: I need the article for tomorrow's meeting.",
        '',
      ].join('\n'),
    )
    expect(r).toMatchObject({
      now: '2026-10-10T06:30:00Z',
      event_seq: 3,
      shown: ['trip', 'visa'],
      folded: ['flight', 'prs', 'weekly-report'],
    })
  })
})
