import {describe, expect, it} from 'vitest'
import {doc, gate, ids, run} from './recall-fixtures.js'

const git = (over: Record<string, any> = {}) =>
  doc({
    id: 'git-commit-scope-check',
    title: 'Check the commit scope',
    recall: {triggers: ['git status', 'commit scope']},
    ...over,
  })

describe('gates', () => {
  it('scope: global always passes; project needs the same key; project-family the same owner', () => {
    const cards = [
      git({id: 'global-scope-git-card', scope: {level: 'global'}}),
      git({id: 'project-scope-git-card', scope: {level: 'project', project_key: 'github.com/acme/app'}}),
      git({id: 'family-scope-git-card', scope: {level: 'project-family', project_key: 'github.com/acme/other'}}),
    ]
    expect(ids(run(cards, 'run git status', {projectKey: 'github.com/acme/app'})).sort()).toEqual([
      'family-scope-git-card',
      'global-scope-git-card',
      'project-scope-git-card',
    ])
    const elsewhere = run(cards, 'run git status', {projectKey: 'github.com/other/app'})
    expect(ids(elsewhere)).toEqual(['global-scope-git-card'])
    expect(gate(elsewhere, 'project-scope-git-card', 'scope')).toMatchObject({pass: false})
    expect(gate(elsewhere, 'family-scope-git-card', 'scope')).toMatchObject({pass: false})
  })

  it('scope: with no project key, a project card passes only from the project store', () => {
    const scoped = {level: 'project', project_key: 'github.com/acme/app'}
    expect(ids(run([git({scope: scoped})], 'run git status'))).toEqual(['git-commit-scope-check'])
    expect(
      ids(
        run(
          [doc({id: 'git-commit-scope-check', recall: {triggers: ['git status']}, scope: scoped}, {store: 'personal'})],
          'run git status',
        ),
      ),
    ).toEqual([])
  })

  it('module_path: a request with paths needs one under the module; without paths the gate does not apply', () => {
    const web = git({scope: {level: 'global', module_path: 'apps/web'}})
    expect(ids(run([web], 'run git status', {paths: ['apps/web/src/a.ts']}))).toEqual(['git-commit-scope-check'])
    const r = run([web], 'run git status', {paths: ['apps/api/src/a.ts']})
    expect(ids(r)).toEqual([])
    expect(gate(r, 'git-commit-scope-check', 'module_path')).toMatchObject({pass: false})
    expect(ids(run([web], 'run git status'))).toEqual(['git-commit-scope-check'])
  })

  it('paths: picomatch globs against the request paths', () => {
    const narrow = git({scope: {level: 'global', paths: ['src/config/**/*.ts']}})
    expect(ids(run([narrow], 'run git status', {paths: ['src/config/deep/json.ts']}))).toEqual([
      'git-commit-scope-check',
    ])
    expect(
      gate(run([narrow], 'run git status', {paths: ['docs/readme.md']}), 'git-commit-scope-check', 'paths'),
    ).toMatchObject({pass: false})
    expect(ids(run([narrow], 'run git status'))).toEqual(['git-commit-scope-check'])
  })

  it('ignore_when: the exact normalised phrase anywhere in the prompt is a hard exclusion', () => {
    const card = doc({
      id: 'frontend-browser-validation',
      recall: {triggers: ['浏览器验证', 'browser validation']},
      criteria: {use_when: ['浏览器验证'], ignore_when: ['只改文档']},
    })
    expect(ids(run([card], '前端改完做浏览器验证'))).toEqual(['frontend-browser-validation'])
    for (const prompt of [
      '前端改完做浏览器验证，这次只改文档',
      '只改文档：浏览器验证 browser validation 浏览器验证',
      '比如只改文档的时候也要浏览器验证',
      'ＯＫ，只改文档。浏览器验证',
    ]) {
      const r = run([card], prompt)
      expect(ids(r), prompt).toEqual([])
      expect(gate(r, 'frontend-browser-validation', 'ignore_when')).toMatchObject({
        pass: false,
        detail: 'prompt contains "只改文档"',
      })
    }
  })

  it('positive: a gating signal named by the card must fire; an unknown id is ignored', () => {
    const ui = doc({
      id: 'real-browser-validation',
      recall: {triggers: ['validate the result']},
      engine_hints: {positive: ['ui_surface', 'no_such_signal']},
    })
    expect(ids(run([ui], 'fix the page and validate the result'))).toEqual(['real-browser-validation'])
    const r = run([ui], 'fix the parser and validate the result')
    expect(ids(r)).toEqual([])
    expect(gate(r, 'real-browser-validation', 'positive')).toMatchObject({
      pass: false,
      detail: 'none of ui_surface fired; ignored unknown no_such_signal',
    })
    const unknownOnly = doc({
      id: 'real-browser-validation',
      recall: {triggers: ['validate the result']},
      engine_hints: {positive: ['no_such_signal']},
    })
    expect(ids(run([unknownOnly], 'fix the parser and validate the result'))).toEqual(['real-browser-validation'])
  })

  it('positive: a signal seen only inside "this is not ..." does not fire', () => {
    const p = doc({
      id: 'provider-adapter-boundary',
      recall: {triggers: ['shared runtime']},
      engine_hints: {positive: ['provider_adapter_boundary']},
    })
    expect(ids(run([p], 'use the shared runtime for the Claude hook'))).toEqual(['provider-adapter-boundary'])
    expect(ids(run([p], 'use the shared runtime; this is not a Claude hook change'))).toEqual([])
  })

  it('required_all: every known signal must fire', () => {
    const both = doc({
      id: 'frontend-commit-checklist',
      recall: {triggers: ['ship it']},
      engine_hints: {required_all: ['ui_surface', 'worktree_diff_operation']},
    })
    expect(ids(run([both], 'ship it: the page fix, then git commit'))).toEqual(['frontend-commit-checklist'])
    const r = run([both], 'ship it: the page fix')
    expect(ids(r)).toEqual([])
    expect(gate(r, 'frontend-commit-checklist', 'required_all')).toMatchObject({
      pass: false,
      detail: 'missing worktree_diff_operation',
    })
  })

  it('negative: a fired negative signal excludes a card only when it targets one of its positive signals', () => {
    const targeted = doc({
      id: 'real-browser-validation',
      recall: {triggers: ['ui wording']},
      engine_hints: {positive: ['ui_surface'], negative: ['ui_surface_noise']},
    })
    const untargeted = doc({
      id: 'wording-review-checklist',
      recall: {triggers: ['ui wording']},
      engine_hints: {positive: ['worktree_diff_operation'], negative: ['ui_surface_noise']},
    })
    const r = run([targeted, untargeted], 'review the ui wording on the page before the git commit')
    expect(gate(r, 'real-browser-validation', 'negative')).toMatchObject({pass: false})
    expect(gate(r, 'wording-review-checklist', 'negative')).toMatchObject({pass: true})
    expect(ids(r)).toEqual(['wording-review-checklist'])
  })

  it('project signals from signals.yaml gate like built-in ones', () => {
    const pay = doc({
      id: 'refund-flow-audit-trail',
      recall: {triggers: ['audit trail']},
      engine_hints: {positive: ['payment_flow']},
    })
    const signals = [
      {
        id: 'payment_flow',
        polarity: 'positive' as const,
        gating: true,
        description: 'Payments.',
        patterns: {en: ['\\brefunds?\\b'], zh: ['退款']},
        targets: [],
        source: 'project' as const,
        pack: null,
      },
    ]
    expect(ids(run([pay], 'add an audit trail to refunds', {signals}))).toEqual(['refund-flow-audit-trail'])
    expect(ids(run([pay], 'add an audit trail to logins', {signals}))).toEqual([])
  })
})
