import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {boardAnnotate} from '../../src/app/board/annotate.js'
import {boardCommit} from '../../src/app/board/commit.js'
import {boardBrief, boardState} from '../../src/app/board/read.js'
import {boardHistory} from '../../src/app/board/history.js'
import {openBoard} from '../../src/app/board/open.js'
import {pastState} from '../../src/app/board/past.js'
import {runUseCase} from '../../src/app/use-case.js'
import {cli, type Repo, repoCopy, tempDir} from '../helpers.js'
import {recordFiles, T, us03Repo} from './helpers.js'

/** Issue 12: two branches commit to one board, and a plain `git merge` joins them. */

const commitOn = (repo: Repo, seed: string, batch: unknown, now: string, actor: string) => {
  let n = 0
  const ids = () => `${seed}${(++n).toString(16).padStart(4, '0')}`
  return runUseCase(async () => ({
    data: (await boardCommit(repo.ctx({stdin: JSON.stringify(batch), ids}), {file: '-', actor, now})).receipt,
  }))
}

const A1 = {
  batch_id: 'a-visa',
  declarations: [
    {
      op: 'supersedes',
      id: 'visa',
      kind: 'request',
      weight: 5,
      summary: 'The statement arrived; the visa agent has everything.',
    },
  ],
}
const A2 = {
  batch_id: 'a-hotel',
  declarations: [
    {op: 'withdraw', id: 'reading'},
    {op: 'new', id: 'hotel', kind: 'request', weight: 4, summary: 'Hotel to book near the fair.'},
  ],
}
const B1 = {
  batch_id: 'b-visa',
  declarations: [
    {op: 'supersedes', id: 'visa', kind: 'request', weight: 2, summary: 'Trip may move online; the visa can wait.'},
  ],
}
const B2 = {
  batch_id: 'b-taxi',
  declarations: [{op: 'new', id: 'taxi', kind: 'request', weight: 4, summary: 'Airport taxi for the 20th.'}],
}
const SHARED = {batch_id: 'both-check', declarations: []}

/** A repo whose main has the US03 board, with branch a and branch b each committing two batches (and a shared one). */
async function branched(): Promise<Repo> {
  const repo = await us03Repo()
  repo.git('checkout', '-q', '-b', 'a')
  expect((await commitOn(repo, 'aaaa', A1, T(10), 'agent-a')).exitCode).toBe(0)
  expect((await commitOn(repo, 'aaab', A2, T(11), 'agent-a')).exitCode).toBe(0)
  expect((await commitOn(repo, 'aaac', SHARED, T(12), 'agent-c')).exitCode).toBe(0)
  repo.git('checkout', '-q', 'main')
  repo.git('checkout', '-q', '-b', 'b')
  expect((await commitOn(repo, 'bbba', B1, T(10, 9), 'agent-b')).exitCode).toBe(0)
  expect((await commitOn(repo, 'bbbb', B2, T(13), 'agent-b')).exitCode).toBe(0)
  // The same request (a new now does not make it another) on the other branch.
  expect((await commitOn(repo, 'bbbc', SHARED, T(14), 'agent-c')).exitCode).toBe(0)
  return repo
}

/** A copy of the repo on `ours`, with `theirs` merged into it by plain git. */
function mergedClone(repo: Repo, ours: string, theirs: string): {clone: Repo; merge: string} {
  const clone = repoCopy(repo)
  clone.git('checkout', '-q', ours)
  // The derived cache is not committed; a fresh clone has none.
  fs.rmSync(path.join(clone.dir, '.cairn/.cache'), {recursive: true, force: true})
  return {clone, merge: clone.git('merge', '--no-edit', '-q', theirs)}
}

