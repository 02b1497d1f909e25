import {describe, expect, it} from 'vitest'
import {validationFailure} from './expect-error.js'
import {parseCard, patchCard, renderCard} from '../../src/domain/card/format.js'

const card = (recall = '', schema = 'cairn/card@1') => `---
schema: ${schema}
id: deepmerge-array-replace-trap
type: pitfall
status: active
title: deepMerge replaces arrays
summary: Arrays are replaced, not concatenated.
${recall}created: 2026-11-29T10:00:00Z
updated: 2026-11-29T10:00:00Z
---
body
`

describe('cairn/card@2: recall.derived_triggers', () => {
  it('reads @2 and renders a card with derived triggers as @2, right after triggers', () => {
    const text = card('recall:\n  policy: should\n  derived_triggers: [deepMerge, replaces arrays]\n', 'cairn/card@2')
    const parsed = parseCard(text, 'c.md')
    expect(parsed.schema).toBe('cairn/card@2')
    expect(parsed.recall.derived_triggers).toEqual(['deepMerge', 'replaces arrays'])
    const rendered = renderCard({...parsed, recall: {...parsed.recall, triggers: ['x y']}})
    expect(rendered).toMatch(/^---\nschema: cairn\/card@2\n/)
    expect(rendered).toContain(
      'recall:\n  policy: should\n  risk: medium\n  confidence: medium\n  triggers: [x y]\n' +
        '  derived_triggers: [deepMerge, replaces arrays]\n  topics: []\n',
    )
    expect(parseCard(rendered, 'c.md').recall.triggers).toEqual(['x y'])
  })

  it('renders a card without derived triggers as @1 with no derived_triggers key, even when it was read as @2', () => {
    const parsed = parseCard(card('', 'cairn/card@2'), 'c.md')
    expect(parsed.recall.derived_triggers).toEqual([])
    const rendered = renderCard(parsed)
    expect(rendered).toMatch(/^---\nschema: cairn\/card@1\n/)
    expect(rendered).not.toContain('derived_triggers')
  })

  it('refuses an @1 card that uses derived_triggers, naming the file, the field schema and the fix', () => {
    const e = validationFailure(() =>
      parseCard(card('recall: {derived_triggers: [deepMerge]}\n'), 'pending/pitfall/x.md'),
    )
    expect(e.data).toEqual({
      issues: [
        {
          file: 'pending/pitfall/x.md',
          field: 'schema',
          message: 'is cairn/card@1, but recall.derived_triggers needs cairn/card@2',
          fix: 'set schema: cairn/card@2',
        },
      ],
    })
    expect(e.message).toBe(
      'Invalid card pending/pitfall/x.md:\n  - pending/pitfall/x.md: schema: is cairn/card@1, but ' +
        'recall.derived_triggers needs cairn/card@2. Fix: set schema: cairn/card@2.',
    )
  })

  it('limits derived triggers to 8 phrases of at most 80 characters, trimmed and non-empty', () => {
    const many = `recall: {derived_triggers: [${Array.from({length: 9}, (_, i) => `p${i}`).join(', ')}]}\n`
    expect(validationFailure(() => parseCard(card(many, 'cairn/card@2'), 'x.md')).message).toContain(
      'x.md: recall.derived_triggers: must hold at most 8 phrases',
    )
    const long = `recall: {derived_triggers: [${'a'.repeat(81)}]}\n`
    expect(validationFailure(() => parseCard(card(long, 'cairn/card@2'), 'x.md')).message).toContain(
      'x.md: recall.derived_triggers[0]: must be at most 80 characters',
    )
    const blank = 'recall: {derived_triggers: ["  "]}\n'
    expect(validationFailure(() => parseCard(card(blank, 'cairn/card@2'), 'x.md')).message).toContain(
      'x.md: recall.derived_triggers[0]: must not be empty',
    )
    expect(
      parseCard(card('recall: {derived_triggers: ["  padded  "]}\n', 'cairn/card@2'), 'x.md').recall.derived_triggers,
    ).toEqual(['padded'])
  })

  it('an unknown schema names every accepted value', () => {
    expect(validationFailure(() => parseCard(card('', 'cairn/card@7'), 'x.md')).message).toContain(
      'x.md: schema: "cairn/card@7" is not one of cairn/card@1, cairn/card@2, cairn/card@3, cairn/card@4, cairn/card@5, cairn/card@6. Fix: set schema to cairn/card@1, cairn/card@2, cairn/card@3, cairn/card@4, cairn/card@5 or cairn/card@6.',
    )
  })
})

describe('patchCard under recall', () => {
  it('adds derived triggers after triggers and moves the card to @2, keeping the rest of the file', () => {
    const text = card('recall: {policy: should, triggers: [], topics: [merge] } # tuned\n')
    const patched = patchCard(text, 'x.md', [
      [
        ['recall', 'derived_triggers'],
        ['deepMerge', 'replaces arrays'],
      ],
    ])
    expect(patched).toBe(
      text
        .replace('schema: cairn/card@1', 'schema: cairn/card@2')
        .replace(
          'recall: {policy: should, triggers: [], topics: [merge] } # tuned',
          'recall: {policy: should, triggers: [], derived_triggers: [deepMerge, replaces arrays], topics: [merge]} # tuned',
        ),
    )
    expect(parseCard(patched, 'x.md').recall.derived_triggers).toEqual(['deepMerge', 'replaces arrays'])
  })

  it('adds a recall block where a rendered card has it when the card has none', () => {
    const patched = patchCard(card(), 'x.md', [[['recall', 'derived_triggers'], ['deepMerge']]])
    expect(patched).toContain(
      'summary: Arrays are replaced, not concatenated.\nrecall:\n  derived_triggers: [deepMerge]\ncreated:',
    )
    expect(patched).toMatch(/^---\nschema: cairn\/card@2\n/)
  })

  it('clearing them removes the key and returns the card to @1', () => {
    const text = card('recall:\n  triggers: []\n  derived_triggers: [deepMerge]\n', 'cairn/card@2')
    const patched = patchCard(text, 'x.md', [
      [['recall', 'triggers'], ['deep merge arrays']],
      [['recall', 'derived_triggers'], []],
    ])
    expect(patched).toBe(card('recall:\n  triggers: [deep merge arrays]\n'))
  })
})
