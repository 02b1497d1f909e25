import {describe, expect, it} from 'vitest'
import {z} from 'zod'
import {parseCard} from '../../src/domain/card/format.js'
import {zodIssues} from '../../src/domain/issues.js'
import {validationFailure} from './expect-error.js'

const CARD = `---
schema: cairn/card@1
id: deepmerge-array-replace-trap
type: pitfall
status: active
title: deepMerge replaces arrays
summary: Arrays are replaced, not concatenated.
---
body
`
const FILE = '.cairn/cards/pitfall/deepmerge-array-replace-trap.md'

/** The one problem line a card with this frontmatter line changed gets. */
function problem(from: string, to: string): string {
  const e = validationFailure(() => parseCard(CARD.replace(from, to), FILE))
  const lines = e.message.split('\n')
  expect(lines[0]).toBe(`Invalid card ${FILE}:`)
  expect(lines).toHaveLength(2)
  return lines[1].replace(`  - ${FILE}: `, '')
}

describe('card field errors state the rule', () => {
  it.each([
    ['title: deepMerge replaces arrays', 'title: ""', 'title: must not be empty. Fix: give a value.'],
    [
      'title: deepMerge replaces arrays',
      `title: ${'x'.repeat(201)}`,
      'title: must be at most 200 characters. Fix: shorten it to 200 characters or fewer.',
    ],
    [
      'status: active',
      'status: active\nload: sometimes',
      'load: "sometimes" is not one of core, recall. Fix: set load to core or recall.',
    ],
    [
      'status: active',
      'status: active\nprotected: yes',
      'protected: must be true or false (found text). Fix: give true or false.',
    ],
    ['status: active', 'status: active\nkeywords: merge', 'keywords: must be a list (found text). Fix: give a list.'],
    [
      'status: active',
      'status: active\nscope: {paths: [src, 3]}',
      'scope.paths[1]: must be text (found a number). Fix: give text.',
    ],
    [
      'status: active',
      'status: active\nsumary: x',
      'sumary: unknown field. Fix: rename "sumary" to "summary", or remove it.',
    ],
    [
      'status: active',
      'status: active\nrecall: {polcy: must}',
      'recall.polcy: unknown field. Fix: rename "polcy" to "policy", or remove it.',
    ],
  ])('%s → %s', (from, to, line) => {
    expect(problem(from, to)).toBe(line)
  })
})

describe("zodIssues words zod's generic issues as rules", () => {
  const issues = (schema: z.ZodType, value: unknown) => {
    const r = schema.safeParse(value)
    if (r.success) throw new Error('expected a failure')
    return zodIssues(r.error, 'f.yaml', '', schema).map(i => `${i.field}: ${i.message}. Fix: ${i.fix}.`)
  }
  it('sizes of text, lists and numbers', () => {
    expect(issues(z.object({a: z.string().min(1)}), {a: ''})).toEqual(['a: must not be empty. Fix: give a value.'])
    expect(issues(z.object({a: z.string().min(3)}), {a: 'ab'})).toEqual([
      'a: must be at least 3 characters. Fix: lengthen it to 3 characters or more.',
    ])
    expect(issues(z.object({a: z.string().max(3)}), {a: 'abcd'})).toEqual([
      'a: must be at most 3 characters. Fix: shorten it to 3 characters or fewer.',
    ])
    expect(issues(z.object({a: z.array(z.string()).min(1)}), {a: []})).toEqual([
      'a: must hold at least 1 item. Fix: add at least 1 item.',
    ])
    expect(issues(z.object({a: z.array(z.string()).max(2)}), {a: ['x', 'y', 'z']})).toEqual([
      'a: must hold at most 2 items. Fix: remove items to leave 2 or fewer.',
    ])
    expect(issues(z.object({a: z.number().min(1)}), {a: 0})).toEqual(['a: must be at least 1. Fix: use 1 or more.'])
    expect(issues(z.object({a: z.number().positive()}), {a: 0})).toEqual([
      'a: must be more than 0. Fix: use a number above 0.',
    ])
    expect(issues(z.object({a: z.number().max(9)}), {a: 10})).toEqual(['a: must be at most 9. Fix: use 9 or less.'])
    expect(issues(z.object({a: z.number().int()}), {a: 1.5})).toEqual([
      'a: must be a whole number (found a number). Fix: give a whole number.',
    ])
  })
  it('types, values and unknown keys', () => {
    expect(issues(z.object({a: z.boolean()}), {a: null})).toEqual([
      'a: must be true or false (found an empty value). Fix: give true or false.',
    ])
    expect(issues(z.object({a: z.literal('x')}), {a: 'y'})).toEqual(['a: must be x. Fix: set a to x.'])
    expect(issues(z.strictObject({name: z.string().optional()}), {nmae: 'x'})).toEqual([
      'nmae: unknown field. Fix: rename "nmae" to "name", or remove it.',
    ])
    expect(issues(z.strictObject({name: z.string().optional()}), {zzz: 'x'})).toEqual([
      'zzz: unknown field. Fix: remove "zzz", or check its spelling.',
    ])
  })
})
