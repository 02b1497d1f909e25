import {describe, expect, it} from 'vitest'
import {validationFailure} from './expect-error.js'
import {parseYaml} from '../../src/domain/yaml.js'
import {DEFAULT_CONFIG, DEFAULT_CONFIG_YAML, parseConfig} from '../../src/domain/config.js'

const FILE = '.cairn/config.yaml'
const PIN = 'a'.repeat(40)

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
      hooks: {enforce_must: false, path_cards: 'with_write', deadline_ms: 1500, session_deadline_ms: 4000},
      signals: {
        archive_min_events: 5,
        archive_min_hours: 24,
        review_max_pending: 10,
        review_max_age_days: 7,
        enrich_min_cards: 3,
      },
      archive: {max_candidates_per_batch: 8, max_recent_paths: 20, digest_max_sessions: 10},
      review: {require_decision: false, require_fresh: false, approvers: 'writers'},
      maintain: {verify_days: 180, stale_grace_days: 30, unused_days: 90, enrich_min_injections: 10},
      secrets: {allow: []},
      content: {allow_hosts: []},
      board: {budget: 100, weight_shares: {1: 3, 2: 6, 3: 12, 4: 20, 5: 30}, fold_below: 3},
      org: [],
    })
  })

  it('DEFAULT_CONFIG_YAML spells out exactly DEFAULT_CONFIG, with nothing left to defaults', () => {
    const raw = parseYaml(DEFAULT_CONFIG_YAML, FILE)
    // But the org list: "cairn org add" writes it, so a project with no org layer stays readable by an older cairn.
    const {org, ...spelled} = DEFAULT_CONFIG
    expect([raw, org]).toEqual([spelled, []])
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

  it('review.require_decision is a boolean; an unknown review key is named, with the closest known key', () => {
    expect(parseConfig(parseYaml('review:\n  require_decision: true\n', FILE), FILE).review).toEqual({
      require_decision: true,
      require_fresh: false,
      approvers: 'writers',
    })
    const e = validationFailure(() => parseConfig({review: {require_decisions: true}}, FILE))
    expect(e.data).toEqual({
      issues: [
        {
          file: FILE,
          field: 'review.require_decisions',
          message: 'unknown field',
          fix: 'rename "require_decisions" to "require_decision", or remove it',
        },
      ],
    })
  })

  it('rejects an unknown key with nothing close, naming it', () => {
    const e = validationFailure(() => parseConfig(parseYaml('core_budget: 100\ncolour: red\n', FILE), FILE))
    expect(e.message).toBe(
      'Invalid config in .cairn/config.yaml:\n  - .cairn/config.yaml: colour: unknown field. Fix: remove "colour", or check its spelling.',
    )
  })

  it('reports every problem at once, each with the file, the field and the rule', () => {
    const e = validationFailure(() => parseConfig({core_budget: 'lots', stale_days: 0, knowledge_language: 'fr'}, FILE))
    expect(e.message).toBe(
      [
        'Invalid config in .cairn/config.yaml:',
        '  - .cairn/config.yaml: knowledge_language: "fr" is not one of en, zh-CN. Fix: set knowledge_language to en or zh-CN.',
        '  - .cairn/config.yaml: core_budget: must be a whole number of characters, at least 0. Fix: give a number.',
        '  - .cairn/config.yaml: stale_days: must be a whole number of days, at least 1. Fix: use 1 or more.',
      ].join('\n'),
    )
  })

  // Every setting, given a wrong type, a value out of range and a misspelt key: the error states the rule.
  const cases: [string, string][] = [
    ['schema: cairn/config@2', 'schema: "cairn/config@2" is not cairn/config@1. Fix: set schema to cairn/config@1.'],
    [
      'project_key: ""',
      'project_key: must be a project key such as github.com/owner/repo, or null to take it from the "origin" remote. Fix: give a value.',
    ],
    [
      'project_key: 42',
      'project_key: must be a project key such as github.com/owner/repo, or null to take it from the "origin" remote. Fix: give text.',
    ],
    [
      'knowledge_language: fr',
      'knowledge_language: "fr" is not one of en, zh-CN. Fix: set knowledge_language to en or zh-CN.',
    ],
    [
      'knowledge_langauge: en',
      'knowledge_langauge: unknown field. Fix: rename "knowledge_langauge" to "knowledge_language", or remove it.',
    ],
    ['commit: yes', 'commit: must be true, false, or a map of settings (enabled, verify). Fix: give a map of fields.'],
    ['commit: {enabled: "no"}', 'commit.enabled: must be true or false. Fix: give true or false.'],
    ['commit: {verify: 1}', 'commit.verify: must be true or false. Fix: give true or false.'],
    ['commit: {verfy: true}', 'commit.verfy: unknown field. Fix: rename "verfy" to "verify", or remove it.'],
    ['core_budget: -1', 'core_budget: must be a whole number of characters, at least 0. Fix: use 0 or more.'],
    ['stale_days: 0', 'stale_days: must be a whole number of days, at least 1. Fix: use 1 or more.'],
    ['stale_days: 1.5', 'stale_days: must be a whole number of days, at least 1. Fix: give a whole number.'],
    ['stale_days: soon', 'stale_days: must be a whole number of days, at least 1. Fix: give a number.'],
    ['stale_days:', 'stale_days: must be a whole number of days, at least 1. Fix: give a number.'],
    ['stale_day: 30', 'stale_day: unknown field. Fix: rename "stale_day" to "stale_days", or remove it.'],
    [
      'recall: 4',
      'recall: must be a map of settings (max_cards, budget_chars, catalog_budget). Fix: give a map of fields.',
    ],
    ['recall: {max_cards: 0}', 'recall.max_cards: must be a whole number of cards, at least 1. Fix: use 1 or more.'],
    [
      'recall: {budget_chars: 199}',
      'recall.budget_chars: must be a whole number of characters, at least 200. Fix: use 200 or more.',
    ],
    [
      'recall: {catalog_budget: -5}',
      'recall.catalog_budget: must be a whole number of characters, at least 0. Fix: use 0 or more.',
    ],
    ['recall: {max_card: 2}', 'recall.max_card: unknown field. Fix: rename "max_card" to "max_cards", or remove it.'],
    [
      'hooks: [a]',
      'hooks: must be a map of settings (enforce_must, path_cards, deadline_ms, session_deadline_ms). Fix: give a map of fields.',
    ],
    ['hooks: {enforce_must: maybe}', 'hooks.enforce_must: must be true or false. Fix: give true or false.'],
    [
      'hooks: {deadline_ms: 99}',
      'hooks.deadline_ms: must be a whole number of milliseconds, at least 100. Fix: use 100 or more.',
    ],
    [
      'hooks: {path_cards: before}',
      'hooks.path_cards: "before" is not one of with_write, before_write. Fix: set hooks.path_cards to with_write or before_write.',
    ],
    [
      'hooks: {deadline_ms: 99999999999999999999}',
      "hooks.deadline_ms: must be at most 4500 milliseconds (the clients run cairn's hooks with a 5 s timeout). Fix: use 4500 or less.",
    ],
    [
      'hooks: {session_deadline_ms: 5000}',
      "hooks.session_deadline_ms: must be at most 4500 milliseconds (the clients run cairn's hooks with a 5 s timeout). Fix: use 4500 or less.",
    ],
    [
      'hooks: {deadline: 500}',
      'hooks.deadline: unknown field. Fix: rename "deadline" to "deadline_ms" or "session_deadline_ms", or remove it.',
    ],
    [
      'signals: {archive_min_events: 0}',
      'signals.archive_min_events: must be a whole number of events, at least 1. Fix: use 1 or more.',
    ],
    [
      'signals: {archive_min_hours: 0.5}',
      'signals.archive_min_hours: must be a whole number of hours, at least 1. Fix: give a whole number.',
    ],
    [
      'signals: {review_max_pending: 0}',
      'signals.review_max_pending: must be a whole number of cards, at least 1. Fix: use 1 or more.',
    ],
    [
      'signals: {review_max_age_days: "7"}',
      'signals.review_max_age_days: must be a whole number of days, at least 1. Fix: give a number.',
    ],
    [
      'signals: {enrich_min_cards: -1}',
      'signals.enrich_min_cards: must be a whole number of cards, at least 0. Fix: use 0 or more.',
    ],
    [
      'signals: {review_max_age: 7}',
      'signals.review_max_age: unknown field. Fix: rename "review_max_age" to "review_max_age_days", or remove it.',
    ],
    [
      'archive: {max_candidates_per_batch: 0}',
      'archive.max_candidates_per_batch: must be a whole number of cards, at least 1. Fix: use 1 or more.',
    ],
    [
      'archive: {max_recent_paths: 0}',
      'archive.max_recent_paths: must be a whole number of paths, at least 1. Fix: use 1 or more.',
    ],
    [
      'archive: {digest_max_sessions: 0}',
      'archive.digest_max_sessions: must be a whole number of sessions, at least 1. Fix: use 1 or more.',
    ],
    ['review: {require_decision: yes}', 'review.require_decision: must be true or false. Fix: give true or false.'],
    ['review: {require_fresh: 1}', 'review.require_fresh: must be true or false. Fix: give true or false.'],
    [
      'review: {approvers: owners}',
      'review.approvers: "owners" is not one of writers, codeowners. Fix: set review.approvers to writers or codeowners.',
    ],
    [
      'maintain: {verify_days: -1}',
      'maintain.verify_days: must be a whole number of days, at least 0. Fix: use 0 or more.',
    ],
    [
      'maintain: {stale_grace_days: 1.5}',
      'maintain.stale_grace_days: must be a whole number of days, at least 0. Fix: give a whole number.',
    ],
    [
      'maintain: {unused_days: -90}',
      'maintain.unused_days: must be a whole number of days, at least 0. Fix: use 0 or more.',
    ],
    [
      'maintain: {enrich_min_injections: many}',
      'maintain.enrich_min_injections: must be a whole number of injections, at least 0. Fix: give a number.',
    ],
    [
      'secrets: {allow: 3f2a9c1e0b7d4a65}',
      'secrets.allow: must be a list of fingerprints, e.g. [3f2a9c1e0b7d4a65]. Fix: give a list.',
    ],
    [
      'secrets: {allow: [3f2a]}',
      "secrets.allow[0]: must be a 16-character fingerprint, as a refused card's error shows it. Fix: use the documented format.",
    ],
    ['secrets: {alow: []}', 'secrets.alow: unknown field. Fix: rename "alow" to "allow", or remove it.'],
    [
      'content: {allow_hosts: docs.pydantic.dev}',
      'content.allow_hosts: must be a list of host names, e.g. [docs.pydantic.dev, internal.example.com]. Fix: give a list.',
    ],
    [
      'content: {allow_hosts: ["https://docs.pydantic.dev/"]}',
      'content.allow_hosts[0]: must be a host name such as docs.example.com (no scheme, path or port); it covers its subdomains. Fix: use the documented format.',
    ],
    ['board: {budget: 0}', 'board.budget: must be a whole number, at least 1. Fix: use 1 or more.'],
    [
      'board: {weight_shares: {3: -1}}',
      'board.weight_shares.3: must be a whole number, at least 0. Fix: use 0 or more.',
    ],
    ['board: {fold_below: 0}', 'board.fold_below: must be a whole number, at least 1. Fix: use 1 or more.'],
    [
      'board: {fold_bellow: 2}',
      'board.fold_bellow: unknown field. Fix: rename "fold_bellow" to "fold_below", or remove it.',
    ],
    ['- stale_days: 30', '(root): must be a map of settings (key: value lines). Fix: give a map of fields.'],
    [
      'org: acme',
      'org: must be a list of org layers (name, url, ref, commit), as "cairn org add" writes them. Fix: give a list.',
    ],
    ['org: [acme]', 'org[0]: must be a map of name, url, ref and commit. Fix: give a map of fields.'],
    [
      `org: [{name: Acme, url: /x, ref: main, commit: ${PIN}}]`,
      'org[0].name: must be a kebab-case name of lowercase letters, digits and single hyphens. Fix: rename it, e.g. "acme-platform".',
    ],
    [
      `org: [{name: a, url: "-x", ref: main, commit: ${PIN}}]`,
      'org[0].url: must not start with "-". Fix: give the URL you would pass to "git clone".',
    ],
    [
      `org: [{name: a, url: "ext::sh", ref: main, commit: ${PIN}}]`,
      'org[0].url: must not use the ext:: or fd:: transport, which runs a command. Fix: give the URL you would pass to "git clone".',
    ],
    [
      `org: [{name: a, url: /x, ref: "a..b", commit: ${PIN}}]`,
      'org[0].ref: must be a branch or tag name such as main or v2. Fix: name the branch the org store is reviewed on.',
    ],
    [
      'org: [{name: a, url: /x, ref: main, commit: abc}]',
      'org[0].commit: must be a full commit id (40 hex digits). Fix: run "cairn org update" to set it.',
    ],
    [
      `org: [{name: a, url: /x, ref: main, commit: ${PIN}}, {name: a, url: /y, ref: main, commit: ${PIN}}]`,
      'org[1].name: names the layer "a" again (org[0] has it). Fix: give each layer its own name.',
    ],
    [
      `org: [{name: a, url: /x, ref: main, commit: ${PIN}, extra: 1}]`,
      'org[0].extra: unknown field. Fix: remove "extra", or check its spelling.',
    ],
  ]
  it.each(cases)('%s', (yaml, line) => {
    const e = validationFailure(() => parseConfig(parseYaml(`${yaml}\n`, FILE), FILE))
    expect(e.message).toBe(`Invalid config in ${FILE}:\n  - ${FILE}: ${line}`)
  })

  it('every setting has a case above', () => {
    const leaves = Object.entries(DEFAULT_CONFIG).flatMap(([k, v]) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [k],
    )
    const covered = cases.map(([yaml]) => yaml).join('\n')
    for (const leaf of leaves) expect(covered, leaf).toMatch(new RegExp(`\\b${leaf}:`))
  })
})
