/**
 * The search pattern's dialect is ripgrep's: Rust's regex syntax, Unicode-aware, one line at a time, `$` and `^` also
 * at a lone carriage return (rg --crlf). When rg is missing, cairn searches in Node: this module translates the
 * pattern into a JavaScript RegExp (flag `u`) that gives the same matches, and refuses, with the reason, what it cannot
 * give the same answer for (or what Rust's syntax refuses too).
 *
 * What changes on the way: `\w`, `\d`, `\s`, `\b` and `\B` are Unicode in Rust (ASCII in JavaScript) and become
 * property classes; `.` matches anything but a line break or a carriage return; `(?P<name>` becomes `(?<name>`; `\x{..}`
 * and `\U........` become `\u{..}`; an escaped punctuation character is that character; flags `(?i)`, `(?s)`, `(?m)` at
 * the start are taken. Refused: lookaround and backreferences (Rust has none), inline flags elsewhere, nested classes,
 * class set operations and POSIX classes, `\A`, `\z`, `\<`, `\>`, `\b{…}`, and a `\p{…}` name JavaScript does not know.
 */

/**
 * The escape in a regular expression that asks for a line break or a NUL character (`\n`, `\r`, `\x0a`, `\x{D}`,
 * `\0`…), which no line of text holds; undefined when there is none. ripgrep refuses some of them and the search in
 * Node would find nothing, so cairn refuses them all, the same for both.
 */
export function lineEndEscape(pattern: string): string | undefined {
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '[') inClass = true
    else if (c === ']') inClass = false
    if (c !== '\\') continue
    // Outside a character class only: a class keeps its own rules (a range such as [\x00-\x7f] is text).
    const m = inClass ? null : /^\\(?:[nr0]|x0[aAdD0]|x\{0*[aAdD0]\}|u000[aAdD0])/.exec(pattern.slice(i))
    if (m) return m[0]
    i++
  }
  return undefined
}

/** A pattern the search cannot run; `reason` says why, in English (the app says it in the store's language). */
export class PatternRefused extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'PatternRefused'
  }
}

/**
 * What the search in Node reads an invalid UTF-8 sequence as: a lone surrogate, which no valid UTF-8 text holds.
 * Rust's regex never matches an invalid byte, so `.`, a negated class and `\W`, `\D`, `\S`, `\P{…}` leave it out,
 * as rg does; the line is shown with U+FFFD in its place. (Inside a class, `\D`, `\S` and `\P{…}` would still take it.)
 */
export const INVALID_UTF8 = '\udfff'
const NOT_INVALID = '\\udfff'

/** Rust's `\w`: Alphabetic, marks, decimal digits, connector punctuation, join controls. */
const WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}'
const BOUNDARY = `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`
const NOT_BOUNDARY = `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`

/** Classes by escape letter: outside a class, and inside one (null: cannot be said inside a JavaScript class). */
const CLASSES: Record<string, [string, string | null]> = {
  d: ['\\p{Nd}', '\\p{Nd}'],
  D: [`[^\\p{Nd}${NOT_INVALID}]`, '\\P{Nd}'],
  s: ['\\p{White_Space}', '\\p{White_Space}'],
  S: [`[^\\p{White_Space}${NOT_INVALID}]`, '\\P{White_Space}'],
  w: [`[${WORD}]`, WORD],
  W: [`[^${WORD}${NOT_INVALID}]`, null],
}
const SIMPLE_ESCAPES: Record<string, string> = {t: '\\t', r: '\\r', f: '\\f', v: '\\v', a: '\\x07'}
/** Characters JavaScript's `u` mode lets be escaped (outside a class; `-` too inside one). */
const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/')

/** The RegExp for a pattern (`fixed`: the pattern is a literal string). Throws PatternRefused. */
export function toJsRegExp(pattern: string, options: {fixed?: boolean; ignoreCase?: boolean} = {}): RegExp {
  let ignoreCase = options.ignoreCase ?? false
  let source: string
  if (options.fixed) source = pattern.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
  else {
    const inline = /^\(\?([ism]+)\)/.exec(pattern)
    if (inline?.[1].includes('i')) ignoreCase = true
    source = translate(inline ? pattern.slice(inline[0].length) : pattern)
  }
  const flags = ignoreCase ? 'giu' : 'gu'
  try {
    return new RegExp(source, flags)
  } catch (error) {
    // V8 says "Invalid regular expression: /<source>/<flags>: Unterminated group": the reason is the last part.
    const message = (error as Error).message
    const head = `Invalid regular expression: /${source}/${flags}: `
    const reason = message.startsWith(head) ? message.slice(head.length) : message
    throw new PatternRefused(reason.charAt(0).toLowerCase() + reason.slice(1))
  }
}

interface Scan {
  p: string
  i: number
  out: string
}

function translate(pattern: string): string {
  const s: Scan = {p: pattern, i: 0, out: ''}
  while (s.i < s.p.length) {
    const c = s.p[s.i]
    if (c === '\\') escape(s, false)
    else if (c === '[') charClass(s)
    else if (c === '(') group(s)
    else {
      s.out += c === '.' ? `[^\\n\\r${NOT_INVALID}]` : c === '^' ? '(?<=^|\\r)' : c === '$' ? '(?=$|\\r)' : c
      s.i++
    }
  }
  return s.out
}

