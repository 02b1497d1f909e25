/**
 * A fast reader for the frontmatter layout cairn writes (renderFrontmatter): block mappings indented
 * by two spaces, `key: value` lines, block sequences of scalars, and one-line flow sequences and
 * mappings (`[a, "b: c"]`, `{level: global, paths: []}`). It gives exactly what the YAML library
 * gives for such text, or undefined for anything else (comments, block scalars, anchors, tags,
 * numbers, multi-line flows, duplicate keys, tabs, nesting past MAX_DEPTH), which the library
 * then reads and reports as it always does. Parsing a card this way costs a fraction of the library's general parser.
 * In settings mode (config.yaml, which every write reads) it also reads the comments and blank lines cairn writes there,
 * each a line of its own, and decimal integers such as `core_budget: 8000` or `5: 30`, as values and as keys.
 */

import {MAX_DEPTH} from '../depth.js'

type Value = null | boolean | number | string | Value[] | {[key: string]: Value}

/** Thrown inside, caught at the top: this text is not the layout the fast path reads. */
const NOT_MINE = Symbol('not canonical')

const KEY = /^( *)([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/s
/** A decimal integer the core schema reads exactly as a number (no sign, no leading zero, well inside 2^53). */
const INTEGER = /^(?:0|[1-9][0-9]{0,14})$/
/** Settings mode's keys: KEY's, or an integer (the library's key 5 is the object's key "5"). */
const SETTINGS_KEY = /^( *)([A-Za-z_][A-Za-z0-9_]*|0|[1-9][0-9]{0,14}):(?: (.*))?$/s
/** A line of its own that YAML skips outside block scalars and multi-line scalars, which this reader never reads. */
const SKIPPED = /^ *(?:#.*)?$/s
const ITEM = /^( *)- (.*)$/s
/** Plain scalars the core schema reads as something other than a string (numbers, .inf, .nan). */
const NUMBER =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/
/**
 * Words of letters, digits and CJK ideographs, spaces and `_./-` between them: no test below refuses such
 * a scalar, so they are skipped for it (most of a card's values), all but the number test.
 */
const SIMPLE = /^[A-Za-z0-9\u4e00-\u9fff](?:[A-Za-z0-9 _./\u4e00-\u9fff-]*[A-Za-z0-9\u4e00-\u9fff])?$/
/** Searched from a cursor (lastIndex), not on a copy of the rest of the line: a flow's key, and where a plain scalar in it ends. */
const FLOW_KEY = /[A-Za-z_][A-Za-z0-9_]*/y
const FLOW_END = /[,\]}]/g
const NULLS = new Set(['~', 'null', 'Null', 'NULL'])
const BOOLS: Record<string, boolean> = {true: true, True: true, TRUE: true, false: false, False: false, FALSE: false}

export function parseCanonicalYaml(source: string, settings = false): Record<string, unknown> | undefined {
  if (source.trim() === '' || source.includes('\t') || source.includes('\r')) return undefined
  let lines = source.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  if (settings) lines = lines.filter(line => !SKIPPED.test(line))
  if (lines.length === 0) return undefined
  try {
    const state = {lines, at: 0, key: settings ? SETTINGS_KEY : KEY, integers: settings}
    const map = block(state, 0, 1)
    return state.at === lines.length ? (map as Record<string, unknown>) : undefined
  } catch (error) {
    if (error === NOT_MINE) return undefined
    throw error
  }
}

interface State {
  lines: string[]
  at: number
  /** KEY, or SETTINGS_KEY in settings mode. */
  key: RegExp
  /** Settings mode: a plain INTEGER is a number. */
  integers: boolean
}

/**
 * The block mapping whose keys sit at `indent`, from the current line on, `depth` collections deep. Past the
 * library's depth limit the text is the library's to refuse (see MAX_DEPTH), before anything recurses.
 */
function block(s: State, indent: number, depth: number): {[key: string]: Value} {
  if (depth > MAX_DEPTH) fail()
  const out: {[key: string]: Value} = {}
  while (s.at < s.lines.length) {
    const line = s.lines[s.at]
    const m = s.key.exec(line)
    if (!m) fail()
    if (m[1].length < indent) break
    if (m[1].length > indent || Object.hasOwn(out, m[2]) || !plainKey(m[2])) fail()
    s.at++
    const rest = m[3]
    if (rest === undefined || rest === '') {
      const next = s.lines[s.at]
      const nested = next !== undefined && indentOf(next) === indent + 2
      if (nested && ITEM.test(next)) out[m[2]] = sequence(s, indent + 2, depth + 1)
      else if (nested && s.key.test(next)) out[m[2]] = block(s, indent + 2, depth + 1)
      else if (next !== undefined && indentOf(next) > indent) fail()
      else out[m[2]] = null
    } else out[m[2]] = inline(rest, depth, s.integers)
  }
  return out
}

/** A block sequence of scalars or one-line flows, its `- ` at `indent`. */
function sequence(s: State, indent: number, depth: number): Value[] {
  if (depth > MAX_DEPTH) fail()
  const out: Value[] = []
  for (let m = ITEM.exec(s.lines[s.at] ?? ''); m && m[1].length === indent; m = ITEM.exec(s.lines[s.at] ?? '')) {
    out.push(inline(m[2], depth, s.integers))
    s.at++
  }
  return out
}

/** A key the library reads as the string it spells: not a null or boolean word (null: is the key "", True: is "true"). */
const plainKey = (key: string): boolean => key !== '__proto__' && !NULLS.has(key) && !Object.hasOwn(BOOLS, key)

const indentOf = (line: string): number => /^ */.exec(line)![0].length

/** A value that is the rest of its line, inside `depth` collections: a flow collection or a scalar, nothing after. */
function inline(text: string, depth: number, integers: boolean): Value {
  if (integers && INTEGER.test(text)) return Number(text)
  const cursor = {text, at: 0}
  const value = text[0] === '[' || text[0] === '{' ? flow(cursor, depth) : scalar(cursor, false)
  if (cursor.at !== text.length) fail()
  return value
}

interface Cursor {
  text: string
  at: number
}

function flow(c: Cursor, depth: number): Value {
  const open = c.text[c.at]
  if (open !== '[' && open !== '{') return scalar(c, true)
  if (depth >= MAX_DEPTH) fail()
  const close = open === '[' ? ']' : '}'
  c.at++
  const list: Value[] = []
  const map: {[key: string]: Value} = {}
  if (c.text[c.at] === close) {
    c.at++
    return open === '[' ? list : map
  }
  for (;;) {
    if (open === '[') list.push(flow(c, depth + 1))
    else {
      FLOW_KEY.lastIndex = c.at
      const key = FLOW_KEY.exec(c.text)?.[0]
      if (
        !key ||
        c.text.slice(c.at + key.length, c.at + key.length + 2) !== ': ' ||
        Object.hasOwn(map, key) ||
        !plainKey(key)
      )
        fail()
      c.at += key.length + 2
      map[key] = flow(c, depth + 1)
    }
    if (c.text[c.at] === close) {
      c.at++
      return open === '[' ? list : map
    }
    if (c.text.slice(c.at, c.at + 2) !== ', ') fail()
    c.at += 2
  }
}

/** A quoted or plain scalar; in a flow, a plain one ends at `,`, `]` or `}`. */
function scalar(c: Cursor, inFlow: boolean): Value {
  const first = c.text[c.at]
  if (first === '"') return doubleQuoted(c)
  if (first === "'") return singleQuoted(c)
  let end = c.text.length - c.at
  if (inFlow) {
    FLOW_END.lastIndex = c.at
    const m = FLOW_END.exec(c.text)
    if (m) end = m.index - c.at
  }
  const plain = c.text.slice(c.at, c.at + end)
  // Whatever the YAML grammar treats specially at the start or inside a plain scalar is the library's to read.
  // YAML's white space is the space and the tab alone: a no-break space or U+2028 is text.
  if (!SIMPLE.test(plain)) {
    if (
      plain === '' ||
      /^[ \t]|[ \t]$/.test(plain) ||
      /^[,[\]{}#&*!|>'"%@`]/.test(plain) ||
      /^[-?:](?:[ \t]|$)/.test(plain)
    )
      fail()
    if (/: |:$| #/.test(plain)) fail()
    if (/[\u0000-\u001f\u007f-\u009f\ufeff]/.test(plain)) fail()
    if (inFlow && /[[{]/.test(plain)) fail()
  }
  if (NUMBER.test(plain)) fail()
  c.at += end
  if (NULLS.has(plain)) return null
  return plain in BOOLS ? BOOLS[plain] : plain
}

function singleQuoted(c: Cursor): string {
  let out = ''
  for (let i = c.at + 1; i < c.text.length; i++) {
    if (c.text[i] !== "'") out += c.text[i]
    else if (c.text[i + 1] === "'") {
      out += "'"
      i++
    } else {
      c.at = i + 1
      return out
    }
  }
  return fail()
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
}
const HEX: Record<string, number> = {x: 2, u: 4, U: 8}

function doubleQuoted(c: Cursor): string {
  const text = c.text
  let out = ''
  // From escape to escape: most values have none, and are cut out whole.
  for (let i = c.at + 1; ;) {
    const end = text.indexOf('"', i)
    if (end < 0) return fail()
    const slash = text.indexOf('\\', i)
    if (slash < 0 || slash > end) {
      c.at = end + 1
      return out + text.slice(i, end)
    }
    out += text.slice(i, slash)
    const e = text[slash + 1]
    i = slash + 2
    if (e in ESCAPES) out += ESCAPES[e]
    else if (e in HEX) {
      const hex = text.slice(i, i + HEX[e])
      const code = Number.parseInt(hex, 16)
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== HEX[e] || code > 0x10ffff) fail()
      out += String.fromCodePoint(code)
      i += HEX[e]
    } else fail()
  }
}

function fail(): never {
  throw NOT_MINE
}