describe('board: branches merge with plain git', () => {
  it('mid-merge (stopped on another file), board commands still read the board and commit nothing', async () => {
    const repo = await branched()
    for (const branch of ['a', 'b']) {
      repo.git('checkout', '-q', branch)
      repo.write('NOTES.md', `${branch}\n`)
      repo.git('add', 'NOTES.md')
      repo.git('commit', '-q', '-m', `notes on ${branch}`)
    }
    const {clone} = {clone: repoCopy(repo)}
    clone.git('checkout', '-q', 'a')
    expect(() => clone.git('merge', '--no-edit', '-q', 'b')).toThrow()
    const head = clone.git('rev-parse', 'HEAD')
    const r = await cli(['board', 'state', '--now', T(18), '--json'], {cwd: clone.dir, env: clone.env})
    expect([r.code, r.json().data.event_seq, r.json().data.conflicts.map((c: any) => c.item)]).toEqual([0, 6, ['visa']])
    expect(r.json().warnings).toEqual([
      expect.stringContaining('the board was read as it stands, without committing records left uncommitted: '),
    ])
    expect(clone.git('rev-parse', 'HEAD')).toBe(head)
    const write = await cli(['board', 'commit', '-', '--now', T(18), '--actor', 'x'], {
      cwd: clone.dir,
      env: clone.env,
      input: JSON.stringify({batch_id: 'mid', declarations: []}),
    })
    expect([write.code, write.stderr]).toEqual([5, expect.stringContaining('in the middle of a merge')])
  })

  it('git merge has no conflict; both merge directions give the same state; the shared item keeps both versions; a retried batch stays already_committed', async () => {
    const repo = await branched()
    const one = mergedClone(repo, 'a', 'b')
    const two = mergedClone(repo, 'b', 'a')
    for (const {clone} of [one, two]) {
      expect(clone.git('status', '--porcelain')).toBe('')
      expect(clone.git('ls-files', '-u')).toBe('')
    }
    expect(recordFiles(one.clone)).toEqual(recordFiles(two.clone))
    expect(recordFiles(one.clone).filter(f => f.startsWith('both-check-'))).toEqual([
      'both-check-aaac0001.json',
      'both-check-bbbc0001.json',
    ])

    const s1 = await boardState(one.clone.ctx(), {now: T(18)})
    const s2 = await boardState(two.clone.ctx(), {now: T(18)})
    expect(s2).toEqual(s1)
    expect(s1.event_seq).toBe(6) // setup, four batches, and the shared check once
    expect(s1.conflicts).toEqual([
      {
        item: 'visa',
        versions: [
          {
            batch_id: 'b-visa',
            record: 'b-visa-bbba0001',
            actor: 'agent-b',
            now: T(10, 9),
            event_seq: 3,
            item: expect.objectContaining({weight: 2, summary: 'Trip may move online; the visa can wait.'}),
          },
          {
            batch_id: 'a-visa',
            record: 'a-visa-aaaa0001',
            actor: 'agent-a',
            now: T(10),
            event_seq: 2,
            item: expect.objectContaining({
              weight: 5,
              summary: 'The statement arrived; the visa agent has everything.',
            }),
          },
        ].sort((x, y) => x.event_seq - y.event_seq),
      },
    ])
    expect(s1.items.find(i => i.id === 'visa')).toMatchObject({conflict: true})
    expect(s1.items.filter(i => i.conflict).map(i => i.id)).toEqual(['visa'])
    // Each branch stayed within the root budget; together they do not, and that is flagged, not dropped.
    expect(s1.layers[0]).toMatchObject({parent: null, used: 104, budget: 100, free: -4, over_budget: true})
    expect(
      s1.items
        .filter(i => i.parent === null)
        .map(i => i.id)
        .sort(),
    ).toEqual(['hotel', 'pr-a', 'pr-b', 'taxi', 'trip', 'weekly-report'])
    expect(s1.problems).toEqual([])

    const brief = (await boardBrief(one.clone.ctx(), {now: T(18)})).text
    expect(brief).toContain('Root layer: 104 of 100 used by 6 active items. OVER BUDGET by 4')
    expect(brief).toContain(
      [
        '   3.2. visa · request · weight 2 · share 6 · due in 2d 6h · updated 8h ago',
        '        Trip may move online; the visa can wait.',
        '        CONFLICT: changed on two branches; versions: a-visa by agent-a (weight 5, active: The statement arrived; the visa agent has everything.) | b-visa by agent-b (weight 2, active: Trip may move online; the visa can wait.). Declare it in a batch to resolve.',
      ].join('\n'),
    )

    // event_seq may renumber after a merge; a batch id or a time names a point of history on every clone.
    const board = await openBoard(one.clone.ctx(), {now: T(18)}, {write: false})
    expect(pastState(board, 'a-visa').state.items.get('visa')).toMatchObject({weight: 5})
    expect(pastState(board, 'b-visa').event_seq).toBe(3)
    expect(pastState(board, T(10)).event_seq).toBe(3)
    expect([...pastState(board, T(10)).state.conflicts.keys()]).toEqual(['visa'])
    expect(pastState(board, '1').state.items.get('visa')).toMatchObject({weight: 4})
    expect(() => pastState(board, 'no-such-batch')).toThrow(
      '--diff-from "no-such-batch" is neither an event_seq, an RFC 3339 time, nor a batch id of this board',
    )
    expect(() => pastState(board, '99')).toThrow(
      "--diff-from 99 is past this board's last event, 6. Fix: give an event_seq from 0 to 6, a batch id or a time.",
    )

    // Retrying a batch of either branch after the merge answers from its record.
    const retry = await commitOn(one.clone, 'cccc', A1, T(19), 'agent-a')
    expect([retry.exitCode, (retry.envelope as any).data.status, (retry.envelope as any).data.batch_id]).toEqual([
      0,
      'already_committed',
      'a-visa',
    ])
    const shared = await boardHistory(one.clone.ctx(), {batch: 'both-check'})
    expect(shared.entries.map(e => [e.record, e.seq === null ? 'repeat' : 'event', e.duplicate_of])).toEqual([
      ['both-check-aaac0001', 'event', null],
      ['both-check-bbbc0001', 'repeat', 'both-check-aaac0001'],
    ])
    expect(one.clone.git('status', '--porcelain')).toBe('')

    // A batch that declares the item, written after the merge, resolves it; one that frees budget clears the flag.
    expect(
      (
        await commitOn(
          one.clone,
          'dddd',
          {
            batch_id: 'resolve',
            declarations: [
              {
                op: 'supersedes',
                id: 'visa',
                kind: 'request',
                weight: 5,
                summary: 'Statement arrived; the trip stays in person.',
              },
              {op: 'supersedes', id: 'taxi', kind: 'request', weight: 3},
            ],
          },
          T(20),
          'agent-a',
        )
      ).exitCode,
    ).toBe(0)
    const after = await boardState(one.clone.ctx(), {now: T(21)})
    const resolved = await openBoard(one.clone.ctx(), {now: T(21)}, {write: false})
    expect([
      pastState(resolved, 'resolve').state.conflicts.size,
      pastState(resolved, '7').state.conflicts.size,
    ]).toEqual([0, 0])
    expect([
      after.conflicts,
      after.items.find(i => i.id === 'visa')?.conflict,
      after.layers[0].over_budget,
      after.layers[0].used,
    ]).toEqual([[], false, false, 96])
    // What the write left in the cache is what a replay from the records gives.
    fs.rmSync(path.join(one.clone.dir, '.cairn/.cache/board.json'))
    expect(await boardState(one.clone.ctx(), {now: T(21)})).toEqual(after)
  })

  it('the same batch id with different requests on two branches is reported as batch_id_conflict after the merge, and both are kept', async () => {
    const repo = await us03Repo()
    repo.git('checkout', '-q', '-b', 'a')
    await commitOn(
      repo,
      'aaaa',
      {batch_id: 'nightly', declarations: [{op: 'supersedes', id: 'pr-a', kind: 'result', weight: 2}]},
      T(10),
      'agent-a',
    )
    repo.git('checkout', '-q', 'main')
    await commitOn(
      repo,
      'bbbb',
      {batch_id: 'nightly', declarations: [{op: 'supersedes', id: 'pr-b', kind: 'result', weight: 2}]},
      T(11),
      'agent-b',
    )
    const {clone} = mergedClone(repo, 'main', 'a')
    const s = await boardState(clone.ctx(), {now: T(18)})
    expect(s.problems).toEqual([
      {
        code: 'batch_id_conflict',
        batch_id: 'nightly',
        records: ['nightly-aaaa0001', 'nightly-bbbb0001'],
        differing_fields: ['actor', 'declarations[0].id'],
      },
    ])
    expect(
      s.items
        .filter(i => i.id.startsWith('pr-'))
        .map(i => [i.id, i.kind, i.weight])
        .sort(),
    ).toEqual([
      ['pr-a', 'result', 2],
      ['pr-b', 'result', 2],
    ])
    const text = await cli(['board', 'state', '--now', T(18)], {cwd: clone.dir, env: clone.env})
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(
      'batch_id_conflict: nightly was committed on two branches with different content (nightly-aaaa0001, nightly-bbbb0001; differing: actor, declarations[0].id). Both were applied',
    )
  })

  it('each branch creating the same item id keeps both versions', async () => {
    const repo = await us03Repo()
    repo.git('checkout', '-q', '-b', 'a')
    await commitOn(
      repo,
      'aaaa',
      {
        batch_id: 'a-new',
        declarations: [{op: 'new', id: 'dinner', kind: 'request', weight: 2, summary: 'Team dinner on the 21st.'}],
      },
      T(10),
      'agent-a',
    )
    repo.git('checkout', '-q', 'main')
    await commitOn(
      repo,
      'bbbb',
      {
        batch_id: 'b-new',
        declarations: [{op: 'new', id: 'dinner', kind: 'finding', weight: 3, summary: 'Dinner moved to the 22nd.'}],
      },
      T(11),
      'agent-b',
    )
    const {clone} = mergedClone(repo, 'main', 'a')
    const s = await boardState(clone.ctx(), {now: T(18)})
    expect(s.conflicts.map(c => [c.item, c.versions.map(v => [v.batch_id, v.item.summary])])).toEqual([
      [
        'dinner',
        [
          ['a-new', 'Team dinner on the 21st.'],
          ['b-new', 'Dinner moved to the 22nd.'],
        ],
      ],
    ])
    expect(s.problems).toEqual([])
  })

  it('an annotation committed on both branches is one; each branch acknowledging its own copy acknowledges it', async () => {
    const repo = await us03Repo()
    const note = (seed: string) =>
      boardAnnotate(repo.ctx({ids: () => `${seed}0001`}), {
        item: 'visa',
        text: 'Statement on Friday.',
        batch_id: 'note-1',
        now: T(9),
      })
    repo.git('checkout', '-q', '-b', 'a')
    expect((await note('aaaa')).receipt.annotation!.id).toBe('a-aaaa0001')
    repo.git('checkout', '-q', 'main')
    expect((await note('bbbb')).receipt.annotation!.id).toBe('a-bbbb0001')
    const ack = await commitOn(
      repo,
      'bbbc',
      {batch_id: 'ack', declarations: [], acknowledges: ['a-bbbb0001']},
      T(10),
      'agent-b',
    )
    expect([ack.exitCode, (ack.envelope as any).data.acknowledged]).toEqual([0, ['a-bbbb0001']])
    const {clone} = mergedClone(repo, 'main', 'a')
    const s = await boardState(clone.ctx(), {now: T(18)})
    expect([s.event_seq, s.annotations, s.problems]).toEqual([3, [], []])
    const h = await boardHistory(clone.ctx(), {batch: 'ack'})
    expect(h.entries.map(e => [e.seq, e.receipt.event, e.receipt.acknowledged])).toEqual([
      [3, 'acknowledged', ['a-aaaa0001']],
    ])
  })
})
