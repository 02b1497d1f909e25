import {describe, expect, it} from 'vitest'
import {fastFrontmatter} from '../src/domain/card/fast-check.js'
import {validateFrontmatter} from '../src/domain/card/format.js'
import {frontmatterSchema} from '../src/domain/card/schema.js'
import {prng} from './helpers.js'

/**
 * The fast frontmatter check must give exactly what zod gives (the same value, keys in the same
 * order), or nothing: checked on random frontmatter where every field is, by turns, absent,
 * plainly valid, valid only after trimming, or broken in one of the ways the schema refuses.
 */

const PIECES = [
  'a',
  'z',
  ' ',
  '  ',
  '\t',
  '\n',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\u0007',
  '\u001b',
  '\u0085',
  '中文',
  'é',
  '😀',
  '..',
  '/',
  '\\',
  'C:',
  '!',
  '{',
  ',',
  '}',
  '-',
  'src',
  '*.ts',
  'null',
]

describe('the fast frontmatter check', () => {
  it('agrees with zod on random frontmatter, or leaves it to zod', () => {
    const rand = prng(11)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]
    const str = (max: number) => Array.from({length: Math.floor(rand() * max)}, () => pick(PIECES)).join('')
    const word = () => `w${Math.floor(rand() * 1000)}`
    /** Mostly a clean text; sometimes padded, empty, control characters, too long, or not a string. */
    // Half the cards are clean, half have a broken field here and there.
    let dirt = 0
    const bad = () => rand() < dirt
    const txt = (): unknown => {
      const r = bad() ? rand() : rand() * 0.75
      if (r < 0.6) return `${word()} ${word()}`
      if (r < 0.75) return ` ${word()}\u00a0`
      if (r < 0.9) return str(6)
      if (r < 0.95) return 'x'.repeat(195 + Math.floor(rand() * 10))
      return pick([null, 3, true, [], {}, ['a']])
    }
    const path = (): unknown =>
      !bad()
        ? pick(['src/**/*.ts', 'docs/a b.md', ' lib/x.ts ', '!src/gen/**'])
        : pick(['../x', '/abs', 'a\\b', 'C:/x', '{..,x}/y', '', 5])
    const list = (item: () => unknown = txt): unknown => {
      const r = bad() ? rand() : rand() * 0.9
      if (r < 0.2) return undefined
      if (r < 0.9) return Array.from({length: Math.floor(rand() * 10)}, item)
      return pick([null, 'a', {}, [[]]])
    }
    const maybe = <T>(v: () => T, p = 0.5): T | undefined => (rand() < p ? v() : undefined)
    const choice = (good: readonly unknown[], wrong: readonly unknown[] = ['Must', '', null, 1]) =>
      !bad() ? pick(good) : pick(wrong)
    const stamp = () =>
      choice(
        ['2026-11-29', '2026-11-29T10:00:00Z', '2026-11-29T10:00+01:00', null],
        ['2026/11/29', '', 20261129, ' 2026-11-29'],
      )
    const strictOr = (o: Record<string, unknown>) =>
      !bad() ? o : rand() < 0.5 ? {...o, extra: 1} : pick([null, [], 'x'])
    const drop = (o: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

    let fast = 0
    let valid = 0
    for (let n = 0; n < 6000; n++) {
      dirt = n % 2 ? 0.1 : 0
      const data: Record<string, unknown> = drop({
        schema: choice(['cairn/card@1', 'cairn/card@2', 'cairn/card@3', 'cairn/card@5'], ['cairn/card@4', undefined]),
        id: !bad() ? `card-${n}` : pick([undefined, 5, null]),
        type: choice(['model', 'decision', 'guideline', 'pitfall', 'process'], ['pitfalls', undefined]),
        status: choice(['pending', 'active', 'deprecated', 'superseded'], ['Active', 'draft', undefined]),
        title: !bad() ? txt() : undefined,
        summary: !bad() ? (bad() ? 'y'.repeat(995 + Math.floor(rand() * 10)) : txt()) : undefined,
        category: maybe(txt),
        load: maybe(() => choice(['core', 'recall'])),
        criteria: maybe(() => strictOr(drop({use_when: list(), ignore_when: list()}))),
        engine_hints: maybe(() => strictOr(drop({positive: list(), required_all: list(), negative: list()})), 0.3),
        recall: maybe(
          () =>
            strictOr(
              drop({
                policy: maybe(() => choice(['must', 'should', 'may'])),
                risk: maybe(() => choice(['high', 'medium', 'low'])),
                confidence: maybe(() => choice(['high', 'medium', 'low'])),
                triggers: list(),
                derived_triggers: maybe(() =>
                  list(() => (!bad() ? `${word()} ${word()}` : 'd'.repeat(78 + Math.floor(rand() * 5)))),
                ),
                topics: list(),
                aliases: maybe(() => strictOr(drop({en: list(), zh: list()}))),
              }),
            ),
          0.8,
        ),
        scope: maybe(() =>
          strictOr(
            drop({
              level: maybe(() => choice(['project', 'project-family', 'global'])),
              project_key: maybe(() => (rand() < 0.3 ? null : txt())),
              module_path: maybe(() => (rand() < 0.3 ? null : path())),
              paths: list(path),
            }),
          ),
        ),
        evidence: maybe(
          () =>
            strictOr(
              drop({
                paths: maybe(() => list(path)),
                symbols: maybe(() =>
                  list(() =>
                    !bad()
                      ? pick(['parseConfig', 'hooks.deadline_ms', 'npm run build'])
                      : pick(['a\nb', 'x'.repeat(121), '']),
                  ),
                ),
                verified_at: maybe(stamp),
                verified_commit: maybe(() =>
                  choice(['a'.repeat(40), 'b'.repeat(64), null], ['A'.repeat(40), 'abc', 5]),
                ),
              }),
            ),
          0.3,
        ),
        language: maybe(() => choice(['en', 'zh'])),
        keywords: list(),
        links: maybe(list, 0.2),
        protected: maybe(() => choice([true, false], ['true', 0, null])),
        supersedes: maybe(list, 0.2),
        superseded_by: maybe(() => (rand() < 0.5 ? null : txt()), 0.2),
        deferred_until: maybe(stamp, 0.2),
        provenance: maybe(() =>
          strictOr(
            drop({
              source_sessions: list(),
              proposed_reason: maybe(() => (rand() < 0.3 ? null : txt())),
              session_context: maybe(() => (rand() < 0.3 ? null : txt())),
              recent_paths: list(path),
              user_messages_summary: maybe(() => (rand() < 0.3 ? null : txt())),
              idempotency_key: maybe(() => (rand() < 0.3 ? null : txt())),
            }),
          ),
        ),
        created: maybe(stamp),
        updated: maybe(stamp),
        approved: maybe(() => (rand() < 0.2 ? null : strictOr(drop({by: !bad() ? txt() : undefined, at: stamp()})))),
        ...(bad() && bad() ? {unknown_field: 'x'} : {}),
      })
      const answer = fastFrontmatter(data)
      const zod = frontmatterSchema.safeParse(data)
      if (zod.success) valid++
      if (answer === undefined) continue
      fast++
      expect(zod.success, JSON.stringify(data)).toBe(true)
      expect(answer).toStrictEqual(zod.data)
      // The same keys in the same order: a card rendered from either is the same text.
      expect(JSON.stringify(answer)).toBe(JSON.stringify(zod.data))
    }
    // The check must take most valid frontmatter, or it would save nothing (and this test would prove little).
    expect(valid).toBeGreaterThan(500)
    expect(fast / valid).toBeGreaterThan(0.9)
  })

  it('leaves what zod refuses to zod, which reports it as before', () => {
    const base = {schema: 'cairn/card@1', id: 'a-card', type: 'pitfall', status: 'active', title: 'T', summary: 'S'}
    expect(fastFrontmatter(base)).toEqual(frontmatterSchema.parse(base))
    for (const bad of [
      {title: '  '},
      {summary: 'x'.repeat(1001)},
      {scope: {paths: ['../up']}},
      {recall: {policy: 'Must'}},
      {extra: 1},
      {created: '2026/01/01'},
      {approved: {by: 'me'}},
      {recall: {derived_triggers: Array(9).fill('p')}},
      {evidence: {symbols: Array(21).fill('s')}},
      {evidence: {verified_commit: 'HEAD'}},
      {evidence: {symbols: ['two\nlines']}},
    ]) {
      const data = {...base, ...bad}
      expect(fastFrontmatter(data)).toBeUndefined()
      expect(frontmatterSchema.safeParse(data).success).toBe(false)
      expect(() => validateFrontmatter(data, 'cards/x.md')).toThrow(/Invalid card/)
    }
  })
})
