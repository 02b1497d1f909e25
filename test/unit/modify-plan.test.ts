import {describe, expect, it} from 'vitest'
import {parseCard} from '../../src/domain/card/format.js'
import {type CardToModify, type ModifiableField, parseSets, planModify} from '../../src/domain/card/modify.js'
import {CairnError} from '../../src/domain/errors.js'

const FILE = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'

const text = (extra = '') => `---
schema: cairn/card@1
id: deepmerge-array-replace-trap
type: pitfall
status: draft
title: deepMerge replaces arrays
summary: Arrays are replaced, not concatenated.
${extra}created: 2026-11-29T10:00:00Z
updated: 2026-11-29T10:00:00Z
---
body
`

/** A card as modify finds it: in the project's store unless told otherwise. */
const card = (options: {extra?: string; store?: 'project' | 'personal'} = {}): CardToModify => ({
  card: parseCard(text(options.extra), FILE),
  path: FILE,
  store: {kind: options.store ?? 'project'},
})

const sets = (...given: string[]): Map<ModifiableField, string> => parseSets(given)
const plan = (...given: string[]) => planModify(card(), sets(...given))
const TEAM = {id: 'deepmerge-array-replace-trap', type: 'pitfall', layer: 'team'}

describe('planModify: the patches', () => {
  it('a slug, a type and a load: id, type and load patches, and where the card goes', () => {
    expect(plan('slug=deepmerge-replaces-hook-arrays', 'type=guidelines', 'load=core')).toEqual({
      patches: [
        {path: ['id'], value: 'deepmerge-replaces-hook-arrays'},
        {path: ['type'], value: 'guideline'},
        {path: ['load'], value: 'core'},
      ],
      issues: [],
      to: {id: 'deepmerge-replaces-hook-arrays', type: 'guideline', layer: 'team'},
    })
  })

  it('a slug or type the card already has patches nothing of it', () => {
    expect(plan('slug=deepmerge-array-replace-trap', 'type=pitfall')).toEqual({patches: [], issues: [], to: TEAM})
  })

  it('a category', () => {
    expect(plan('category=build').patches).toEqual([{path: ['category'], value: 'build'}])
  })

  it('triggers replace the derived ones; a Chinese comma separates, empty phrases go', () => {
    expect(plan('triggers=deepMerge hook arrays， stop hook vanished,').patches).toEqual([
      {path: ['recall', 'triggers'], value: ['deepMerge hook arrays', 'stop hook vanished']},
      {path: ['recall', 'derived_triggers'], value: []},
    ])
  })

  it('empty triggers keep the derived ones; an empty derived_triggers clears them', () => {
    expect(plan('triggers=').patches).toEqual([{path: ['recall', 'triggers'], value: []}])
    expect(plan('derived_triggers=').patches).toEqual([{path: ['recall', 'derived_triggers'], value: []}])
  })

  it('scope: broad empties the paths, a level sets the level, paths alone set the paths', () => {
    expect(plan('scope=broad').patches).toEqual([{path: ['scope', 'paths'], value: []}])
    expect(plan('scope=project-family').patches).toEqual([{path: ['scope', 'level'], value: 'project-family'}])
    expect(plan('paths=src/a/**, src/b/**').patches).toEqual([
      {path: ['scope', 'paths'], value: ['src/a/**', 'src/b/**']},
    ])
  })

  it("narrow takes the given paths, else the card's own, else paths derived from its recent paths", () => {
    expect(plan('scope=narrow', 'paths=src/**').patches).toEqual([{path: ['scope', 'paths'], value: ['src/**']}])
    const own = card({extra: 'scope:\n  paths: [lib/**]\n'})
    expect(planModify(own, sets('scope=narrow')).patches).toEqual([{path: ['scope', 'paths'], value: ['lib/**']}])
    const recent = card({extra: 'provenance:\n  recent_paths: [src/config/merge.ts]\n'})
    expect(planModify(recent, sets('scope=narrow')).patches).toEqual([
      {path: ['scope', 'paths'], value: ['src/config/merge.ts']},
    ])
  })

  it('to personal: the scope becomes global and broad, and the card goes to the personal layer', () => {
    expect(plan('layer=personal')).toEqual({
      patches: [{path: ['scope'], value: {level: 'global', project_key: null, module_path: null, paths: []}}],
      issues: [],
      to: {...TEAM, layer: 'personal'},
    })
  })

  it('a personal card to the team: its scope level becomes project, unless a level is given', () => {
    const personal = card({store: 'personal'})
    expect(planModify(personal, sets('layer=team'))).toEqual({
      patches: [{path: ['scope', 'level'], value: 'project'}],
      issues: [],
      to: TEAM,
    })
    expect(planModify(personal, sets('layer=team', 'scope=global')).patches).toEqual([
      {path: ['scope', 'level'], value: 'global'},
    ])
  })

  it('a personal card staying personal: an empty paths is no refusal', () => {
    const personal = card({store: 'personal'})
    expect(planModify(personal, sets('paths=')).issues).toEqual([])
  })
})

