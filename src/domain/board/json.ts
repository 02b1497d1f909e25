import {MAX_DEPTH} from '../depth.js'

/**
 * Strict JSON with a located syntax error. JSON.parse does the parsing; only on failure does
 * this scanner walk the text to name the line, column and what was expected, because V8's
 * messages sometimes give no position and quote the input instead.
 */
export type JsonResult = {ok: true; data: unknown} | {ok: false; line: number; column: number; message: string}

export function parseJsonLocated(text: string): JsonResult {
  try {
    return {ok: true, data: JSON.parse(text)}
  } catch {
    const {pos, expected} = locate(text)
    const before = text.slice(0, pos)
    const line = before.split('\n').length
    const column = pos - before.lastIndexOf('\n')
    const found = pos >= text.length ? 'the end of the input' : JSON.stringify(text[pos])
    return {ok: false, line, column, message: `expected ${expected}, found ${found}`}
  }
}

class Stop extends Error {
  constructor(
    readonly pos: number,
    readonly expected: string,
  ) {
    super(expected)
  }
}

function locate(text: string): {pos: number; expected: string} {
  let i = 0
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++
  }
  const fail = (expected: string): never => {
    throw new Stop(i, expected)
  }
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length
    else fail('a JSON value')
  }
  const string = () => {
    if (text[i] !== '"') fail('a string in double quotes')
    i++
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++
      else if (text.charCodeAt(i) < 0x20) fail('a closing quote (control characters must be escaped)')
      i++
    }
    if (i >= text.length) fail('a closing quote')
    i++
  }
  const number = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400))
    if (!m) fail('a JSON value')
    i += m![0].length
  }
  let depth = 0
  const value = (): void => {
    ws()
    const c = text[i]
    // The walk recurses once per level: past the depth any cairn input may have, it stops rather than overflow.
    if ((c === '{' || c === '[') && depth >= MAX_DEPTH) fail(`at most ${MAX_DEPTH} levels of nesting`)
    if (c === '{') {
      depth++
      i++
      ws()
      if (text[i] === '}') return void (i++, depth--)
      for (;;) {
        ws()
        string()
        ws()
        if (text[i] !== ':') fail('":" after the property name')
        i++
        value()
        ws()
        if (text[i] === ',') i++
        else if (text[i] === '}') return void (i++, depth--)
        else fail('"," or "}" after a property value')
      }
    }
    if (c === '[') {
      depth++
      i++
      ws()
      if (text[i] === ']') return void (i++, depth--)
      for (;;) {
        value()
        ws()
        if (text[i] === ',') i++
        else if (text[i] === ']') return void (i++, depth--)
        else fail('"," or "]" after an array element')
      }
    }
    if (c === '"') return string()
    if (c === 't') return literal('true')
    if (c === 'f') return literal('false')
    if (c === 'n') return literal('null')
    return number()
  }
  try {
    value()
    ws()
    if (i < text.length) fail('the end of the input')
    return {pos: i, expected: 'valid JSON'}
  } catch (error) {
    if (error instanceof Stop) return {pos: error.pos, expected: error.expected}
    throw error
  }
}
