import {describe, expect, it} from 'vitest'
import {headingLanguage, renderBody} from '../../src/domain/card/sections.js'

const input = {problem: 'p', use_when: ['u'], ignore_when: [], policy: 'may', risk: 'low', rule: 'r', evidence: ''}

describe('headingLanguage', () => {
  it("names the language a body's section headings are written in, whatever its text's script", () => {
    expect(headingLanguage(renderBody({...input, problem: '界面改动'}, 'en'))).toBe('en')
    expect(headingLanguage(renderBody({...input, problem: 'UI change'}, 'zh'))).toBe('zh')
    expect(headingLanguage('\nJust a note without sections.\n')).toBeUndefined()
    expect(headingLanguage('\n## Notes\n\n## 证据\n\n-\n')).toBe('zh')
  })
})
