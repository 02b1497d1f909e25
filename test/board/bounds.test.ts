import {createHash} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {renderState} from '../../src/cli/board.js'
import {selectScope} from '../../src/domain/board/overview/scope.js'
import {DEFAULT_VIEW} from '../../src/domain/board/overview/view.js'
import {MAX_DECLARATIONS, parseCommitRequest} from '../../src/domain/board/request.js'
import {DEFAULT_BOARD_SETTINGS} from '../../src/domain/board/scale.js'
import {RECORD_SCHEMA, serializeRecord} from '../../src/domain/board/state.js'
import type {BatchRecord} from '../../src/domain/board/types.js'
import {feed} from '../hook-helpers.js'
import {snapshot} from '../helpers.js'
import {board, boardRepo, recordFiles, state, T, tryCommit, us03Repo} from './helpers.js'

/** Work on the board is bounded by what it is given: a cap on declarations per batch, and a replay that grows with the records. */

const item = (i: number, parent: string | null = null) => ({
  op: 'new',
  id: `item-${i}`,
  parent,
  kind: 'progress',
  weight: 1,
  summary: `Step ${i} of the import, with a summary of some length.`,
})

/** 40 topics with their items under them: a record as an import would commit it. */
const declarations = (n: number) => Array.from({length: n}, (_, i) => item(i, i < 40 ? null : `item-${i % 40}`))

/** A record committed by hand (or by a cairn older than the cap), as board/batches/<key>.json. */
function record(batchId: string, decls: unknown[], clock = 1, parents: string[] = []): BatchRecord {
  const parsed = parseCommitRequest({batch_id: batchId, declarations: decls}, 'importer', {max: Infinity})
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 3)))
  return {
    schema: RECORD_SCHEMA,
    key: `${batchId}-${String(clock).padStart(8, '0')}`,
    clock,
    parents,
    now: T(clock),
    request: parsed.request,
  }
}

async function repoWith(records: BatchRecord[]) {
  const repo = await boardRepo()
  for (const r of records) repo.write(`.cairn/board/batches/${r.key}.json`, serializeRecord(r))
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'records committed by hand')
  return repo
}

describe('declarations per batch', () => {
  it(`a new batch over ${MAX_DECLARATIONS} declarations is rejected whole, naming the numbers and the fix; nothing is written`, async () => {
    const repo = await us03Repo()
    const before = snapshot(repo)
    const answer = await tryCommit(repo, {batch_id: 'bulk', declarations: declarations(MAX_DECLARATIONS + 1)}, T(9))
    expect(answer.code).toBe(6)
    const error = answer.json().error
    expect(error.code).toBe('rejected')
    expect(error.data.errors).toEqual([
      {
        path: 'declarations',
        code: 'too_many_declarations',
        data: {count: 2001, max: 2000},
        message:
          'the batch has 2001 declarations; a batch holds at most 2000. Fix: split it into batches of at most 2000 ' +
          "declarations, each with its own batch_id (an item's parent in the same batch or an earlier one)",
      },
    ])
    expect(error.data.receipt).toMatchObject({status: 'rejected', batch_id: 'bulk', event_seq: null, revision: 1})
    expect(snapshot(repo)).toEqual(before)
    expect(recordFiles(repo)).toEqual(['run-20261008-setup-00000001.json'])
  })

  it('the cap counts declarations, not their validity: at the cap a batch is read as usual', () => {
    const at = parseCommitRequest({batch_id: 'b', declarations: declarations(MAX_DECLARATIONS)}, 'agent')
    expect(at.ok && at.request.declarations.length).toBe(MAX_DECLARATIONS)
    const over = parseCommitRequest(
      {batch_id: 'b', declarations: [...declarations(MAX_DECLARATIONS), {op: 'explode'}]},
      'agent',
    )
    expect(!over.ok && over.errors.map(e => [e.path, e.code])).toEqual([['declarations', 'too_many_declarations']])
  })
})

