import {describe, expect, it} from 'vitest'
import {applyBatch} from '../../src/domain/board/apply.js'
import {parseJsonLocated} from '../../src/domain/board/json.js'
import {parseCommitRequest} from '../../src/domain/board/request.js'
import {differingFields} from '../../src/domain/board/retry.js'
import {DEFAULT_BOARD_SETTINGS} from '../../src/domain/board/scale.js'
import {applyEffects, parseRecordFile, RECORD_SCHEMA, serializeRecord} from '../../src/domain/board/state.js'
import {formatDuration, normalizeTimestamp} from '../../src/domain/board/time.js'
import {type CommitRequest, emptyState} from '../../src/domain/board/types.js'
import {viewState} from '../../src/domain/board/view.js'

const NOW = '2026-10-09T12:00:00Z'

function request(declarations: unknown[], acknowledges: string[] = [], batch_id = 'b-1'): CommitRequest {
  const r = parseCommitRequest({batch_id, declarations, acknowledges}, 'agent')
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.request
}

describe('batch request validation', () => {
  it('names the JSON path of each problem', () => {
    const r = parseCommitRequest(
      {
        batch_id: 'b',
        declarations: [
          {op: 'new', id: 'a', kind: 'request', weight: 5, summary: 's'},
          {op: 'supersedes', id: 'a', kind: 'request'},
          {op: 'explode', id: 'a'},
          {op: 'supersedes', id: 'a', kind: 'request', weight: 9, summary: null, colour: 'red'},
          {op: 'merges', id: 'm', from: ['a', 'b'], kind: 'result', weight: 2, summary: 's', children: []},
        ],
        acknowledges: ['x'],
      },
      'agent',
    )
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.errors.map(e => [e.path, e.code])).toEqual([
      ['declarations[1].weight', 'required'],
      ['declarations[2].op', 'unknown_op'],
      ['declarations[3].weight', 'invalid_value'],
      ['declarations[3].summary', 'null_not_allowed'],
      ['declarations[3].colour', 'unknown_field'],
      ['declarations[4].children', 'not_allowed'],
      ['acknowledges[0]', 'invalid_value'],
    ])
    expect(r.errors[1].message).toBe('unknown op "explode"; use one of new, supersedes, children, merges, withdraw')
  })

  it('normalises timestamps and keeps omitted fields omitted', () => {
    const r = request([{op: 'supersedes', id: 'a', kind: 'result', weight: 2, due_at: '2026-10-12T02:00:00+02:00'}])
    expect(r.declarations).toEqual([
      {op: 'supersedes', id: 'a', kind: 'result', weight: 2, due_at: '2026-10-12T00:00:00Z'},
    ])
  })
})

describe('applying a batch', () => {
  it('derives shares from weights, ranks by share, weight, updated_at, id', () => {
    const r = applyBatch(
      emptyState(),
      request([
        {op: 'new', id: 'b', kind: 'result', weight: 2, summary: 'B'},
        {op: 'new', id: 'a', kind: 'result', weight: 2, summary: 'A'},
        {op: 'new', id: 'c', kind: 'request', weight: 4, summary: 'C', share: 5, reason: 'small but heavy'},
        {op: 'new', id: 'd', kind: 'request', weight: 5, summary: 'D'},
      ]),
      NOW,
      DEFAULT_BOARD_SETTINGS,
    )
    if (!r.ok) throw new Error(JSON.stringify(r.errors))
    const view = viewState(applyEffects(emptyState(), r.effects), DEFAULT_BOARD_SETTINGS, NOW)
    expect(view.items.map(i => [i.id, i.share, i.derived_share, i.rank])).toEqual([
      ['d', 30, 30, 1],
      ['a', 6, 6, 2],
      ['b', 6, 6, 3],
      ['c', 5, 20, 4],
    ])
    expect(view.layers).toEqual([
      {parent: null, budget: 100, used: 47, free: 53, over_budget: false, items: ['d', 'a', 'b', 'c']},
    ])
  })

  it('rejects a batch that takes a layer over budget, with the numbers', () => {
    const r = applyBatch(
      emptyState(),
      request([1, 2, 3, 4].map(n => ({op: 'new', id: `i${n}`, kind: 'request', weight: 5, summary: 'x'}))),
      NOW,
      DEFAULT_BOARD_SETTINGS,
    )
    expect(r).toEqual({
      ok: false,
      errors: [
        {
          path: 'declarations[0]',
          code: 'over_budget',
          message:
            'the root layer would use 120 of its budget 100: i1 30, i2 30, i3 30, i4 30. Lower weights or shares, or withdraw items; the whole batch was rejected',
          data: {
            layer: null,
            used: 120,
            budget: 100,
            items: [1, 2, 3, 4].map(n => ({id: `i${n}`, weight: 5, share: 30, share_override: null})),
          },
        },
      ],
    })
  })

  it('record text round-trips; the key is the file name, not part of the text', () => {
    const record = {
      schema: RECORD_SCHEMA as typeof RECORD_SCHEMA,
      key: 'b-1-0000abcd',
      clock: 3,
      parents: ['b-0-00001234'],
      now: NOW,
      request: request([{op: 'new', id: 'a', kind: 'result', weight: 2, summary: 'A'}]),
    }
    const text = serializeRecord(record)
    expect(text).not.toContain('0000abcd')
    expect(parseRecordFile(text, 'b-1-0000abcd', 'x.json')).toEqual({legacy: false, record})
  })
})

describe('helpers', () => {
  it('a retry differs by JSON path, never by now', () => {
    const a = request([{op: 'new', id: 'a', kind: 'result', weight: 2, summary: 'A'}])
    const b = request([
      {op: 'new', id: 'a', kind: 'result', weight: 3, summary: 'A'},
      {op: 'withdraw', id: 'z'},
    ])
    expect(differingFields(a, a)).toEqual([])
    expect(differingFields(a, b)).toEqual(['declarations[0].weight', 'declarations[1]'])
  })

  it('locates JSON syntax errors', () => {
    expect(parseJsonLocated('{"a": 1,\n "b" }')).toEqual({
      ok: false,
      line: 2,
      column: 6,
      message: 'expected ":" after the property name, found "}"',
    })
    expect(parseJsonLocated('[1, 2,]')).toEqual({
      ok: false,
      line: 1,
      column: 7,
      message: 'expected a JSON value, found "]"',
    })
  })

  it('formats durations and timestamps', () => {
    expect([0, 59, 60, 3600, 3660, 86400, 90000, -200000].map(formatDuration)).toEqual([
      '0m',
      '0m',
      '1m',
      '1h',
      '1h 1m',
      '1d',
      '1d 1h',
      '2d 7h',
    ])
    expect(normalizeTimestamp('2026-10-09T12:00:00.000+01:00')).toBe('2026-10-09T11:00:00Z')
    expect(normalizeTimestamp('2026-10-09')).toBeUndefined()
  })
})
