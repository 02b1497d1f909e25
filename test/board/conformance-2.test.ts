import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {boardHistory} from '../../src/app/board/history.js'
import {boardBrief} from '../../src/app/board/read.js'
import {refusal, type Repo, snapshot} from '../helpers.js'
import {
  annotate,
  board,
  commit,
  emptyChanges,
  receipt,
  recordFiles,
  state,
  T,
  tryAnnotate,
  tryCommit,
  US03,
  us03Repo,
} from './helpers.js'

/** Seed 003, "操作契约的确定性检查", rows 5-8. */

async function refused(p: Promise<unknown>): Promise<{code: string; errors: {path: string; code: string}[]}> {
  try {
    await p
  } catch (error) {
    const e = error as {code: string; data: {errors: {path: string; code: string}[]}}
    return {code: e.code, errors: e.data.errors.map(x => ({path: x.path, code: x.code}))}
  }
  throw new Error('expected the batch to be rejected')
}

const batch = (batch_id: string, declarations: unknown[], acknowledges: string[] = []) => ({
  batch_id,
  declarations,
  acknowledges,
})

describe('board conformance (seed 003), rows 5-8', () => {
  it('row 5: only same-layer active leaves merge; removing an active child needs an explicit withdraw', async () => {
    const repo = await us03Repo()
    await commit(
      repo,
      batch('notes', [{op: 'new', id: 'notes', parent: 'reading', kind: 'finding', weight: 1, summary: 'Notes.'}]),
      T(8, 8),
    )
    await commit(repo, batch('drop-notes', [{op: 'withdraw', id: 'notes'}]), T(8, 8))
    const bad: [unknown[], {path: string; code: string}[]][] = [
      [
        [{op: 'merges', from: ['trip', 'weekly-report'], id: 'm', kind: 'result', weight: 2, summary: 's'}],
        [{path: 'declarations[0].from[0]', code: 'not_leaf'}],
      ],
      [
        [{op: 'merges', from: ['reading', 'weekly-report'], id: 'm', kind: 'result', weight: 2, summary: 's'}],
        [{path: 'declarations[0].from[0]', code: 'not_leaf'}],
      ],
      [
        [{op: 'merges', from: ['visa', 'weekly-report'], id: 'm', kind: 'result', weight: 2, summary: 's'}],
        [{path: 'declarations[0].from', code: 'not_same_layer'}],
      ],
      [
        [
          {op: 'withdraw', id: 'pr-b'},
          {op: 'merges', from: ['pr-a', 'pr-b'], id: 'm', kind: 'result', weight: 2, summary: 's'},
        ],
        [{path: 'declarations[1].from[1]', code: 'not_active'}],
      ],
      [
        [{op: 'merges', from: ['pr-a', 'pr-b'], id: 'm', kind: 'result', weight: 2, summary: 's', children: ['visa']}],
        [{path: 'declarations[0].children', code: 'not_allowed'}],
      ],
      [
        [
          {
            op: 'children',
            id: 'trip',
            kind: 'topic',
            weight: 4,
            children: ['visa'],
            reason: 'The flight is no longer needed.',
          },
        ],
        [{path: 'declarations[0].children', code: 'removed_child_not_withdrawn'}],
      ],
      [
        [{op: 'children', id: 'trip', kind: 'topic', weight: 4, children: []}],
        [{path: 'declarations[0].children', code: 'removed_child_not_withdrawn'}],
      ],
    ]
    for (const [declarations, errors] of bad)
      expect(await refused(commit(repo, batch('bad', declarations), T(9, 8)))).toEqual({code: 'rejected', errors})

    const merged = await commit(
      repo,
      batch('merge-prs', [
        {op: 'supersedes', id: 'pr-a', kind: 'progress', weight: 3, sources: ['gh:pr/1']},
        {
          op: 'merges',
          from: ['pr-a', 'pr-b'],
          id: 'prs',
          kind: 'result',
          weight: 2,
          summary: 'Both PRs merged.',
          sources: ['gh:pr/2'],
        },
      ]),
      T(9, 8),
    )
    expect(merged.receipt.changes).toEqual({...emptyChanges, structure: ['pr-a', 'pr-b', 'prs'], sources: ['pr-a']})
    const s = await state(repo, T(9, 8))
    expect(s.items.find(i => i.id === 'prs')).toMatchObject({
      parent: null,
      merged_from: ['pr-a', 'pr-b'],
      sources: ['gh:pr/1', 'gh:pr/2'],
      status: 'active',
    })
    expect(s.inactive.filter(i => i.id.startsWith('pr-'))).toMatchObject([
      {id: 'pr-a', status: 'merged', merged_into: 'prs'},
      {id: 'pr-b', status: 'merged', merged_into: 'prs'},
    ])
    expect(
      await refused(
        commit(repo, batch('late', [{op: 'supersedes', id: 'pr-a', kind: 'progress', weight: 2}]), T(10, 8)),
      ),
    ).toEqual({code: 'rejected', errors: [{path: 'declarations[0].id', code: 'merged'}]})

    const moved = await commit(
      repo,
      batch('reshape-trip', [
        {op: 'children', id: 'trip', kind: 'topic', weight: 4, children: ['visa', 'weekly-report']},
        {op: 'withdraw', id: 'flight', reason: 'Flight refunded.'},
      ]),
      T(10, 8),
    )
    expect(moved.receipt.changes).toEqual({...emptyChanges, structure: ['flight', 'weekly-report']})
    const after = await state(repo, T(10, 8))
    expect(after.layers.map(l => [l.parent, l.items])).toEqual([
      [null, ['trip', 'reading', 'prs']],
      ['trip', ['weekly-report', 'visa']],
    ])
  })

  it('row 6: an empty batch is checked, acknowledge-only is acknowledgements, a repeated acknowledge keeps the first binding', async () => {
    const repo = await us03Repo()
    const items = () => [...board(repo).state.items.values()].map(i => JSON.stringify(i)).join('\n')
    const itemsBefore = items()
    const checked = await tryCommit(repo, batch('run-20261008-final-check', []), T(9, 8))
    expect(checked.json().data).toEqual(
      receipt({
        batch_id: 'run-20261008-final-check',
        event_seq: 2,
        event: 'checked',
        checked: true,
        revision: 1,
        now: T(9, 8),
      }),
    )
    const note = (await annotate(repo, 'visa', 'Statement will come on Friday.', 'note-1', T(10, 8))).receipt
      .annotation!.id
    expect(note).toBe('a-00000003')
    const ack = await tryCommit(repo, batch('ack-1', [], [note]), T(11, 8))
    expect(ack.json().data).toEqual(
      receipt({
        batch_id: 'ack-1',
        event_seq: 4,
        event: 'acknowledged',
        revision: 1,
        now: T(11, 8),
        acknowledged: [note],
      }),
    )
    const again = await tryCommit(repo, batch('ack-2', [], [note, note]), T(12, 8), 'agent-2')
    expect(again.json().data).toEqual(
      receipt({
        batch_id: 'ack-2',
        actor: 'agent-2',
        event_seq: 5,
        event: 'checked',
        checked: true,
        revision: 1,
        now: T(12, 8),
        already_acknowledged: [note],
      }),
    )
    // A same-content patch and a reason-only change are not item updates either.
    const visa = US03.declarations[1]
    const same = await commit(repo, batch('same', [{...visa, op: 'supersedes'}]), T(13, 8))
    const reason = await commit(
      repo,
      batch('reason', [
        {op: 'supersedes', id: 'visa', kind: 'request', weight: 4, reason: 'The user asked to be reminded.'},
      ]),
      T(14, 8),
    )
    expect([same.receipt.event, same.receipt.revision, reason.receipt.event, reason.receipt.revision]).toEqual([
      'checked',
      1,
      'checked',
      1,
    ])
    expect(items().replace('"reason":"The user asked to be reminded."', '"reason":null')).toBe(itemsBefore)
    const s = await state(repo, T(15, 8))
    expect([s.event_seq, s.revision, s.last_checked_at, s.annotations]).toEqual([7, 1, T(14, 8), []])
    expect(s.items.find(i => i.id === 'visa')).toMatchObject({
      revision: 1,
      updated_at: T(8, 8),
      reason: 'The user asked to be reminded.',
    })
    const h = await boardHistory(repo.ctx(), {batch: 'ack-1'})
    expect(h.entries[0].receipt.acknowledged).toEqual([note])
    const first = board(repo).state.annotations.get(note)!
    expect(first.acknowledged_by).toEqual({batch_id: 'ack-1', event_seq: 4, actor: 'agent-1', at: T(11, 8)})
  })

  it('row 7: a retry of the same batch id is recognised; a new now does not redo it; different content is a conflict', async () => {
    const repo = await us03Repo()
    const b = batch('run-20261009-final-check', [{op: 'supersedes', id: 'weekly-report', kind: 'result', weight: 2}])
    const first = await tryCommit(repo, b, T(12))
    const original = receipt({
      batch_id: 'run-20261009-final-check',
      event_seq: 2,
      revision: 2,
      now: T(12),
      changes: {...emptyChanges, allocation: ['weekly-report']},
    })
    expect(first.json().data).toEqual(original)
    const before = snapshot(repo)
    const retry = await tryCommit(repo, b, T(15))
    expect([retry.code, retry.json().data]).toEqual([0, {...original, status: 'already_committed'}])
    expect(snapshot(repo)).toEqual(before)
    const changed = await tryCommit(
      repo,
      batch('run-20261009-final-check', [{op: 'supersedes', id: 'weekly-report', kind: 'result', weight: 3}]),
      T(15),
    )
    expect(changed.code).toBe(5)
    expect(changed.json()).toEqual({
      ok: false,
      error: {
        code: 'batch_id_conflict',
        data: {original_receipt: original, differing_fields: ['declarations[0].weight']},
        message:
          'Batch id "run-20261009-final-check" was already used by a different request that differs in declarations[0].weight; it was not applied. Fix: check original_receipt and differing_fields with "cairn board history --batch run-20261009-final-check"; do not change the id to get around it.',
      },
    })
    const otherActor = await tryCommit(repo, b, T(15), 'agent-2')
    expect([otherActor.code, otherActor.json().error.data.differing_fields]).toEqual([5, ['actor']])
    expect(snapshot(repo)).toEqual(before)
    // The original receipt can be checked in history, with the commit that holds it.
    const h = await boardHistory(repo.ctx(), {batch: 'run-20261009-final-check'})
    expect(h.entries.map(e => [e.seq, e.commit, e.receipt])).toEqual([
      [2, repo.git('rev-parse', 'HEAD').trim(), original],
    ])
    const missing = await refusal(() => boardHistory(repo.ctx(), {batch: 'never-sent'}))
    expect([missing.exitCode, missing.message]).toEqual([
      4,
      'No committed batch "never-sent": it was never saved. Fix: retry it with the same batch id, actor and content; now may change.',
    ])
    // Annotations have the same batch-id idempotency.
    const note = await tryAnnotate(repo, 'visa', 'Statement on Friday.', 'note-1', T(13))
    const noteAgain = await tryAnnotate(repo, 'visa', 'Statement on Friday.', 'note-1', T(16))
    expect(noteAgain.json().data).toEqual({...note.json().data, status: 'already_committed'})
    const noteOther = await tryAnnotate(repo, 'visa', 'Statement on Monday.', 'note-1', T(16))
    expect([noteOther.code, noteOther.json().error.data.differing_fields]).toEqual([5, ['text']])
    expect((await state(repo, T(17))).annotations.map(a => a.id)).toEqual([note.json().data.annotation.id])
  })

  it('row 8: a record left uncommitted counts at once and is committed by the next command; retries of the batch or the annotation do not repeat it', async () => {
    const repo = await us03Repo()
    const tradeoff = batch('run-20261009-tradeoff', [
      {op: 'supersedes', id: 'visa', kind: 'request', weight: 5},
      {op: 'withdraw', id: 'reading'},
    ])
    const first = await commit(repo, tradeoff, T(12))
    const crash = (): string => {
      // The process died after writing the record and before the commit, outside any journal.
      const file = repo.git('show', '--name-only', '--format=', 'HEAD').trim()
      const record = repo.read(file)
      repo.git('reset', '-q', '--hard', 'HEAD~1')
      repo.write(file, record)
      return file
    }
    const file = crash()
    expect(file).toBe('.cairn/board/batches/run-20261009-tradeoff-00000002.json')
    const s = await state(repo, T(13))
    expect(s).toMatchObject({event_seq: 2, revision: 2})
    expect(s.items.find(i => i.id === 'visa')).toMatchObject({weight: 5, revision: 2})
    expect(repo.git('log', '-1', '--format=%s%n%(trailers:key=Cairn-Batch)').trim()).toBe(
      'cairn(board-recover): commit run-20261009-tradeoff-00000002\nCairn-Batch: run-20261009-tradeoff',
    )
    expect(repo.git('show', '--name-only', '--format=', 'HEAD').trim().split('\n')).toEqual([file])
    expect(repo.git('status', '--porcelain')).toBe('')
    const retry = await tryCommit(repo, tradeoff, T(14))
    expect(retry.json().data).toEqual({...first.receipt, status: 'already_committed'})
    expect(recordFiles(repo)).toEqual(['run-20261008-setup-00000001.json', 'run-20261009-tradeoff-00000002.json'])

    // The same for an annotation, recovered by the retry itself.
    const note = await annotate(repo, 'visa', 'Statement on Friday.', 'note-1', T(15))
    crash()
    const noteRetry = await tryAnnotate(repo, 'visa', 'Statement on Friday.', 'note-1', T(16))
    expect(noteRetry.json().data).toEqual({...note.receipt, status: 'already_committed'})
    const next = await annotate(repo, 'visa', 'Or Monday.', 'note-2', T(17))
    expect((await state(repo, T(18))).annotations.map(a => [a.id, a.batch_id])).toEqual([
      ['a-00000003', 'note-1'],
      ['a-00000006', 'note-2'],
    ])
    expect(next.receipt.event_seq).toBe(4)
    await uncommitted(repo)
  })
})

/** The record written and staged, the commit never made: the next command commits it as it is. */
async function uncommitted(repo: Repo): Promise<void> {
  await commit(repo, batch('late-commit', [{op: 'supersedes', id: 'flight', kind: 'result', weight: 2}]), T(19))
  repo.git('reset', '-q', '--soft', 'HEAD~1')
  expect(repo.git('status', '--porcelain', '-uall')).toBe('A  .cairn/board/batches/late-commit-00000008.json\n')
  expect((await boardBrief(repo.ctx(), {now: T(20)})).event_seq).toBe(5)
  expect(repo.git('status', '--porcelain')).toBe('')
  expect(repo.git('log', '-1', '--format=%s').trim()).toBe('cairn(board-recover): commit late-commit-00000008')
  expect(repo.git('show', '--name-only', '--format=', 'HEAD').trim().split('\n')).toEqual([
    '.cairn/board/batches/late-commit-00000008.json',
  ])
}
