import {describe, expect, it} from 'vitest'
import {parseCard} from '../../src/domain/card/format.js'
import {orgCopy, pendingPathOf, promoteBranch, sameCard} from '../../src/domain/org-promote.js'

const text = (scope: string, extra = '') => `---
schema: cairn/card@6
id: cron-jobs-must-be-idempotent
type: guideline
status: active
title: Cron jobs must be idempotent
summary: A cron job may run twice; make it safe to.
scope:
  level: ${scope}
supersedes: [old-cron-rule]
deferred_until: 2026-12-20T00:00:00Z
evidence:
  paths: [src/cron.ts]
  verified_at: 2026-11-20T00:00:00Z
  verified_commit: ${'b'.repeat(40)}
provenance:
  source_sessions: []
  recent_paths: []
  proposed_by: alice
  promoted:
    layer: acme
    branch: cairn/promote/cron-jobs-must-be-idempotent
    commit: ${'a'.repeat(40)}
${extra}created: 2026-11-01T00:00:00Z
updated: 2026-11-02T00:00:00Z
approved:
  by: bob
  at: 2026-11-02T00:00:00Z
---
Body.
`
const NOW = '2026-11-29T10:00:00Z'

describe('org promote: the org store copy of a project card', () => {
  it('is pending again, without the project-only fields, keeping who proposed it and its evidence paths', () => {
    const copy = orgCopy(parseCard(text('project'), 'x.md'), {projectKey: 'github.com/acme/web', now: NOW})
    expect(copy).toMatchObject({
      status: 'pending',
      approved: null,
      supersedes: [],
      superseded_by: null,
      deferred_until: null,
      updated: NOW,
      created: '2026-11-01T00:00:00Z',
      evidence: {paths: ['src/cron.ts'], symbols: [], verified_at: null, verified_commit: null},
    })
    expect(copy.provenance).toMatchObject({promoted: null, proposed_by: 'alice'})
    expect(pendingPathOf(copy)).toBe('.cairn/pending/guideline/cron-jobs-must-be-idempotent.md')
  })

  it("gives a project-scoped card without a key this project's key; any other scope is kept as it is", () => {
    const scopeOf = (level: string, key: string | null) =>
      orgCopy(parseCard(text(level), 'x.md'), {projectKey: key, now: NOW}).scope
    expect(scopeOf('project', 'github.com/acme/web')).toMatchObject({
      level: 'project',
      project_key: 'github.com/acme/web',
    })
    expect(scopeOf('project', null)).toMatchObject({level: 'project', project_key: null})
    expect(scopeOf('global', 'github.com/acme/web')).toMatchObject({level: 'global', project_key: null})
    expect(scopeOf('project-family', 'github.com/acme/web')).toMatchObject({level: 'project-family', project_key: null})
    const named = 'project\n  project_key: github.com/acme/other'
    expect(scopeOf(named, 'github.com/acme/web')).toMatchObject({
      level: 'project',
      project_key: 'github.com/acme/other',
    })
  })

  it('tells the same card by type, title, summary and body, and names branches in order', () => {
    const a = parseCard(text('project'), 'x.md')
    expect(sameCard(a, {...a, status: 'pending', updated: NOW})).toBe(true)
    expect(sameCard(a, {...a, body: 'Body.\n\n'})).toBe(true)
    expect(sameCard(a, {...a, title: 'Cron jobs are idempotent'})).toBe(false)
    expect(sameCard(a, {...a, body: 'Another body.'})).toBe(false)
    expect([1, 2, 3].map(n => promoteBranch('x-y', n))).toEqual([
      'cairn/promote/x-y',
      'cairn/promote/x-y-2',
      'cairn/promote/x-y-3',
    ])
  })
})
