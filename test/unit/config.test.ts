import {describe, expect, it} from 'vitest'
import {validationFailure} from './expect-error.js'
import {parseYaml} from '../../src/domain/yaml.js'
import {DEFAULT_CONFIG, DEFAULT_CONFIG_YAML, parseConfig} from '../../src/domain/config.js'

const FILE = '.cairn/config.yaml'

describe('config', () => {
  it('DEFAULT_CONFIG has the documented defaults', () => {
    expect(DEFAULT_CONFIG).toEqual({
      schema: 'cairn/config@1',
      project_key: null,
      knowledge_language: 'en',
      commit: {enabled: true, verify: false},
      core_budget: 8000,
      stale_days: 180,
      recall: {max_cards: 4, budget_chars: 2400, catalog_budget: 3000},
      hooks: {enforce_must: false, deadline_ms: 1500},
      signals: {archive_min_events: 5, archive_min_hours: 24, review_max_pending: 10, review_max_age_days: 7},
      archive: {max_candidates_per_batch: 8, max_recent_paths: 20, digest_max_sessions: 10},
      review: {require_decision: false},
      secrets: {allow: []},
      board: {budget: 100, weight_shares: {1: 3, 2: 6, 3: 12, 4: 20, 5: 30}, fold_below: 3},
    })
  })

  it('DEFAULT_CONFIG_YAML spells out exactly DEFAULT_CONFIG, with nothing left to defaults', () => {
    const raw = parseYaml(DEFAULT_CONFIG_YAML, FILE)
    expect(raw).toEqual(DEFAULT_CONFIG)
    expect(parseConfig(raw, FILE)).toEqual(DEFAULT_CONFIG)
  })

  it('an empty file means every default', () => {
    expect(parseConfig(parseYaml('', FILE), FILE)).toEqual(DEFAULT_CONFIG)
    expect(parseConfig({}, FILE)).toEqual(DEFAULT_CONFIG)
  })

  it('accepts the `commit: false` and `commit: true` shorthands', () => {
    expect(parseConfig(parseYaml('commit: false\n', FILE), FILE).commit).toEqual({enabled: false, verify: false})
    expect(parseConfig({commit: true}, FILE).commit).toEqual({enabled: true, verify: false})
    expect(parseConfig({commit: {verify: true}}, FILE).commit).toEqual({enabled: true, verify: true})
  })

  it('review.require_decision is a boolean; an unknown review key is named', () => {
    expect(parseConfig(parseYaml('review:\n  require_decision: true\n', FILE), FILE).review).toEqual({require_decision: true})
    const e = validationFailure(() => parseConfig({review: {require_decisions: true}}, FILE))
    expect(e.data).toEqual({issues: [{file: FILE, field: 'review.require_decisions', message: 'unknown field', fix: 'remove "require_decisions" or check its spelling'}]})
    const typed = validationFailure(() => parseConfig({review: {require_decision: 'yes'}}, FILE))
    expect((typed.data as {issues: {field: string}[]}).issues.map(i => i.field)).toEqual(['review.require_decision'])
  })

  it('rejects an unknown key, naming it', () => {
    const e = validationFailure(() => parseConfig(parseYaml('core_budget: 100\ncolour: red\n', FILE), FILE))
    expect(e.message).toBe('.cairn/config.yaml: invalid config:\n  - .cairn/config.yaml: colour: unknown field. Fix: remove "colour" or check its spelling')
  })

  it('names a nested unknown key with its full path', () => {
    const e = validationFailure(() => parseConfig({recall: {max_card: 2}}, FILE))
    expect(e.data).toEqual({issues: [{file: FILE, field: 'recall.max_card', message: 'unknown field', fix: 'remove "max_card" or check its spelling'}]})
  })

  it('rejects values of the wrong type or out of range, all at once', () => {
    const e = validationFailure(() => parseConfig({core_budget: 'lots', stale_days: 0, knowledge_language: 'fr'}, FILE))
    const issues = (e.data as {issues: {field: string}[]}).issues
    expect(issues.map(i => i.field)).toEqual(['knowledge_language', 'core_budget', 'stale_days'])
    expect(e.message).toContain('knowledge_language: has an invalid value. Fix: use one of "en", "zh-CN"')
  })
})
