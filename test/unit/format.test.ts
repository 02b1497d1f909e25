import {describe, expect, it} from 'vitest'
import {validationFailure} from './expect-error.js'
import {parseCard, renderCard} from '../../src/domain/card/format.js'
import {MAX_CARD_BYTES} from '../../src/domain/card/schema.js'
import {buildCard, parseProposals, type ProposalEnv} from '../../src/domain/propose.js'

const env: ProposalEnv = {now: '2026-11-29T10:00:00Z', projectKey: 'github.com/acme/widgets', defaultLanguage: 'en', maxRecentPaths: 20}
const build = (raw: Record<string, unknown>) => buildCard(parseProposals(raw, 'in.json')[0], env)

const MINIMAL = `---
schema: cairn/card@1
id: deepmerge-array-replace-trap
type: pitfall
status: draft
title: deepMerge replaces arrays
summary: Arrays are replaced, not concatenated.
created: 2026-11-29T10:00:00Z
updated: 2026-11-29T10:00:00Z
---
body
`

describe('parseCard(renderCard(card)) is the identity', () => {
  it('for an English card with values YAML would otherwise reinterpret', () => {
    const card = build({
      slug: 'deepmerge-array-replace-trap', type: 'pitfalls', title: 'deepMerge "replaces" arrays: beware #1',
      summary: 'When deepMerge merges hook config, arrays are replaced; merge them by hand.',
      rule: 'Merge arrays explicitly:\n```js\nconst hooks = [...a, ...b]\n```\nNever rely on deepMerge for arrays.',
      keywords: ['a, b', 'x: y', '#tag', 'yes', '123', 'null', '- dash', '2026-01-01'],
      recall: {policy: 'must', risk: 'high', triggers: ['deepMerge settings.json hooks array', 'merge claude hook config arrays', 'stop hook missing after install']},
      criteria: {use_when: ['merging JSON config'], ignore_when: ['plain objects only']},
      source_sessions: ['session-1', 'session-2'], recent_paths: ['src/config/merge.ts', 'templates/hooks.json'],
      session_context: 'Goal: wire hooks.\nTurning point: arrays vanished.', user_messages_summary: 'User: "why did my Stop hook vanish?"',
      relevance_scope: 'narrow', edit_paths: ['src/config/merge.ts', 'src/config/load.ts'],
    })
    expect(card.type).toBe('pitfall')
    expect(card.scope.paths).toEqual(['src/config/**/*.ts'])
    const text = renderCard(card)
    const parsed = parseCard(text, 'card.md')
    expect(parsed).toEqual(card)
    expect(renderCard(parsed)).toBe(text)
  })

  it('for a Chinese card (language detected as zh)', () => {
    const card = build({
      slug: 'deepmerge-array-replace-trap', type: 'pitfall', title: '深度合并会替换数组',
      summary: '合并钩子配置时，数组会被替换而不是拼接；请手动合并数组。', rule: '手动合并数组：\n不要依赖 deepMerge。',
      criteria: {use_when: ['合并 JSON 配置']}, recall: {aliases: {zh: ['深度合并'], en: ['deep merge']}},
      source_sessions: ['会话-1'], session_context: '目标：安装钩子。',
    })
    expect(card.language).toBe('zh')
    expect(card.body).toContain('\n## 这张卡解决什么问题\n')
    const text = renderCard(card)
    expect(text).toContain('title: 深度合并会替换数组\n')
    const parsed = parseCard(text, 'card.md')
    expect(parsed).toEqual(card)
    expect(renderCard(parsed)).toBe(text)
  })

  it('keeps a body with no leading newline and an empty body', () => {
    const card = {...build({slug: 'deepmerge-array-replace-trap', type: 'pitfall', title: 't', summary: 's'}), body: 'no blank line\n'}
    expect(parseCard(renderCard(card), 'c.md')).toEqual(card)
    const empty = {...card, body: ''}
    expect(parseCard(renderCard(empty), 'c.md')).toEqual(empty)
  })
})