describe('a committed record over the cap (4,000 declarations, about 400 KB)', () => {
  it('that still applies whole replays whole, as it always did', async () => {
    const repo = await repoWith([record('import', declarations(4000))])
    const s = await state(repo, T(12))
    expect(s.items).toHaveLength(4000)
    expect(s.items.filter(i => i.parent === null).map(i => i.id)).toHaveLength(40)
    expect([s.event_seq, s.revision, s.problems]).toEqual([1, 1, []])
  })

  it('that no longer applies whole applies not at all: one problem names the record, and the session brief says it', async () => {
    // The last declaration patches an item no record declares: the record never applied whole.
    const decls = [...declarations(3999), {op: 'supersedes', id: 'gone', kind: 'result', weight: 2}]
    const repo = await repoWith([record('setup', [item(9000)]), record('import', decls, 2, ['setup-00000001'])])
    const s = await state(repo, T(12))
    expect(s.items.map(i => i.id)).toEqual(['item-9000'])
    expect([s.event_seq, s.revision]).toEqual([2, 1])
    expect(s.problems).toEqual([
      {
        code: 'not_applied',
        batch_id: 'import',
        record: 'import-00000002',
        path: 'declarations',
        error: 'too_many_declarations',
        message:
          'record import-00000002 holds 4000 declarations, over the 2000 a batch may hold, and no longer applies whole ' +
          '(declarations[3999].id: item "gone" does not exist; declare it with op "new"), so none of it was applied. ' +
          'Fix: commit what it should still change as new batches of at most 2000 declarations',
      },
    ])
    const hook = await feed(repo, 'claude', 'session-start', {
      session_id: 's',
      cwd: repo.dir,
      hook_event_name: 'SessionStart',
    })
    const context = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext
    expect(context).toContain('cairn board brief:')
    expect(context).toContain(
      'not applied: import (too_many_declarations): record import-00000002 holds 4000 declarations',
    )
  })
})

describe('a committed record within the cap that no longer applies whole', () => {
  it('keeps every declaration that still applies and reports the one that does not, at its place', async () => {
    const decls = declarations(MAX_DECLARATIONS)
    decls[1234] = {op: 'supersedes', id: 'gone', kind: 'result', weight: 2} as never
    const repo = await repoWith([record('import', decls)])
    const s = await state(repo, T(12))
    expect(s.items).toHaveLength(MAX_DECLARATIONS - 1)
    expect(s.items.some(i => i.id === 'item-1234')).toBe(false)
    expect(s.problems).toEqual([
      {
        code: 'not_applied',
        batch_id: 'import',
        record: 'import-00000001',
        path: 'declarations[1234]',
        error: 'not_found',
        message: 'item "gone" does not exist; declare it with op "new"',
      },
    ])
  })
})

describe('a board thousands deep: a line of items, each record continuing the one before', () => {
  const DEPTH = 12_000
  const chain = Array.from({length: DEPTH / MAX_DECLARATIONS}, (_, r) =>
    record(
      `step${r}`,
      Array.from({length: MAX_DECLARATIONS}, (_, i) => {
        const k = r * MAX_DECLARATIONS + i
        return item(k, k ? `item-${k - 1}` : null)
      }),
      r + 1,
      r ? [`step${r - 1}-${String(r).padStart(8, '0')}`] : [],
    ),
  )

  it('is shown as JSON and as text, and its overview picks every layer in order, with no stack to overflow', async () => {
    const repo = await repoWith(chain)
    const s = await state(repo, T(12))
    expect(s.problems).toEqual([])
    expect(s.items.map(i => [i.id, i.depth, i.rank])).toEqual(
      Array.from({length: DEPTH}, (_, k) => [`item-${k}`, k, 1]),
    )
    expect(s.layers.map(l => l.parent)).toEqual([null, ...Array.from({length: DEPTH - 1}, (_, k) => `item-${k}`)])
    const text = renderState(s)
    expect(text).toContain(`Under item-${DEPTH - 2}: 3 of 100 used, 97 free.`)
    expect(text.split('\n').filter(l => /^1 +item-/.test(l))).toHaveLength(DEPTH)
    const scope = selectScope((await board(repo)).state, DEFAULT_BOARD_SETTINGS, DEFAULT_VIEW, null, 'view')
    expect(scope.layers).toEqual(s.layers.map(l => l.parent))
  })
})

describe('a board cache a clone commits', () => {
  it('is not read without records, so a forged one beside a dot file in batches/ adds nothing and breaks no session', async () => {
    const repo = await boardRepo()
    // With no record the fingerprint is a constant: a clone could forge it.
    const fingerprint = createHash('sha256').update('legacy-state:false').digest('hex')
    const forged = {
      schema: 'cairn/board-cache@1',
      fingerprint,
      event_seq: 1,
      revision: 1,
      last_checked_at: null,
      items: [null],
      annotations: [],
      conflicts: [],
      problems: [],
      heads: [],
      clock: 1,
    }
    repo.write('.cairn/.cache/board.json', JSON.stringify(forged))
    repo.write('.cairn/board/batches/.x.json', '{}')
    const s = await state(repo, T(12))
    expect([s.items, s.event_seq]).toEqual([[], 0])
    const hook = await feed(repo, 'claude', 'session-start', {
      session_id: 's',
      cwd: repo.dir,
      hook_event_name: 'SessionStart',
    })
    expect(hook.stdout).not.toContain('board')
  })
})
