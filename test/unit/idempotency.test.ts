import {createHash} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {idempotencyKey} from '../../src/domain/card/idempotency.js'

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

describe('idempotencyKey', () => {
  it('is sha256 of JSON.stringify({source_session, type, slug}) in that key order', () => {
    const key = idempotencyKey(['session-1'], 'pitfall', 'deepmerge-array-replace-trap')
    expect(key).toBe(sha256('{"source_session":"session-1","type":"pitfall","slug":"deepmerge-array-replace-trap"}'))
    expect(key).toBe(
      sha256(JSON.stringify({source_session: 'session-1', type: 'pitfall', slug: 'deepmerge-array-replace-trap'})),
    )
    expect(key).toMatch(/^[0-9a-f]{64}$/)
  })

  it('ignores every session after the first', () => {
    const one = idempotencyKey(['session-1'], 'pitfall', 'deepmerge-array-replace-trap')
    expect(idempotencyKey(['session-1', 'session-2'], 'pitfall', 'deepmerge-array-replace-trap')).toBe(one)
    expect(idempotencyKey(['session-1', 'session-3', 'session-2'], 'pitfall', 'deepmerge-array-replace-trap')).toBe(one)
  })

  it('changes with the first session, the type or the slug', () => {
    const one = idempotencyKey(['session-1'], 'pitfall', 'deepmerge-array-replace-trap')
    expect(idempotencyKey(['session-2', 'session-1'], 'pitfall', 'deepmerge-array-replace-trap')).not.toBe(one)
    expect(idempotencyKey(['session-1'], 'decision', 'deepmerge-array-replace-trap')).not.toBe(one)
    expect(idempotencyKey(['session-1'], 'pitfall', 'deepmerge-array-concat-trap')).not.toBe(one)
  })

  it('hashes non-ASCII sessions as UTF-8 and omits a missing session', () => {
    expect(idempotencyKey(['会话-1'], 'model', 'wave-1-parallel-task-dag')).toBe(
      sha256('{"source_session":"会话-1","type":"model","slug":"wave-1-parallel-task-dag"}'),
    )
    expect(idempotencyKey([], 'model', 'wave-1-parallel-task-dag')).toBe(
      sha256('{"type":"model","slug":"wave-1-parallel-task-dag"}'),
    )
  })
})
