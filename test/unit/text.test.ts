import {describe, expect, it} from 'vitest'
import {validationFailure} from './expect-error.js'
import {decodeUtf8} from '../../src/domain/text.js'

const failure = (bytes: Uint8Array, file: string) => validationFailure(() => decodeUtf8(bytes, file))

describe('decodeUtf8', () => {
  it('decodes valid UTF-8, including multi-byte characters', () => {
    expect(decodeUtf8(Buffer.from('a 证据 é\n', 'utf8'), 'x.md')).toBe('a 证据 é\n')
    expect(decodeUtf8(new Uint8Array(), 'x.md')).toBe('')
  })

  it('rejects an invalid byte with a validation error naming the file and offset', () => {
    const e = failure(Buffer.from([0x61, 0xff, 0x62]), 'pending/x.md')
    expect(e.code).toBe('validation')
    expect(e.exitCode).toBe(6)
    expect(e.message).toBe(
      'pending/x.md: (content): is not valid UTF-8 (first bad byte at offset 1). Fix: save the file as UTF-8.',
    )
    expect(e.data).toEqual({
      issues: [
        {file: 'pending/x.md', field: '(content)', message: 'invalid UTF-8 at byte 1', fix: 'save the file as UTF-8'},
      ],
    })
  })

  it('reports a character cut off at the end at its first byte, inside the file', () => {
    const bytes = Buffer.from('ab证', 'utf8').subarray(0, 4) // "证" is e8 af 81
    const e = failure(bytes, 'x.md')
    expect(e.code).toBe('validation')
    expect(e.message).toContain('first bad byte at offset 2')
    expect(failure(Buffer.from([0x61, 0xe8]), 'x.md').message).toContain('first bad byte at offset 1')
    expect(failure(Buffer.from([0xf0, 0x9f, 0x98]), 'x.md').message).toContain('first bad byte at offset 0')
  })

  it('rejects overlong encodings and surrogates at the first byte that cannot continue', () => {
    expect(failure(Buffer.from([0x41, 0xc0, 0xaf]), 'x.md').message).toContain('(first bad byte at offset 1)')
    expect(failure(Buffer.from([0xed, 0xa0, 0x80]), 'x.md').message).toContain('(first bad byte at offset 1)')
  })

  it('strips a leading BOM, even after a failed decode', () => {
    failure(Buffer.from([0xff]), 'x.md')
    expect(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]), 'x.md')).toBe('hi')
    expect(decodeUtf8(Buffer.from('\ufeff证据', 'utf8'), 'x.md')).toBe('证据')
  })

  it('keeps a BOM that is not at the start', () => {
    expect(decodeUtf8(Buffer.from('a\ufeffb', 'utf8'), 'x.md')).toBe('a\ufeffb')
  })
})
