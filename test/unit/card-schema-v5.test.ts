import {describe, expect, it} from 'vitest'
import {validationFailure} from './expect-error.js'
import {parseCard, patchCard, renderCard} from '../../src/domain/card/format.js'

const card = (status: string, schema: string, extra = '') => `---
schema: ${schema}
id: deepmerge-array-replace-trap
type: pitfall
status: ${status} # waiting for review
title: deepMerge replaces arrays
summary: Arrays are replaced, not concatenated.
${extra}created: 2026-11-29T10:00:00Z
updated: 2026-11-29T10:00:00Z
---
body
`

describe('cairn/card@5: status pending', () => {
  it('reads status: pending in an @5 card and renders a pending card as @5', () => {
    const parsed = parseCard(card('pending', 'cairn/card@5'), 'pending/pitfall/x.md')
    expect(parsed).toMatchObject({schema: 'cairn/card@5', status: 'pending'})
    expect(renderCard(parsed)).toMatch(
      /^---\nschema: cairn\/card@5\nid: deepmerge-array-replace-trap\n.*\nstatus: pending\n/,
    )
  })

  it('refuses status: pending in an older format, naming the file, the field and the fix', () => {
    const e = validationFailure(() => parseCard(card('pending', 'cairn/card@4'), 'pending/pitfall/x.md'))
    expect(e.data).toEqual({
      issues: [
        {
          file: 'pending/pitfall/x.md',
          field: 'schema',
          message: 'is cairn/card@4, but status: pending needs cairn/card@5',
          fix: 'set schema: cairn/card@5',
        },
      ],
    })
  })

  it('reads a legacy status: draft card, in any format, as pending', () => {
    for (const schema of ['cairn/card@1', 'cairn/card@4', 'cairn/card@5'])
      expect(parseCard(card('draft', schema), 'pending/pitfall/x.md')).toMatchObject({schema, status: 'pending'})
  })

  it('rewrites a legacy draft card as pending: rendered whole, or patched in place keeping its comment', () => {
    const legacy = card('draft', 'cairn/card@1')
    const rendered = renderCard(parseCard(legacy, 'x.md'))
    expect(rendered).toMatch(
      /^---\nschema: cairn\/card@5\nid: deepmerge-array-replace-trap\ntype: pitfall\nstatus: pending\n/,
    )
    expect(parseCard(rendered, 'x.md')).toEqual({...parseCard(legacy, 'x.md'), schema: 'cairn/card@5'})
    const until = '2026-12-20T00:00:00Z'
    const patched = patchCard(legacy, 'x.md', [{path: ['deferred_until'], value: until}])
    expect(patched).toBe(
      `${card('pending', 'cairn/card@5').replace('---\nbody', `deferred_until: ${until}\n---\nbody`)}`,
    )
    expect(parseCard(patched, 'x.md')).toMatchObject({status: 'pending', deferred_until: until})
  })

  it('an approved card goes back to the oldest format that holds it', () => {
    const patched = patchCard(card('pending', 'cairn/card@5'), 'x.md', [{path: ['status'], value: 'active'}])
    expect(patched).toBe(card('active', 'cairn/card@1'))
    const from = 'provenance:\n  proposed_by: ann\n'
    const withOrigin = patchCard(card('pending', 'cairn/card@5', from), 'x.md', [{path: ['status'], value: 'active'}])
    expect(withOrigin).toBe(card('active', 'cairn/card@4', from))
  })

  it('names pending, never draft, among the statuses a card may have', () => {
    expect(validationFailure(() => parseCard(card('waiting', 'cairn/card@5'), 'x.md')).message).toContain(
      'x.md: status: "waiting" is not one of pending, active, deprecated, superseded. Fix: set status to pending, active, deprecated or superseded.',
    )
  })
})
