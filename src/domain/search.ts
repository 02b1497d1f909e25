import type {StoreKind} from './org.js'
/**
 * `cairn search`: what a hit is, where in a card it sits (a frontmatter field or the body), and the one order hits
 * come in, whichever engine found them (ripgrep, or the search in Node when rg is missing). Pure: the store's port
 * (store/cards/card-search.ts) reads the files.
 */

/** The states a card can be searched in: its folder (pending/, archive/) or, in cards/, its status. */
export const SEARCH_STATES = ['pending', 'active', 'deprecated', 'superseded', 'archived'] as const
export type SearchState = (typeof SEARCH_STATES)[number]

/** How long rg may run before it is stopped (CAIRN_SEARCH_TIMEOUT_MS overrides it). */
export const SEARCH_TIMEOUT_MS = 60_000

/** A search that went past its time or its output cap; the app says how to narrow it. */
export class SearchTooLarge extends Error {
  constructor(readonly why: 'time' | 'output') {
    super(why === 'time' ? 'the search ran out of time' : 'the search matched too much')
    this.name = 'SearchTooLarge'
  }
}

/** A board record's hits have this state, after every card state. */
export const BOARD_STATE = 'board'

/** Where a matched line sits: a frontmatter key path such as `recall.triggers`, or one of these. */
export const BODY_FIELD = 'body'
/** A fence line, a comment or a blank line of the frontmatter: no key. */
export const FRONTMATTER_FIELD = 'frontmatter'

/** One matched span of a line: its text and where it is, in characters (code points) from the line's start. */
export interface SearchMatch {
  text: string
  start: number
  end: number
}

/** One matched line of a card file or a board record. */
export interface SearchHit {
  /** The card's id (its file name); a board record's key. */
  id: string
  store: StoreKind
  /** An org card's layer, "org:<name>"; absent for a project or personal card. */
  layer?: string
  state: SearchState | typeof BOARD_STATE
  /** The card's type (its type folder); null for a board record. */
  type: string | null
  /** Repo-relative path (the personal store's files: relative to its own repository). */
  file: string
  /** The frontmatter key path the line belongs to, `body`, `frontmatter`; a board record's top-level key. */
  field: string
  line: number
  /** The whole line, without its line break. */
  text: string
  matches: SearchMatch[]
}

const STORE_ORDER = ['project', 'org', 'personal']
const STATE_ORDER: string[] = [...SEARCH_STATES, BOARD_STATE]
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The one order of hits: store (project first, then org layers by name, then personal), state (pending, active, deprecated, superseded, archived, board), id, file, line. */
export function compareHits(a: SearchHit, b: SearchHit): number {
  return (
    STORE_ORDER.indexOf(a.store) - STORE_ORDER.indexOf(b.store) ||
    cmp(a.layer ?? '', b.layer ?? '') ||
    STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state) ||
    cmp(a.id, b.id) ||
    cmp(a.file, b.file) ||
    a.line - b.line
  )
}

/** A card in cards/ is in the state its status names; a status that is none of them (lint reports it) counts as active. */
export function cardState(location: 'pending' | 'cards' | 'archive', status: string | undefined): SearchState {
  if (location === 'pending') return 'pending'
  if (location === 'archive') return 'archived'
  return status === 'deprecated' || status === 'superseded' ? status : 'active'
}

/** The spans of a JavaScript match of a line, in code points; `from` and `to` are UTF-16 offsets. */
export function codePointSpan(line: string, from: number, to: number): SearchMatch {
  const start = codePoints(line.slice(0, from))
  return {text: line.slice(from, to), start, end: start + codePoints(line.slice(from, to))}
}

const codePoints = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0xd800 || c > 0xdbff || i + 1 === s.length) n++
    else if ((s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n++
      i++
    } else n++
  }
  return n
}

/**
 * What a card file's lines are: the field of each frontmatter line (index 0 is line 1; every line past the array is
 * body), and the frontmatter's top-level status.
 */
export interface CardLines {
  fields: string[]
  status?: string
}

/** A line's field: body past the frontmatter. */
export const fieldOf = (lines: CardLines, line: number): string => lines.fields[line - 1] ?? BODY_FIELD

const KEY = /^([A-Za-z_][A-Za-z0-9_-]*|"[^"]*"|'[^']*'):(?:[ \t]+(.*))?$/
const BLOCK_SCALAR = /^[|>][-+0-9]*[ \t]*(?:#.*)?$/
const FENCE = /^---[ \t]*\r?$/

/**
 * Each line's field in a card's text: lines of the frontmatter get the path of YAML keys they sit under (an item of
 * `recall.triggers`, a line of a folded summary), fence and comment lines `frontmatter`, the rest `body`. It reads the
 * indentation, as the layout cairn writes has it; text it cannot place is given the nearest key above it. Only the
 * frontmatter is read: a long body costs nothing.
 */
export function cardLines(text: string): CardLines {
  let at = text.indexOf('\n')
  if (at < 0 || !FENCE.test(text.slice(0, at))) return {fields: []}
  const fields: string[] = [FRONTMATTER_FIELD]
  const stack: {indent: number; key: string}[] = []
  let scalarIndent = -1
  let status: string | undefined
  let current = FRONTMATTER_FIELD
  while (at < text.length) {
    const next = text.indexOf('\n', at + 1)
    const end = next < 0 ? text.length : next
    const line = text.slice(at + 1, end).replace(/\r$/, '')
    at = end
    if (FENCE.test(line)) {
      fields.push(FRONTMATTER_FIELD)
      return {fields, status}
    }
    const indent = line.length - line.trimStart().length
    const blank = line.trim() === ''
    if (scalarIndent >= 0 && (blank || indent > scalarIndent)) {
      fields.push(current)
      continue
    }
    scalarIndent = -1
    if (blank || line.trimStart().startsWith('#')) {
      fields.push(FRONTMATTER_FIELD)
      continue
    }
    let content = line.slice(indent)
    let keyIndent = indent
    while (/^-(?:[ \t]|$)/.test(content)) {
      const rest = content.slice(1).trimStart()
      keyIndent += content.length - rest.length
      content = rest
    }
    const key = KEY.exec(content)
    const before = stack.length
    if (key) while (stack.length && stack[stack.length - 1].indent >= keyIndent) stack.pop()
    else while (stack.length && stack[stack.length - 1].indent > indent) stack.pop()
    if (key) {
      const name = key[1].replace(/^["']|["']$/g, '')
      if (stack.length === 0 && name === 'status') status = (key[2] ?? '').replace(/^["']|["']$/g, '').trim()
      stack.push({indent: keyIndent, key: name})
      if (key[2] !== undefined && BLOCK_SCALAR.test(key[2])) scalarIndent = keyIndent
    }
    if (key || stack.length !== before) current = stack.length ? stack.map(k => k.key).join('.') : FRONTMATTER_FIELD
    fields.push(current)
  }
  // No closing fence: the frontmatter does not parse, and the whole file is the body to a reader.
  return {fields: []}
}

/** A board record line's field: the top-level JSON key it opens (two spaces in), else `record`. */
export function recordLines(text: string): CardLines {
  let current = 'record'
  const fields = text.split('\n').map(line => {
    const key = /^ {2}"([^"\\]+)":/.exec(line)
    if (key) current = key[1]
    else if (/^[{}]\s*$/.test(line)) return 'record'
    return current
  })
  return {fields}
}
