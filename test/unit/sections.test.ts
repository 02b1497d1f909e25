import {describe, expect, it} from 'vitest'
import {fence, getRule, getSection, HEADINGS, renderBody, setSection} from '../../src/domain/card/sections.js'

const input = {
  problem: 'Arrays vanish after deepMerge.',
  use_when: ['merging JSON config'],
  ignore_when: ['plain objects only'],
  policy: 'must',
  risk: 'high',
  rule: 'Merge arrays by hand.',
  evidence: '- Source sessions: s1',
}

const EN = `
## Problem

Arrays vanish after deepMerge.

## Criteria

Use when:
- merging JSON config

Ignore when:
- plain objects only

Recall policy: must.
Risk: high.

## Rule

\`\`\`text
Merge arrays by hand.
\`\`\`

## Evidence

- Source sessions: s1
`

describe('renderBody and getSection', () => {
  it('renders the English body exactly', () => {
    expect(renderBody(input, 'en')).toBe(EN)
  })

  it('reads each English section, trimmed', () => {
    expect(getSection(EN, 'problem')).toBe('Arrays vanish after deepMerge.')
    expect(getSection(EN, 'criteria')).toBe(
      'Use when:\n- merging JSON config\n\nIgnore when:\n- plain objects only\n\nRecall policy: must.\nRisk: high.',
    )
    expect(getSection(EN, 'rule')).toBe('```text\nMerge arrays by hand.\n```')
    expect(getSection(EN, 'evidence')).toBe('- Source sessions: s1')
    expect(getRule(EN)).toBe('Merge arrays by hand.')
  })

  it('renders and reads the Chinese headings', () => {
    expect(HEADINGS.zh).toEqual({
      problem: '这张卡解决什么问题',
      criteria: '使用标准',
      rule: '完整规则',
      evidence: '证据',
    })
    const zh = renderBody(
      {
        ...input,
        problem: '合并后数组丢失。',
        use_when: ['合并配置'],
        ignore_when: [],
        rule: '手动合并数组。',
        evidence: '',
      },
      'zh',
    )
    expect(zh).toBe(
      '\n## 这张卡解决什么问题\n\n合并后数组丢失。\n\n## 使用标准\n\n使用：\n- 合并配置\n\n召回策略：must。\n风险级别：high。\n\n## 完整规则\n\n```text\n手动合并数组。\n```\n\n## 证据\n\n-\n',
    )
    expect(getSection(zh, 'problem')).toBe('合并后数组丢失。')
    expect(getSection(zh, 'criteria')).toBe('使用：\n- 合并配置\n\n召回策略：must。\n风险级别：high。')
    expect(getRule(zh)).toBe('手动合并数组。')
    expect(getSection(zh, 'evidence')).toBe('-')
  })

  it('accepts either heading set whatever the language, case-insensitively', () => {
    const mixed = '## 这张卡解决什么问题\n\nP\n\n## RULE ##\n\nplain rule text\n\n## 证据\n\nE\n'
    expect(getSection(mixed, 'problem')).toBe('P')
    expect(getSection(mixed, 'evidence')).toBe('E')
    expect(getRule(mixed)).toBe('plain rule text')
    expect(getSection(mixed, 'criteria')).toBeUndefined()
    expect(getRule('## Problem\n\nP\n')).toBeUndefined()
  })
})

describe('fenced rules', () => {
  it('fences a rule containing ``` with a longer fence and reads it back exactly', () => {
    const rule = 'Merge explicitly:\n```js\nconst hooks = [...a, ...b]\n```\nNever rely on deepMerge.'
    expect(fence(rule)).toBe(`\`\`\`\`text\n${rule}\n\`\`\`\``)
    const body = renderBody({...input, rule}, 'en')
    expect(getRule(body)).toBe(rule)
    expect(getSection(body, 'evidence')).toBe('- Source sessions: s1')
  })

  it('outgrows the longest run of backticks in the rule', () => {
    const rule = 'A nested example:\n`````md\n````\ninner\n````\n`````'
    expect(fence(rule, 'md').split('\n')[0]).toBe('``````md')
    expect(getRule(renderBody({...input, rule}, 'zh'))).toBe(rule)
  })

  it('ignores headings inside fenced blocks, backtick or tilde', () => {
    const body =
      '## Rule\n\n````text\n## Evidence\nnot a heading\n```\n## Problem\n````\n\n~~~\n## Criteria\n~~~\n\n## Evidence\n\nreal evidence\n'
    expect(getSection(body, 'evidence')).toBe('real evidence')
    expect(getSection(body, 'problem')).toBeUndefined()
    expect(getSection(body, 'criteria')).toBeUndefined()
    expect(getRule(body)).toBe('## Evidence\nnot a heading\n```\n## Problem')
    expect(setSection(body, 'evidence', 'new', 'en')).toBe(body.replace('real evidence', 'new'))
  })
})

describe('setSection', () => {
  it('replaces one section and leaves the rest byte-identical', () => {
    const out = setSection(EN, 'criteria', 'Use when:\n- anything\n\n', 'en')
    const start = EN.indexOf('## Criteria\n') + '## Criteria\n'.length
    const end = EN.indexOf('## Rule')
    expect(out.slice(0, start)).toBe(EN.slice(0, start))
    expect(out.slice(out.indexOf('## Rule'))).toBe(EN.slice(end))
    expect(out).toBe(`${EN.slice(0, start)}\nUse when:\n- anything\n\n${EN.slice(end)}`)
    expect(getSection(out, 'criteria')).toBe('Use when:\n- anything')
  })

  it('replaces the last section and keeps the trailing newline', () => {
    const out = setSection(EN, 'evidence', '- Source sessions: s1, s2', 'en')
    expect(out).toBe(EN.replace('- Source sessions: s1\n', '- Source sessions: s1, s2\n'))
  })

  it('is a no-op when given the same content', () => {
    expect(setSection(EN, 'problem', 'Arrays vanish after deepMerge.', 'en')).toBe(EN)
  })

  it('appends a missing section under the heading of the given language', () => {
    const body = '## 这张卡解决什么问题\n\nP\n\n\n'
    expect(setSection(body, 'evidence', '- 来源会话: s1', 'zh')).toBe(
      '## 这张卡解决什么问题\n\nP\n\n## 证据\n\n- 来源会话: s1\n',
    )
  })
})