function group(s: Scan): void {
  const rest = s.p.slice(s.i)
  if (!rest.startsWith('(?')) {
    s.out += '('
    s.i++
    return
  }
  if (/^\(\?(?:=|!|<=|<!)/.test(rest))
    throw new PatternRefused('look-around, including look-ahead and look-behind, is not supported')
  const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest)
  if (named) {
    s.out += `(?<${named[1]}>`
    s.i += named[0].length
    return
  }
  if (rest.startsWith('(?:')) {
    s.out += '(?:'
    s.i += 3
    return
  }
  throw new PatternRefused('inline flags are taken only at the start of the pattern, as (?i)')
}

/** A character class, up to its closing bracket; a `]` first in it is a literal, as in Rust. */
function charClass(s: Scan): void {
  s.out += '['
  s.i++
  if (s.p[s.i] === '^') {
    s.out += `^${NOT_INVALID}`
    s.i++
  }
  if (s.p[s.i] === ']') {
    s.out += '\\]'
    s.i++
  }
  while (s.i < s.p.length) {
    const c = s.p[s.i]
    const pair = s.p.slice(s.i, s.i + 2)
    if (c === ']') {
      s.out += ']'
      s.i++
      return
    }
    if (c === '[') throw new PatternRefused('nested classes and POSIX classes such as [[:alpha:]] are not supported')
    if (pair === '&&' || pair === '--' || pair === '~~')
      throw new PatternRefused('class set operations (&&, --, ~~) are not supported')
    if (c === '\\') escape(s, true)
    else {
      s.out += c
      s.i++
    }
  }
  throw new PatternRefused('unclosed character class')
}

function escape(s: Scan, inClass: boolean): void {
  const c = s.p[s.i + 1]
  if (c === undefined) throw new PatternRefused('incomplete escape sequence at the end of the pattern')
  s.i += 2
  if (c in CLASSES) {
    const [outside, inside] = CLASSES[c]
    if (inClass && inside === null) throw new PatternRefused(`\\${c} inside a character class is not supported`)
    s.out += inClass ? inside : outside
  } else if (c === 'b' || c === 'B') {
    if (s.p[s.i] === '{') throw new PatternRefused('word boundary assertions such as \\b{start} are not supported')
    if (inClass) s.out += c === 'b' ? '\\x08' : refuse('\\B inside a character class')
    else s.out += c === 'b' ? BOUNDARY : NOT_BOUNDARY
  } else if (c in SIMPLE_ESCAPES) s.out += SIMPLE_ESCAPES[c]
  else if (c === 'n') throw new PatternRefused('a line break never matches: the search reads one line at a time')
  else if (c === 'x' || c === 'u' || c === 'U') s.out += codePoint(s, c)
  else if (c === 'p' || c === 'P') {
    const escaped = property(s, c)
    s.out += c === 'P' && !inClass ? `[^${escaped.replace('\\P', '\\p')}${NOT_INVALID}]` : escaped
  } else if (/[0-9]/.test(c) || c === 'k') throw new PatternRefused('backreferences are not supported')
  else if ('AzZ<>'.includes(c)) throw new PatternRefused(`the assertion \\${c} is not supported`)
  else if (/[!-/:-@[-`{-~ ]/.test(c)) s.out += JS_SYNTAX.has(c) || (inClass && c === '-') ? `\\${c}` : c
  else throw new PatternRefused(`unrecognized escape sequence \\${c}`)
}

const refuse = (what: string): never => {
  throw new PatternRefused(`${what} is not supported`)
}

/** `\x7F`, `\x{10FFFF}`, `\u007F`, `\u{7F}`, `\U0000007F`, `\U{7F}`: one code point. */
function codePoint(s: Scan, kind: string): string {
  const digits = kind === 'x' ? 2 : kind === 'u' ? 4 : 8
  const braced = /^\{([0-9A-Fa-f]{1,8})\}/.exec(s.p.slice(s.i))
  const fixed = new RegExp(`^[0-9A-Fa-f]{${digits}}`).exec(s.p.slice(s.i))
  const hex = braced?.[1] ?? fixed?.[0]
  if (!hex || parseInt(hex, 16) > 0x10ffff) throw new PatternRefused(`invalid code point escape \\${kind}`)
  s.i += (braced ?? fixed)![0].length
  return `\\u{${hex}}`
}

/** `\pL`, `\p{Greek}`, `\p{Script=Greek}`: a property name JavaScript knows, or a script's name. */
function property(s: Scan, kind: string): string {
  const braced = /^\{([^}]*)\}/.exec(s.p.slice(s.i))
  const name = braced ? braced[1].trim() : s.p[s.i]
  if (!name) throw new PatternRefused(`incomplete Unicode class \\${kind}`)
  s.i += braced ? braced[0].length : 1
  for (const candidate of [name, `Script=${name}`]) {
    const escaped = `\\${kind}{${candidate}}`
    try {
      new RegExp(escaped, 'u')
      return escaped
    } catch {
      // the next spelling
    }
  }
  throw new PatternRefused(`the Unicode class \\${kind}{${name}} is not known here: write it as Unicode names it`)
}
