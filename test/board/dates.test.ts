import {describe, expect, it} from 'vitest'
import {boardBrief, boardState} from '../../src/app/board/read.js'
import {normalizeTimestamp, timestampProblem} from '../../src/domain/board/time.js'
import {CairnError} from '../../src/domain/errors.js'
import {type Repo, snapshot} from '../helpers.js'
import {boardRepo, commit, emptyChanges, recordFiles, T, US03} from './helpers.js'

async function setUp(): Promise<Repo> {
  const repo = await boardRepo()
  await commit(repo, US03, T(8, 8))
  return repo
}

async function failure(run: Promise<unknown>): Promise<CairnError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(CairnError)
  return error as CairnError
}

describe('board timestamps are real instants, never rolled over', () => {
  it('accepts real dates, leap days in leap years and offsets', () => {
    expect(normalizeTimestamp('2024-02-29T23:59:59Z')).toBe('2024-02-29T23:59:59Z')
    expect(normalizeTimestamp('2000-02-29T00:00:00Z')).toBe('2000-02-29T00:00:00Z')
    expect(normalizeTimestamp('2026-10-09T10:00:00+05:30')).toBe('2026-10-09T04:30:00Z')
    expect(normalizeTimestamp('2026-12-31T23:59:00.500-01:00')).toBe('2027-01-01T00:59:00Z')
  })

  const refused: [string, string][] = [
    ['2026-02-30T00:00:00Z', 'day 30 does not exist: February 2026 has 28 days'],
    ['2026-02-29T00:00:00Z', 'day 29 does not exist: February 2026 has 28 days'],
    ['1900-02-29T00:00:00Z', 'day 29 does not exist: February 1900 has 28 days'],
    ['2026-04-31T00:00:00Z', 'day 31 does not exist: April 2026 has 30 days'],
    ['2026-10-00T00:00:00Z', 'day 00 does not exist: October 2026 has 31 days'],
    ['2026-13-01T00:00:00Z', 'month 13 does not exist'],
    ['2026-10-09T24:00:00Z', 'hour 24 does not exist (00 to 23)'],
    ['2026-10-09T23:60:00Z', 'minute 60 does not exist (00 to 59)'],
    ['2026-10-09T23:59:60Z', 'second 60 is not supported (00 to 59)'],
    ['2026-10-09T10:00:00+24:00', 'offset +24:00 does not exist'],
    ['2026-02-30', 'not in the form YYYY-MM-DDTHH:MM:SSZ (or with an offset such as +02:00)'],
  ]
  for (const [text, problem] of refused) {
    it(`refuses ${text}`, () => {
      expect(timestampProblem(text)).toBe(problem)
      expect(normalizeTimestamp(text)).toBeUndefined()
    })
  }
})

describe('a batch with an impossible date is rejected whole, located by its JSON path', () => {
  it('due_at, stale_at and a supersedes patch each name their path and reason', async () => {
    const repo = await setUp()
    const before = snapshot(repo)
    const batch = {
      batch_id: 'run-dates',
      declarations: [
        {
          op: 'new',
          id: 'tax',
          kind: 'request',
          weight: 2,
          summary: 'File the tax return.',
          due_at: '2026-02-30T00:00:00Z',
        },
        {op: 'supersedes', id: 'visa', kind: 'request', weight: 4, stale_at: '2027-02-29T12:00:00Z'},
        {op: 'supersedes', id: 'flight', kind: 'result', weight: 3, due_at: '2026-10-15T24:00:00Z'},
      ],
    }
    const error = await failure(commit(repo, batch, T(9)))
    expect([error.code, error.exitCode]).toEqual(['rejected', 6])
    const rule = 'must be an RFC 3339 timestamp such as 2026-10-12T00:00:00Z, or null'
    expect(error.data).toEqual({
      receipt: {
        status: 'rejected',
        batch_id: 'run-dates',
        event_seq: null,
        event: null,
        revision: 1,
        actor: 'agent-1',
        now: T(9),
        changes: emptyChanges,
        acknowledged: [],
        already_acknowledged: [],
        checked: false,
      },
      errors: [
        {
          path: 'declarations[0].due_at',
          code: 'invalid_value',
          data: null,
          message: `due_at ${rule}; day 30 does not exist: February 2026 has 28 days`,
        },
        {
          path: 'declarations[1].stale_at',
          code: 'invalid_value',
          data: null,
          message: `stale_at ${rule}; day 29 does not exist: February 2027 has 28 days`,
        },
        {
          path: 'declarations[2].due_at',
          code: 'invalid_value',
          data: null,
          message: `due_at ${rule}; hour 24 does not exist (00 to 23)`,
        },
      ],
    })
    expect(error.message).toContain('  - declarations[0].due_at: due_at must be an RFC 3339 timestamp')
    expect(snapshot(repo)).toEqual(before)
    expect(recordFiles(repo)).toEqual(['run-20261008-setup-00000001.json'])
  })

  it('a real leap day is kept as given', async () => {
    const repo = await setUp()
    const batch = {
      batch_id: 'run-leap',
      declarations: [
        {
          op: 'new',
          id: 'tax',
          kind: 'request',
          weight: 2,
          summary: 'File the tax return.',
          due_at: '2028-02-29T00:00:00Z',
        },
      ],
    }
    const r = await commit(repo, batch, T(9))
    expect(r.receipt.status).toBe('committed')
    const s = await boardState(repo.ctx(), {now: T(10)})
    expect(s.items.find(i => i.id === 'tax')?.due_at).toBe('2028-02-29T00:00:00Z')
  })
})

describe('--now with an impossible date is a usage error (exit 2), and nothing is written', () => {
  it('state, brief and commit refuse it, even for a batch that is itself invalid', async () => {
    const repo = await setUp()
    const before = snapshot(repo)
    const badBatch = {batch_id: 'run-bad', declarations: [{op: 'withdraw', id: 'pr-a', colour: 'red'}]}
    for (const now of [
      '2026-02-30T00:00:00Z',
      '2026-10-09T24:00:00Z',
      '2026-10-09T12:60:00Z',
      '2026-02-29T00:00:00Z',
    ]) {
      const message = `--now "${now}" is not an RFC 3339 timestamp. Fix: give one such as 2026-10-09T12:00:00Z.`
      for (const run of [
        boardState(repo.ctx(), {now}),
        boardBrief(repo.ctx(), {now}),
        commit(repo, {batch_id: 'run-now', declarations: []}, now),
        // Not a rejected receipt stamped with a rolled-over time.
        commit(repo, badBatch, now),
      ]) {
        const error = await failure(run)
        expect([error.code, error.exitCode, error.message]).toEqual(['usage', 2, message])
      }
    }
    expect(snapshot(repo)).toEqual(before)
    expect(recordFiles(repo)).toEqual(['run-20261008-setup-00000001.json'])
  })
})