describe('planModify: the refusals', () => {
  const validation = (field: string, message: string, fix: string) => ({
    file: FILE,
    field,
    message,
    fix,
    code: 'validation',
  })

  it('each refused --set is an issue naming the file, the field and the fix', () => {
    const cases: [string, ReturnType<typeof validation>][] = [
      ['layer=shared', validation('layer', '"shared" is not a layer', 'use team or personal')],
      [
        'type=rumour',
        validation('type', '"rumour" is not a card type', 'use model, decision, guideline, pitfall or process'),
      ],
      ['load=sometimes', validation('load', '"sometimes" is not a load tier', 'use core or recall')],
      ['category=', validation('category', 'must not be empty', 'give a category such as git, test, build')],
      [
        'derived_triggers=x y',
        validation(
          'derived_triggers',
          'can only be cleared: cairn derives them',
          'give your phrases with --set triggers=<phrase>,<phrase>',
        ),
      ],
      [
        'scope=narrow',
        validation(
          'scope',
          'narrow needs paths, and the card has no recent paths to derive them from',
          'add --set paths=<glob>,<glob>',
        ),
      ],
      [
        'scope=everywhere',
        validation('scope', '"everywhere" is not a scope', 'use narrow, broad, project, project-family or global'),
      ],
    ]
    for (const [set, issue] of cases) expect({set, issues: plan(set).issues}).toEqual({set, issues: [issue]})
  })

  it('a slug that breaks a rule, with a suggestion when one keeps every rule', () => {
    expect(plan('slug=Deep_Merge arrays').issues).toEqual([
      validation(
        'slug',
        'slug "Deep_Merge arrays" breaks rule 1 (kebab-case: lowercase letters, digits and single hyphens only)',
        'try "deep-merge-arrays-replaces"',
      ),
    ])
    expect(plan('slug=deepMergeReplacesHookArrays').issues).toEqual([
      validation(
        'slug',
        'slug "deepMergeReplacesHookArrays" breaks rule 1 (kebab-case: lowercase letters, digits and single hyphens only)',
        'try "deep-merge-replaces-hook-arrays"',
      ),
    ])
  })

  it('paths on a card going personal is a refused transition', () => {
    expect(plan('layer=personal', 'paths=src/**')).toEqual({
      patches: [],
      issues: [
        {
          file: FILE,
          field: 'paths',
          code: 'invalid_transition',
          message: 'cannot set paths on "deepmerge-array-replace-trap": personal cards are always broad',
        },
      ],
      to: {...TEAM, layer: 'personal'},
    })
  })

  it('every problem, in the order modify checks them; where a set is refused, the card keeps what it has', () => {
    const p = plan('scope=everywhere', 'load=sometimes', 'type=rumour', 'layer=shared', 'category=build')
    expect(p.issues.map(i => i.field)).toEqual(['layer', 'type', 'load', 'scope'])
    expect(p.patches).toEqual([{path: ['category'], value: 'build'}])
    expect(p.to).toEqual(TEAM)
  })
})

describe('parseSets', () => {
  const usage = (given: string[]) => {
    try {
      parseSets(given)
    } catch (error) {
      expect(error).toBeInstanceOf(CairnError)
      return [(error as CairnError).code, (error as CairnError).message]
    }
    throw new Error('expected a usage error')
  }

  it('field=value pairs, trimmed; the last of a field wins', () => {
    expect([...parseSets([' load = core', 'slug=a=b', 'load=recall'])]).toEqual([
      ['load', 'recall'],
      ['slug', 'a=b'],
    ])
  })

  it('refuses a set that is not field=value, a field modify does not change, and no set at all', () => {
    expect(usage(['load'])).toEqual([
      'usage',
      '--set "load" is not field=value. Fix: write it as --set field=value, such as --set load=core.',
    ])
    expect(usage(['colour=blue'])).toEqual([
      'usage',
      '--set "colour=blue": "colour" cannot be modified. Fix: use one of type, slug, load, scope, paths, category, layer, triggers, derived_triggers, symbols, evidence_paths, supersedes, title, summary, rule, use_when, ignore_when, aliases, policy, risk.',
    ])
    expect(usage([])).toEqual(['usage', 'Nothing to modify. Fix: give at least one --set field=value.'])
  })
})
