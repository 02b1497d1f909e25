import {describe, expect, it} from 'vitest'
import {validationFailure} from './expect-error.js'
import {parseStructured} from '../../src/app/input.js'
import {parseCard, patchCard, renderCard} from '../../src/domain/card/format.js'
import {MAX_CARD_BYTES} from '../../src/domain/card/types.js'
import {getRule, getSection} from '../../src/domain/card/sections.js'
import {splitFrontmatter} from '../../src/domain/frontmatter.js'
import {buildCard, parseProposals, type ProposalEnv} from '../../src/domain/propose.js'
import {buildDoc} from '../../src/recall/match/doc.js'

const env: ProposalEnv = {
  now: '2026-11-29T10:00:00Z',
  projectKey: 'github.com/acme/widgets',
  defaultLanguage: 'en',
  maxRecentPaths: 20,
}
const build = (raw: Record<string, unknown>, store: Partial<ProposalEnv> = {}) =>
  buildCard(parseProposals(raw, 'in.json')[0], {...env, ...store})

const MINIMAL = `---
schema: cairn/card@5
id: deepmerge-array-replace-trap
type: pitfall
status: pending
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
      slug: 'deepmerge-array-replace-trap',
      type: 'pitfalls',
      title: 'deepMerge "replaces" arrays: beware #1',
      summary: 'When deepMerge merges hook config, arrays are replaced; merge them by hand.',
      rule: 'Merge arrays explicitly:\n```js\nconst hooks = [...a, ...b]\n```\nNever rely on deepMerge for arrays.',
      keywords: ['a, b', 'x: y', '#tag', 'yes', '123', 'null', '- dash', '2026-01-01'],
      recall: {
        policy: 'must',
        risk: 'high',
        triggers: [
          'deepMerge settings.json hooks array',
          'merge claude hook config arrays',
          'stop hook missing after install',
        ],
      },
      criteria: {use_when: ['merging JSON config'], ignore_when: ['plain objects only']},
      source_sessions: ['session-1', 'session-2'],
      recent_paths: ['src/config/merge.ts', 'templates/hooks.json'],
      session_context: 'Goal: wire hooks.\nTurning point: arrays vanished.',
      user_messages_summary: 'User: "why did my Stop hook vanish?"',
      relevance_scope: 'narrow',
      edit_paths: ['src/config/merge.ts', 'src/config/load.ts'],
    })
    expect(card.type).toBe('pitfall')
    expect(card.scope.paths).toEqual(['src/config/**/*.ts'])
    const text = renderCard(card)
    const parsed = parseCard(text, 'card.md')
    expect(parsed).toEqual(card)
    expect(renderCard(parsed)).toBe(text)
  })

  it('for a Chinese card (language detected as zh) in a zh-CN store', () => {
    const card = build(
      {
        slug: 'deepmerge-array-replace-trap',
        type: 'pitfall',
        title: '深度合并会替换数组',
        summary: '合并钩子配置时，数组会被替换而不是拼接；请手动合并数组。',
        rule: '手动合并数组：\n不要依赖 deepMerge。',
        criteria: {use_when: ['合并 JSON 配置']},
        recall: {aliases: {zh: ['深度合并'], en: ['deep merge']}},
        source_sessions: ['会话-1'],
        session_context: '目标：安装钩子。',
      },
      {defaultLanguage: 'zh'},
    )
    expect(card.language).toBe('zh')
    expect(card.body).toContain('\n## 这张卡解决什么问题\n')
    const text = renderCard(card)
    expect(text).toContain('title: 深度合并会替换数组\n')
    const parsed = parseCard(text, 'card.md')
    expect(parsed).toEqual(card)
    expect(renderCard(parsed)).toBe(text)
  })

  it('keeps a body with no leading newline and an empty body', () => {
    const card = {
      ...build({slug: 'deepmerge-array-replace-trap', type: 'pitfall', title: 't', summary: 's'}),
      body: 'no blank line\n',
    }
    expect(parseCard(renderCard(card), 'c.md')).toEqual(card)
    const empty = {...card, body: ''}
    expect(parseCard(renderCard(empty), 'c.md')).toEqual(empty)
  })
})

describe('parseCard', () => {
  it('fills every missing optional field with its default', () => {
    expect(parseCard(MINIMAL, 'c.md')).toEqual({
      schema: 'cairn/card@5',
      id: 'deepmerge-array-replace-trap',
      type: 'pitfall',
      status: 'pending',
      title: 'deepMerge replaces arrays',
      category: 'general',
      summary: 'Arrays are replaced, not concatenated.',
      load: 'recall',
      criteria: {use_when: [], ignore_when: []},
      engine_hints: {positive: [], required_all: [], negative: []},
      recall: {
        policy: 'may',
        risk: 'medium',
        confidence: 'medium',
        triggers: [],
        derived_triggers: [],
        topics: [],
        aliases: {en: [], zh: []},
      },
      scope: {level: 'project', project_key: null, module_path: null, paths: []},
      evidence: {paths: [], symbols: [], verified_at: null, verified_commit: null},
      language: 'en',
      keywords: [],
      links: [],
      protected: false,
      supersedes: [],
      superseded_by: null,
      deferred_until: null,
      provenance: {
        source_sessions: [],
        proposed_reason: null,
        session_context: null,
        recent_paths: [],
        user_messages_summary: null,
        idempotency_key: null,
        proposed_by: null,
        client: null,
        via: null,
        session: null,
        promoted: null,
      },
      created: '2026-11-29T10:00:00Z',
      updated: '2026-11-29T10:00:00Z',
      approved: null,
      body: 'body\n',
    })
  })

  it('rejects an unknown field, naming the file and the field, with a fix', () => {
    const e = validationFailure(() =>
      parseCard(MINIMAL.replace('status: pending\n', 'status: pending\ncolour: red\n'), 'pending/pitfall/x.md'),
    )
    expect(e.message).toBe(
      'Invalid card pending/pitfall/x.md:\n  - pending/pitfall/x.md: colour: unknown field. Fix: remove "colour", or check its spelling.',
    )
    const nested = validationFailure(() =>
      parseCard(MINIMAL.replace('status: pending\n', 'status: pending\nscope: {pathz: []}\n'), 'x.md'),
    )
    expect(nested.message).toContain('x.md: scope.pathz: unknown field. Fix:')
  })

  it('reports invalid YAML with its line in the file', () => {
    const e = validationFailure(() =>
      parseCard(MINIMAL.replace('title: deepMerge replaces arrays', 'title: deepMerge: replaces arrays'), 'x.md'),
    )
    expect(e.message).toBe(
      'Invalid YAML in x.md:\n  - x.md: (yaml): invalid YAML at line 6, column 8: nested mappings are not allowed in compact mappings. Fix: correct the YAML syntax there; quote a value that holds ": " or " #".',
    )
    const dup = validationFailure(() =>
      parseCard(MINIMAL.replace('status: pending\n', 'status: pending\ntype: model\n'), 'x.md'),
    )
    expect(dup.message).toContain('invalid YAML at line 6, column 1: map keys must be unique')
  })

  it('names a missing required field', () => {
    const e = validationFailure(() => parseCard(MINIMAL.replace('title: deepMerge replaces arrays\n', ''), 'x.md'))
    expect(e.message).toBe('Invalid card x.md:\n  - x.md: title: is required. Fix: add "title": text.')
    expect(e.data).toEqual({
      issues: [{file: 'x.md', field: 'title', message: 'is required', fix: 'add "title": text'}],
    })
  })

  it('rejects an unsafe id and a file without frontmatter', () => {
    expect(
      validationFailure(() =>
        parseCard(MINIMAL.replace('id: deepmerge-array-replace-trap', 'id: ../../etc/passwd'), 'x.md'),
      ).message,
    ).toContain('x.md: id: "../../etc/passwd" is not a safe kebab-case id. Fix:')
    expect(validationFailure(() => parseCard('# just markdown\n', 'x.md')).message).toContain(
      'x.md: (frontmatter): missing YAML frontmatter. Fix:',
    )
  })

  it('rejects a file over MAX_CARD_BYTES, counting bytes not characters', () => {
    expect(MAX_CARD_BYTES).toBe(262144)
    const fill = (bytes: number) => `${MINIMAL}${'x'.repeat(bytes - Buffer.byteLength(MINIMAL))}`
    expect(parseCard(fill(MAX_CARD_BYTES), 'x.md').body.length).toBe(
      MAX_CARD_BYTES - Buffer.byteLength(MINIMAL) + 'body\n'.length,
    )
    const over = validationFailure(() => parseCard(fill(MAX_CARD_BYTES + 1), 'x.md'))
    expect(over.message).toContain('x.md: (content): card is 262145 bytes, over the 262144-byte limit. Fix:')
    const wide = `${MINIMAL}${'证'.repeat(90_000)}` // 90k characters, 270k bytes
    expect(wide.length).toBeLessThan(MAX_CARD_BYTES)
    expect(validationFailure(() => parseCard(wide, 'x.md')).message).toContain('over the 262144-byte limit')
  })
})

const crlf = (text: string) => text.replace(/\n/g, '\r\n')

describe('splitFrontmatter', () => {
  it('splits at the fence lines, giving the YAML without its last line break and the body as it is', () => {
    expect(splitFrontmatter('---\na: 1\nb: 2\n---\n## Rule\n---\nnot a fence here\n', 'x.md')).toEqual({
      yaml: 'a: 1\nb: 2',
      body: '## Rule\n---\nnot a fence here\n',
      bodyStart: 18,
      yamlStartLine: 2,
      eol: '\n',
    })
  })

  it('accepts an empty frontmatter, fences with trailing blanks, and a closing fence at the end of the file', () => {
    expect(splitFrontmatter('---\n---\nbody', 'x.md')).toMatchObject({yaml: '', body: 'body', bodyStart: 8})
    expect(splitFrontmatter('--- \na: 1\n---\t\nbody', 'x.md')).toMatchObject({yaml: 'a: 1', body: 'body'})
    expect(splitFrontmatter('---\na: 1\n---', 'x.md')).toMatchObject({yaml: 'a: 1', body: '', bodyStart: 12})
  })

  it('gives null without an opening fence, and names the file when the fence is never closed', () => {
    expect(splitFrontmatter('# just markdown\n---\n', 'x.md')).toBeNull()
    expect(splitFrontmatter('----\na: 1\n----\n', 'x.md')).toBeNull()
    expect(splitFrontmatter('', 'x.md')).toBeNull()
    expect(validationFailure(() => splitFrontmatter('---\na: 1\n----\nbody\n', 'in.md')).message).toContain(
      '\n  - in.md: (frontmatter): frontmatter has no closing "---" line. Fix: close the frontmatter with a line containing only ---.',
    )
  })

  it('gives a CRLF file LF parts, and where its original body starts', () => {
    const text = '---\r\na: 1\r\nb: x\r\n---\r\n## Rule\r\n\r\nline\r\n'
    const parts = splitFrontmatter(text, 'x.md')!
    expect(parts).toEqual({yaml: 'a: 1\nb: x', body: '## Rule\n\nline\n', bodyStart: 22, yamlStartLine: 2, eol: '\r\n'})
    expect(text.slice(parts.bodyStart)).toBe('## Rule\r\n\r\nline\r\n')
  })
})

describe('CRLF cards (core.autocrlf=true checkouts)', () => {
  const card = build({
    slug: 'deepmerge-array-replace-trap',
    type: 'pitfall',
    title: 'deepMerge replaces arrays',
    summary: 'When deepMerge merges hook config, arrays are replaced.',
    rule: 'Merge arrays by hand:\n```js\nconst hooks = [...a, ...b]\n```',
    criteria: {use_when: ['merging JSON config', 'hook arrays vanish'], ignore_when: ['plain objects only']},
    recall: {triggers: ['deepMerge hooks array']},
    session_context: 'Goal: wire hooks.\nTurning point: arrays vanished.',
  })

  it('parse to the same card as the LF file, with no stray carriage return anywhere', () => {
    const parsed = parseCard(crlf(renderCard(card)), 'c.md')
    expect(parsed).toEqual(card)
    expect(JSON.stringify(parsed)).not.toContain('\\r')
    expect(getRule(parsed.body)).toBe('Merge arrays by hand:\n```js\nconst hooks = [...a, ...b]\n```')
    expect(getSection(parsed.body, 'problem')).toBe(getSection(card.body, 'problem'))
    const doc = buildDoc(parsed, getRule(parsed.body)!, {store: 'project', path: 'c.md'})
    expect(doc.title).toBe('deepMerge replaces arrays')
    expect(doc.use_when).toEqual(['merging JSON config', 'hook arrays vanish'])
    expect(JSON.stringify(doc)).not.toContain('\\r')
  })

  it('report YAML errors at the same file line as an LF file', () => {
    const bad = MINIMAL.replace('title: deepMerge replaces arrays', 'title: deepMerge: replaces arrays')
    expect(validationFailure(() => parseCard(crlf(bad), 'x.md')).message).toBe(
      validationFailure(() => parseCard(bad, 'x.md')).message,
    )
  })

  it('parse as structured Markdown input with an LF body', () => {
    expect(parseStructured('---\r\nslug: a-b\r\ntitle: x\r\n---\r\n## Rule\r\n\r\nDo it.\r\n', 'in.md')).toEqual({
      data: {slug: 'a-b', title: 'x'},
      body: '## Rule\n\nDo it.\n',
    })
  })
})

describe('patchCard', () => {
  const text = `${MINIMAL.replace('status: pending\n', 'status: pending # still pending\nkeywords: [a, b]\n')}\n## Rule\n\n  indented   text  \n`

  it('changes only the patched fields, keeping comments, order and every byte of the body', () => {
    const approved = {by: 'ann', at: '2026-11-30T00:00:00Z'}
    const patched = patchCard(text, 'x.md', [
      [['status'], 'active'],
      [['approved'], approved],
      [['keywords'], ['c']],
    ])
    expect(patched).toBe(
      text
        // An approved card goes back to the oldest format that holds it (status pending needs @5).
        .replace('schema: cairn/card@5\n', 'schema: cairn/card@1\n')
        .replace('status: pending # still pending\n', 'status: active # still pending\n')
        .replace('keywords: [a, b]\n', 'keywords: [c]\n')
        .replace('---\nbody', 'approved:\n  by: ann\n  at: 2026-11-30T00:00:00Z\n---\nbody'),
    )
    expect(parseCard(patched, 'x.md')).toMatchObject({status: 'active', keywords: ['c'], approved})
  })

  it('writes values YAML would reinterpret so that they read back unchanged, and clears a field with null', () => {
    const patches: [string[], unknown][] = [
      [['title'], 'yes: no #1'],
      [['summary'], '2026-01-01'],
      [['schema'], '123'],
    ]
    const deferred = MINIMAL.replace('status: pending\n', 'status: pending\ndeferred_until: 2026-12-01\n')
    const patched = patchCard(deferred, 'x.md', [...patches, [['deferred_until'], null]])
    expect(parseCard(patched.replace('schema: "123"', 'schema: cairn/card@5'), 'x.md')).toMatchObject({
      title: 'yes: no #1',
      summary: '2026-01-01',
      deferred_until: null,
    })
    expect(patched).toContain('schema: "123"\n')
  })

  it('keeps a CRLF card CRLF throughout, so the result is a valid card with no mixed line endings', () => {
    const patched = patchCard(crlf(text), 'x.md', [[['status'], 'active']])
    expect(patched).toBe(crlf(patchCard(text, 'x.md', [[['status'], 'active']])))
    expect(patched.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    expect(parseCard(patched, 'x.md')).toEqual(parseCard(patchCard(text, 'x.md', [[['status'], 'active']]), 'x.md'))
  })

  it('refuses a file without frontmatter and reports invalid YAML at its file line', () => {
    expect(validationFailure(() => patchCard('# no frontmatter\n', 'x.md', [])).message).toContain(
      'x.md: (frontmatter): missing YAML frontmatter. Fix:',
    )
    const bad = MINIMAL.replace('title: deepMerge replaces arrays', 'title: deepMerge: replaces arrays')
    expect(validationFailure(() => patchCard(bad, 'x.md', [[['status'], 'active']])).message).toContain(
      'invalid YAML at line 6, column 8',
    )
  })
})
