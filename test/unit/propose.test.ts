import {describe, expect, it} from 'vitest'
import {idempotencyKey} from '../../src/domain/card/idempotency.js'
import {getSection} from '../../src/domain/card/sections.js'
import {CairnError, type Issue} from '../../src/domain/errors.js'
import {buildCard, mergeEvidence, parseProposals, type ProposalEnv} from '../../src/domain/propose.js'

const env: ProposalEnv = {
  now: '2026-11-29T10:00:00Z',
  projectKey: 'github.com/acme/widgets',
  repoRoot: '/repo',
  defaultLanguage: 'en',
  maxRecentPaths: 3,
}
const base = {
  slug: 'deepmerge-array-replace-trap',
  type: 'pitfall',
  title: 'deepMerge replaces arrays',
  summary: 'Arrays are replaced, not concatenated.',
}
const build = (extra: Record<string, unknown>, e: ProposalEnv = env) =>
  buildCard(parseProposals({...base, ...extra}, 'in.json')[0], e)

function issuesOf(raw: unknown): {message: string; issues: Issue[]} {
  try {
    parseProposals(raw, 'in.json')
  } catch (error) {
    expect(error).toBeInstanceOf(CairnError)
    expect((error as CairnError).code).toBe('validation')
    return {message: (error as Error).message, issues: ((error as CairnError).data as {issues: Issue[]}).issues}
  }
  throw new Error('expected a validation error')
}

describe('parseProposals', () => {
  it('reports every problem of every item at once, with indexed field paths', () => {
    const {message, issues} = issuesOf([
      base,
      {...base, slug: 'fix', type: 'bogus'},
      {slug: 'wave-1-parallel-task-dag', type: 'model', summary: 's', colour: 'red'},
      'not an object',
      {...base, slug: 'deepmerge-array-replace-trap', id: 'other-array-replace-trap'},
    ])
    expect(issues.map(i => i.field)).toEqual(['[1].slug', '[1].type', '[2].title', '[2].colour', '[3]', '[4].id'])
    expect(issues[0]).toEqual({
      file: 'in.json',
      field: '[1].slug',
      message: 'slug "fix" breaks rule 2 (2–5 words; it has 1)',
      fix: 'try "fix-deep-merge-replaces"',
    })
    expect(issues[1]).toEqual({
      file: 'in.json',
      field: '[1].type',
      message: '"bogus" is not a card type',
      fix: 'use one of model, decision, guideline, pitfall, process (plural forms are accepted)',
    })
    expect(issues[2]).toEqual({
      file: 'in.json',
      field: '[2].title',
      message: 'is required',
      fix: 'add "[2].title": text',
    })
    expect(issues[3]).toEqual({
      file: 'in.json',
      field: '[2].colour',
      message: 'unknown field',
      fix: 'remove "colour", or check its spelling',
    })
    expect(message.startsWith('Invalid proposal in in.json:\n  - in.json: [1].slug: slug "fix" breaks rule 2')).toBe(
      true,
    )
  })

  it('suggests a slug in the fix when one can be made', () => {
    const {issues} = issuesOf({...base, slug: 'The_DeepMerge_Array_Trap'})
    expect(issues).toEqual([
      {
        file: 'in.json',
        field: 'slug',
        message: expect.stringContaining('breaks rule 1'),
        fix: 'try "deep-merge-array-trap"',
      },
    ])
  })

  it('rejects an unknown field of a single object without an index', () => {
    expect(issuesOf({...base, colour: 'red'}).issues).toEqual([
      {file: 'in.json', field: 'colour', message: 'unknown field', fix: 'remove "colour", or check its spelling'},
    ])
    expect(issuesOf([{...base, scope: {pathz: []}}]).issues.map(i => i.field)).toEqual(['[0].scope.pathz'])
  })

  it('requires a slug (or id) and a non-empty array', () => {
    const {slug: _, ...noSlug} = base
    expect(issuesOf(noSlug).issues.map(i => [i.field, i.message])).toEqual([['slug', 'is required']])
    expect(parseProposals({...noSlug, id: base.slug}, 'in.json')[0].id).toBe(base.slug)
    expect(issuesOf([]).issues.map(i => i.field)).toEqual(['(root)'])
  })

  it('accepts plural and capitalised types, and buildCard normalises them', () => {
    const parsed = parseProposals(
      [
        {...base, type: 'pitfalls'},
        {...base, type: 'Decisions'},
        {...base, type: 'processes'},
      ],
      'in.json',
    )
    expect(parsed.map(p => buildCard(p, env).type)).toEqual(['pitfall', 'decision', 'process'])
  })
})