describe('parseCard', () => {
  it('fills every missing optional field with its default', () => {
    expect(parseCard(MINIMAL, 'c.md')).toEqual({
      schema: 'cairn/card@1', id: 'deepmerge-array-replace-trap', type: 'pitfall', status: 'draft',
      title: 'deepMerge replaces arrays', category: 'general', summary: 'Arrays are replaced, not concatenated.', load: 'recall',
      criteria: {use_when: [], ignore_when: []},
      engine_hints: {positive: [], required_all: [], negative: []},
      recall: {policy: 'may', risk: 'medium', confidence: 'medium', triggers: [], topics: [], aliases: {en: [], zh: []}},
      scope: {level: 'project', project_key: null, module_path: null, paths: []},
      language: 'en', keywords: [], links: [], protected: false, supersedes: [], superseded_by: null, deferred_until: null,
      provenance: {source_sessions: [], proposed_reason: null, session_context: null, recent_paths: [], user_messages_summary: null, idempotency_key: null},
      created: '2026-11-29T10:00:00Z', updated: '2026-11-29T10:00:00Z', approved: null,
      body: 'body\n',
    })
  })

  it('rejects an unknown field, naming the file and the field, with a fix', () => {
    const e = validationFailure(() => parseCard(MINIMAL.replace('status: draft\n', 'status: draft\ncolour: red\n'), 'pending/pitfall/x.md'))
    expect(e.message).toBe('pending/pitfall/x.md: invalid card:\n  - pending/pitfall/x.md: colour: unknown field. Fix: remove "colour" or check its spelling')
    const nested = validationFailure(() => parseCard(MINIMAL.replace('status: draft\n', 'status: draft\nscope: {pathz: []}\n'), 'x.md'))
    expect(nested.message).toContain('x.md: scope.pathz: unknown field. Fix:')
  })

  it('reports invalid YAML with its line in the file', () => {
    const e = validationFailure(() => parseCard(MINIMAL.replace('title: deepMerge replaces arrays', 'title: deepMerge: replaces arrays'), 'x.md'))
    expect(e.message).toBe('x.md: invalid YAML:\n  - x.md: (yaml): invalid YAML at line 6, column 8: Nested mappings are not allowed in compact mappings. Fix: correct the YAML syntax (quote values containing ":" or "#")')
    const dup = validationFailure(() => parseCard(MINIMAL.replace('status: draft\n', 'status: draft\ntype: model\n'), 'x.md'))
    expect(dup.message).toContain('invalid YAML at line 6, column 1: Map keys must be unique')
  })

  it('names a missing required field', () => {
    const e = validationFailure(() => parseCard(MINIMAL.replace('title: deepMerge replaces arrays\n', ''), 'x.md'))
    expect(e.message).toBe('x.md: invalid card:\n  - x.md: title: is required. Fix: add "title" (string)')
    expect(e.data).toEqual({issues: [{file: 'x.md', field: 'title', message: 'is required', fix: 'add "title" (string)'}]})
  })

  it('rejects an unsafe id and a file without frontmatter', () => {
    expect(validationFailure(() => parseCard(MINIMAL.replace('id: deepmerge-array-replace-trap', 'id: ../../etc/passwd'), 'x.md')).message)
      .toContain('x.md: id: "../../etc/passwd" is not a safe kebab-case id. Fix:')
    expect(validationFailure(() => parseCard('# just markdown\n', 'x.md')).message).toContain('x.md: (frontmatter): missing YAML frontmatter. Fix:')
  })

  it('rejects a file over MAX_CARD_BYTES, counting bytes not characters', () => {
    expect(MAX_CARD_BYTES).toBe(262144)
    const fill = (bytes: number) => `${MINIMAL}${'x'.repeat(bytes - Buffer.byteLength(MINIMAL))}`
    expect(parseCard(fill(MAX_CARD_BYTES), 'x.md').body.length).toBe(MAX_CARD_BYTES - Buffer.byteLength(MINIMAL) + 'body\n'.length)
    const over = validationFailure(() => parseCard(fill(MAX_CARD_BYTES + 1), 'x.md'))
    expect(over.message).toContain('x.md: (content): card is 262145 bytes, over the 262144-byte limit. Fix:')
    const wide = `${MINIMAL}${'证'.repeat(90_000)}` // 90k characters, 270k bytes
    expect(wide.length).toBeLessThan(MAX_CARD_BYTES)
    expect(validationFailure(() => parseCard(wide, 'x.md')).message).toContain('over the 262144-byte limit')
  })
})
