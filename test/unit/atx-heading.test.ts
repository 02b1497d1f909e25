import {describe, expect, it} from 'vitest'
import {ruleHeadings} from '../../src/domain/derive.js'
import {sections} from '../../src/domain/import/source.js'
import {atxHeading} from '../../src/domain/markdown-blocks.js'

describe('atxHeading', () => {
  it('reads the level and the text, closing hashes only after a space', () => {
    expect(atxHeading('## Testing')).toEqual({level: 2, text: 'Testing'})
    expect(atxHeading('### Testing ###  ')).toEqual({level: 3, text: 'Testing'})
    expect(atxHeading('## C#')).toEqual({level: 2, text: 'C#'})
    expect(atxHeading('#\tTabbed')).toEqual({level: 1, text: 'Tabbed'})
    // A full-width or no-break space after the marks, as Chinese files write them.
    expect(atxHeading('##\u3000测试规范')).toEqual({level: 2, text: '测试规范'})
    expect(atxHeading('##\u00a0Tests')).toEqual({level: 2, text: 'Tests'})
    expect(atxHeading('####### seven')).toBeUndefined()
    expect(atxHeading('#hashtag')).toBeUndefined()
    expect(atxHeading('## ')).toBeUndefined()
    expect(atxHeading('## ###')).toBeUndefined()
    expect(atxHeading(' ## indented')).toBeUndefined()
  })

  it('costs a long line its length: a heading of 200,000 spaces and a word is read at once', () => {
    // The regex it replaces, /^#{1,6}\s+(.+?)\s*#*\s*$/, took 52 s on 8,000 spaces.
    const line = `# a${' '.repeat(200_000)}x`
    expect(atxHeading(line)?.text).toHaveLength(200_002)
    expect(sections(line).map(s => s.heading.length)).toEqual([0, 200_002])
    expect(ruleHeadings(`## a${' '.repeat(200_000)}b`)).toHaveLength(1)
  })
})