describe('buildCard', () => {
  it('forces a personal card to global scope with no paths', () => {
    const card = build({
      layer: 'personal',
      relevance_scope: 'narrow',
      edit_paths: ['src/a.ts'],
      scope: {level: 'project', module_path: 'apps/web', paths: ['src/**']},
    })
    expect(card.scope).toEqual({level: 'global', project_key: null, module_path: null, paths: []})
  })

  it('derives narrow paths from recent_paths alone (seed 000 worked example)', () => {
    const recent = [
      'packages/server/src/services/extract.ts',
      'packages/server/src/services/review.ts',
      'packages/server/src/services/promote.ts',
      'packages/cli/src/commands/plan.ts',
      'README.md',
    ]
    const card = build({relevance_scope: 'narrow', recent_paths: recent})
    expect(card.scope).toEqual({
      level: 'project',
      project_key: 'github.com/acme/widgets',
      module_path: null,
      paths: ['packages/server/src/services/**/*.ts', 'packages/cli/src/commands/plan.ts'],
    })
    expect(card.provenance.recent_paths).toEqual(recent.slice(-3))
  })

  it('prefers edit_paths, and refuses absolute ones (they must be repo-relative)', () => {
    expect(
      build({relevance_scope: 'narrow', edit_paths: ['src/a.ts'], recent_paths: ['lib/b.ts']}).scope.paths,
    ).toEqual(['src/a.ts'])
    expect(issuesOf({...base, edit_paths: ['/repo/src/a.ts']}).issues.map(i => [i.field, i.message])).toEqual([
      ['edit_paths[0]', 'is an absolute path'],
    ])
  })

  it('gives broad cards no paths, and keeps explicit relevance_paths for narrow ones', () => {
    expect(
      build({relevance_scope: 'broad', relevance_paths: ['src/**'], edit_paths: ['src/a.ts']}).scope.paths,
    ).toEqual([])
    expect(
      build({relevance_scope: 'narrow', relevance_paths: ['src/**'], edit_paths: ['src/a.ts']}).scope.paths,
    ).toEqual(['src/**'])
    expect(build({edit_paths: ['src/a.ts']}).scope.paths).toEqual([])
  })

  it('sets the idempotency key from the first session, type and slug', () => {
    const card = build({type: 'pitfalls', source_sessions: ['s1', 's2']})
    expect(card.provenance.idempotency_key).toBe(idempotencyKey(['s1'], 'pitfall', 'deepmerge-array-replace-trap'))
  })
})

describe('mergeEvidence', () => {
  const existing = build({
    source_sessions: ['s1'],
    recent_paths: ['src/a.ts'],
    session_context: 'Goal: wire hooks.',
    proposed_reason: 'first',
  })
  const later: ProposalEnv = {...env, now: '2026-12-01T09:00:00Z'}

  it('unions sessions and paths, joins context, and rewrites only the evidence section', () => {
    const incoming = build(
      {
        source_sessions: ['s1', 's2'],
        recent_paths: ['src/a.ts', 'src/b.ts'],
        session_context: 'Turning point: arrays vanished.',
        proposed_reason: 'second',
      },
      later,
    )
    const {card, changed} = mergeEvidence(existing, incoming, later)
    expect(changed).toBe(true)
    expect(card.provenance).toEqual({
      source_sessions: ['s1', 's2'],
      proposed_reason: 'first',
      session_context: 'Goal: wire hooks.\n\nTurning point: arrays vanished.',
      recent_paths: ['src/a.ts', 'src/b.ts'],
      user_messages_summary: null,
      idempotency_key: existing.provenance.idempotency_key,
      // Who proposed it first stays (this env names no origin, so there is none).
      proposed_by: null,
      client: null,
      via: null,
      session: null,
      promoted: null,
    })
    expect(card.updated).toBe('2026-12-01T09:00:00Z')
    expect(card.created).toBe('2026-11-29T10:00:00Z')
    expect(getSection(card.body, 'evidence')).toBe(
      '- Proposed reason: first\n- Source sessions: s1, s2\n- Recent paths: `src/a.ts`, `src/b.ts`\n\nSession context:\n\n> Goal: wire hooks.\n>\n> Turning point: arrays vanished.',
    )
    const head = existing.body.slice(0, existing.body.indexOf('## Evidence'))
    expect(card.body.startsWith(head)).toBe(true)
  })

  it('caps merged recent paths to the newest maxRecentPaths', () => {
    const incoming = build({source_sessions: ['s2'], recent_paths: ['src/b.ts', 'src/c.ts', 'src/d.ts']})
    expect(mergeEvidence(existing, incoming, env).card.provenance.recent_paths).toEqual([
      'src/b.ts',
      'src/c.ts',
      'src/d.ts',
    ])
  })

  it('reports changed=false and returns the existing card when nothing is new', () => {
    const same = build(
      {source_sessions: ['s1'], recent_paths: ['src/a.ts'], session_context: 'Goal: wire hooks.'},
      later,
    )
    const result = mergeEvidence(existing, same, later)
    expect(result.changed).toBe(false)
    expect(result.card).toBe(existing)
    expect(mergeEvidence(existing, build({}), later).changed).toBe(false)
  })
})
