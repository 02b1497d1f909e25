import {describe, expect, it} from 'vitest'
import {PatternRefused, toJsRegExp} from '../../src/domain/search-pattern.js'
import {cardLines, codePointSpan, fieldOf, recordLines} from '../../src/domain/search.js'

/** What cairn search's pure parts do: each line's field, spans in characters, and the pattern's translation. */

/** Each line's field and the status, as a hit would have them. */
const placed = (text: string) => {
  const lines = cardLines(text)
  return {fields: text.split('\n').map((_, i) => fieldOf(lines, i + 1)), status: lines.status}
}

describe('the field of each line of a card', () => {
  it('names the key path a line sits under, through block scalars, lists and lists of mappings', () => {
    const text = [
      '---',
      'id: some-card-id-here',
      'status: superseded',
      'summary: >-',
      '  folded line one,',
      '',
      '  key: not a key, a folded line',
      'recall:',
      '  triggers:',
      '    - retry budget',
      '  - same-indent item',
      '  aliases: {en: [a], zh: []}',
      '# a comment',
      'evidence:',
      '  - path: src/a.ts',
      '    symbol: parse',
      '"quoted key": x',
      '---',
      '',
      '## Rule',
      'body text',
    ].join('\n')
    expect(placed(text)).toEqual({
      status: 'superseded',
      fields: [
        'frontmatter',
        'id',
        'status',
        'summary',
        'summary',
        'summary',
        'summary',
        'recall',
        'recall.triggers',
        'recall.triggers',
        'recall.triggers',
        'recall.aliases',
        'frontmatter',
        'evidence',
        'evidence.path',
        'evidence.symbol',
        'quoted key',
        'frontmatter',
        'body',
        'body',
        'body',
      ],
    })
  })

  it('reads CRLF lines, and a file without frontmatter or with an unclosed one as all body', () => {
    expect(placed('---\r\ntitle: x\r\n---\r\nbody\r\n').fields).toEqual([
      'frontmatter',
      'title',
      'frontmatter',
      'body',
      'body',
    ])
    expect(placed('just text\nmore').fields).toEqual(['body', 'body'])
    expect(placed('---\ntitle: x\nno end').fields).toEqual(['body', 'body', 'body'])
    expect(recordLines('{\n  "batch_id": "b",\n  "declarations": [\n    {"id": "x"}\n  ]\n}').fields).toEqual([
      'record',
      'batch_id',
      'declarations',
      'declarations',
      'declarations',
      'record',
    ])
  })

  it('gives spans in code points, an astral character counting one', () => {
    expect(codePointSpan('a😀b重试c', 3, 6)).toEqual({text: 'b重试', start: 2, end: 5})
  })
})

describe("the pattern in Node: Rust's regex dialect as a JavaScript RegExp", () => {
  const matches = (pattern: string, text: string, options = {}) =>
    Array.from(text.matchAll(toJsRegExp(pattern, options)), m => m[0])
  const refused = (pattern: string): string => {
    try {
      toJsRegExp(pattern)
    } catch (error) {
      if (error instanceof PatternRefused) return error.reason
      throw error
    }
    throw new Error(`${pattern} was not refused`)
  }

  it('keeps \\w, \\d, \\b Unicode-aware, . off a carriage return, and ^ and $ at a lone one', () => {
    expect(matches('\\w+', 'café 重试 x_y')).toEqual(['café', '重试', 'x_y'])
    expect(matches('\\d+', 'a 42 ٤٢')).toEqual(['42', '٤٢'])
    expect(matches('\\bé', 'é xé')).toEqual(['é'])
    expect(matches('a.c', 'a\rc abc')).toEqual(['abc'])
    expect(matches('^c|b$', 'ab\rcd')).toEqual(['b', 'c'])
    expect(matches('(?i)straße', 'STRASSE Straße')).toEqual(['Straße'])
    expect(matches('(?P<w>ab)\\x{63}\\-\\#', 'abc-#')).toEqual(['abc-#'])
    expect(matches('[]a]+', 'a]]b')).toEqual(['a]]'])
    expect(matches('a(b', 'xa(by', {fixed: true})).toEqual(['a(b'])
  })

  it('refuses, with the reason, what Rust refuses or it cannot answer the same way', () => {
    expect(refused('a(?=b)')).toBe('look-around, including look-ahead and look-behind, is not supported')
    expect(refused('(a)\\1')).toBe('backreferences are not supported')
    expect(refused('[[:alpha:]]')).toBe('nested classes and POSIX classes such as [[:alpha:]] are not supported')
    expect(refused('[a-z&&[^x]]')).toBe('class set operations (&&, --, ~~) are not supported')
    expect(refused('a(?i)b')).toBe('inline flags are taken only at the start of the pattern, as (?i)')
    expect(refused('\\Aa')).toBe('the assertion \\A is not supported')
    expect(refused('\\e')).toBe('unrecognized escape sequence \\e')
    expect(refused('a\\nb')).toBe('a line break never matches: the search reads one line at a time')
    expect(refused('[\\W]')).toBe('\\W inside a character class is not supported')
    expect(refused('\\p{NoSuchScript}')).toBe(
      'the Unicode class \\p{NoSuchScript} is not known here: write it as Unicode names it',
    )
    expect(refused('a{2')).toBe('incomplete quantifier')
  })
})
