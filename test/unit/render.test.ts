import {describe, expect, it} from 'vitest'
import {parseCard, renderCard} from '../../src/domain/card/format.js'
import {buildCard, parseProposals} from '../../src/domain/propose.js'

const card = buildCard(
  parseProposals(
    {
      slug: 'deepmerge-array-replace-trap',
      type: 'pitfall',
      title: 'deepMerge replaces arrays',
      category: 'config',
      summary: 'When deepMerge merges hook config, arrays are replaced, not concatenated; merge hook arrays by hand.',
      rule: 'Merge hook arrays explicitly:\n```js\nhooks.Stop = [...base.Stop, ...ours.Stop]\n```',
      criteria: {use_when: ['merging settings.json'], ignore_when: ['plain objects only']},
      recall: {
        policy: 'should',
        risk: 'high',
        triggers: ['deepMerge settings.json hooks array', 'merge claude hook config arrays', 'stop hook missing'],
      },
      keywords: ['deepmerge', 'hooks'],
      source_sessions: ['session-1'],
      recent_paths: ['src/config/merge.ts'],
      relevance_scope: 'narrow',
      edit_paths: ['src/config/merge.ts', 'src/config/load.ts', 'README.md'],
      session_context: 'Goal: wire hooks.\nTurning point: arrays vanished.',
      proposed_reason: 'pitfall observed',
    },
    'in.json',
  )[0],
  {now: '2026-11-29T10:00:00Z', projectKey: 'github.com/acme/widgets', defaultLanguage: 'en', maxRecentPaths: 20},
)

// Canonical field order, flow style for short scalar lists, block style for long ones, no line folding.
const EXPECTED = `---
schema: cairn/card@5
id: deepmerge-array-replace-trap
type: pitfall
status: pending
title: deepMerge replaces arrays
category: config
summary: When deepMerge merges hook config, arrays are replaced, not concatenated; merge hook arrays by hand.
load: recall
criteria:
  use_when: [merging settings.json]
  ignore_when: [plain objects only]
engine_hints:
  positive: []
  required_all: []
  negative: []
recall:
  policy: should
  risk: high
  confidence: medium
  triggers:
    - deepMerge settings.json hooks array
    - merge claude hook config arrays
    - stop hook missing
  topics: []
  aliases:
    en: []
    zh: []
scope:
  level: project
  project_key: github.com/acme/widgets
  module_path: null
  paths: [src/config/**/*.ts]
language: en
keywords: [deepmerge, hooks]
links: []
protected: false
supersedes: []
superseded_by: null
deferred_until: null
provenance:
  source_sessions: [session-1]
  proposed_reason: pitfall observed
  session_context: |-
    Goal: wire hooks.
    Turning point: arrays vanished.
  recent_paths: [src/config/merge.ts]
  user_messages_summary: null
  idempotency_key: 897caa7eba42c556fc4c3e5ebc8373622cf681c03be6ceedcfcf4ea1b098b51a
created: 2026-11-29T10:00:00Z
updated: 2026-11-29T10:00:00Z
approved: null
---

## Problem

When deepMerge merges hook config, arrays are replaced, not concatenated; merge hook arrays by hand.

## Criteria

Use when:
- merging settings.json

Ignore when:
- plain objects only

Recall policy: should.
Risk: high.

## Rule

\`\`\`\`text
Merge hook arrays explicitly:
\`\`\`js
hooks.Stop = [...base.Stop, ...ours.Stop]
\`\`\`
\`\`\`\`

## Evidence

- Proposed reason: pitfall observed
- Source sessions: session-1
- Recent paths: \`src/config/merge.ts\`

Session context:

> Goal: wire hooks.
> Turning point: arrays vanished.
`

describe('renderCard', () => {
  it('renders a fixed card exactly', () => {
    expect(renderCard(card)).toBe(EXPECTED)
  })

  it('parses the expected text back to the same card', () => {
    expect(parseCard(EXPECTED, 'pending/pitfall/deepmerge-array-replace-trap.md')).toEqual(card)
  })
})
