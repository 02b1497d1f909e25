import {describe, expect, it} from 'vitest'
import {validationFailure} from './expect-error.js'
import {parseCard, patchCard, renderCard} from '../../src/domain/card/format.js'

const COMMIT = 'a'.repeat(40)
const PROMOTED = {layer: 'acme', branch: 'cairn/promote/deepmerge-array-replace-trap', commit: COMMIT}

const card = (schema: string, extra = '') => `---
schema: ${schema}
id: deepmerge-array-replace-trap
type: pitfall
status: active
title: deepMerge replaces arrays
summary: Arrays are replaced, not concatenated.
${extra}created: 2026-11-29T10:00:00Z
updated: 2026-11-29T10:00:00Z
---
body
`

const promotedYaml = `provenance:
  source_sessions: []
  recent_paths: []
  promoted:
    layer: acme
    branch: cairn/promote/deepmerge-array-replace-trap
    commit: ${COMMIT}
`

describe('cairn/card@6: provenance.promoted', () => {
  it('reads provenance.promoted in an @6 card, and renders it back byte for byte as @6', () => {
    const parsed = parseCard(card('cairn/card@6', promotedYaml), 'cards/pitfall/x.md')
    expect(parsed.schema).toBe('cairn/card@6')
    expect(parsed.provenance.promoted).toEqual(PROMOTED)
    const rendered = renderCard(parsed)
    expect(rendered).toMatch(/^---\nschema: cairn\/card@6\n/)
    expect(rendered).toContain(
      `  promoted:\n    layer: acme\n    branch: cairn/promote/deepmerge-array-replace-trap\n    commit: ${COMMIT}\n`,
    )
    expect(parseCard(rendered, 'x.md')).toEqual(parsed)
  })

  it('renders a card without the field in the oldest format that holds it, leaving the field out', () => {
    const parsed = parseCard(card('cairn/card@1'), 'x.md')
    expect(parsed.provenance.promoted).toBeNull()
    const rendered = renderCard(parsed)
    expect(rendered).toMatch(/^---\nschema: cairn\/card@1\n/)
    expect(rendered).not.toContain('promoted')
  })

  it('refuses provenance.promoted in an older format, naming the file, the field and the fix', () => {
    const e = validationFailure(() => parseCard(card('cairn/card@5', promotedYaml), 'cards/pitfall/x.md'))
    expect(e.data).toEqual({
      issues: [
        {
          file: 'cards/pitfall/x.md',
          field: 'schema',
          message: 'is cairn/card@5, but provenance.promoted needs cairn/card@6',
          fix: 'set schema: cairn/card@6',
        },
      ],
    })
  })

  it('refuses a promoted record with a short commit or an unknown key', () => {
    const short = promotedYaml.replace(COMMIT, 'abc123')
    expect(validationFailure(() => parseCard(card('cairn/card@6', short), 'x.md')).message).toContain(
      'provenance.promoted.commit',
    )
    const extra = `${promotedYaml}    url: /tmp/org.git\n`
    expect(validationFailure(() => parseCard(card('cairn/card@6', extra), 'x.md')).message).toContain(
      'provenance.promoted',
    )
  })

  it('a patch that sets the field moves the schema line to @6, keeping the rest of the file', () => {
    const before = card('cairn/card@1', 'provenance:\n  source_sessions: []\n  recent_paths: []\n')
    const patched = patchCard(before, 'x.md', [{path: ['provenance', 'promoted'], value: PROMOTED}])
    expect(patched).toBe(card('cairn/card@6', promotedYaml))
    expect(parseCard(patched, 'x.md').provenance.promoted).toEqual(PROMOTED)
  })
})
