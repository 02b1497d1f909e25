/**
 * patchCard's text-level fast path (see format.ts): for frontmatter in the layout cairn writes, whose every line the
 * YAML library prints back byte for byte, a patch of top-level scalars (and of a null field set to a map of scalars,
 * as approve sets `approved`) is made by rewriting those lines alone. It gives exactly the text the library's
 * round trip gives, or undefined for anything else (comments, quotes it would print differently, nested paths,
 * lists, keys to add or remove), which the library then patches as it always does.
 */

import {parseCanonicalYaml} from './fast-yaml.js'
import {
  CARD_SCHEMAS,
  CARD_SCHEMA_ID,
  CARD_SCHEMA_V2,
  CARD_SCHEMA_V3,
  CARD_SCHEMA_V4,
  CARD_SCHEMA_V5,
  CARD_SCHEMA_V6,
} from './schema.js'
import {ORIGIN_FIELDS} from './schema.js'

export interface SimplePatch {
  path: string[]
  value: unknown
}

const LINE = /^( *)(?:([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?|- (.*))$/
/** What the library reads or prints otherwise in a plain scalar (its plainString's tests), or a character it escapes. */
const SPECIAL =
  /^[\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[:][ \t]|[ \t]#|[\t :]$|^(?:---|\.\.\.)|[\u0000-\u001f\u007f-\u009f\ufeff\u2028\u2029]/
const NUMBER =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/
/** Spellings of null and the booleans the library prints otherwise than read (it prints null, true, false). */
const OTHER_SPELLINGS = /^(?:~|Null|NULL|True|TRUE|False|FALSE)$/
/** A double-quoted string of printable ASCII and CJK ideographs, no escape: printed back as it is. */
const DOUBLE = /^"[ !#-[\]-~\u4e00-\u9fff]*"$/

/** A plain scalar the library prints as it is read; in a flow, one that holds none of its indicators. */
const plainToken = (s: string, inFlow = false): boolean =>
  s !== '' && !SPECIAL.test(s) && !NUMBER.test(s) && !OTHER_SPELLINGS.test(s) && !(inFlow && /[[\]{},]/.test(s))

/** A value as the rest of its line, as the library prints it back: a plain or simple double-quoted scalar, or a one-line flow list of those. */
function stable(value: string): boolean {
  if (plainToken(value) || DOUBLE.test(value) || value === '[]' || value === '{}') return true
  if (!value.startsWith('[') || !value.endsWith(']')) return false
  return value
    .slice(1, -1)
    .split(', ')
    .every(item => plainToken(item, true) || DOUBLE.test(item))
}

/** The scalar as the library prints a new plain one; undefined when it would quote it or read it back as another type. */
function render(value: unknown): string | undefined {
  if (value === null) return 'null'
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'string' && plainToken(value) && !['null', 'true', 'false'].includes(value)) return value
  return undefined
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The frontmatter YAML (LF, no final line break) with the patches made, or undefined when the library must make them. */
export function fastPatch(yaml: string, patches: readonly SimplePatch[]): string | undefined {
  const data = parseCanonicalYaml(yaml)
  if (!data || data.status === 'draft') return undefined
  const lines = yaml.split('\n')
  const top = new Map<string, number>()
  for (let i = 0; i < lines.length; i++) {
    const m = LINE.exec(lines[i])
    if (!m) return undefined
    const value = m[3] ?? m[4]
    // "key: " with nothing after the space: the library prints it without the space.
    if (value === '') return undefined
    if (value === undefined) {
      // A key that opens a block: its content follows, indented.
      if (m[2] === undefined || (LINE.exec(lines[i + 1] ?? '')?.[1].length ?? 0) <= m[1].length) return undefined
    } else if (!stable(value)) return undefined
    if (m[1] === '' && m[2] !== undefined) top.set(m[2], i)
  }
  // A status set to draft is written as pending by the library, and a field patched twice is left to it too.
  const fields = patches.map(p => p.path[0])
  if (new Set(fields).size < fields.length || patches.some(p => p.path[0] === 'status' && p.value === 'draft'))
    return undefined
  const after = {...data}
  for (const {path, value} of patches) {
    const at = path.length === 1 ? top.get(path[0]) : undefined
    if (at === undefined || ['recall', 'evidence', 'schema'].includes(path[0])) return undefined
    const current = (LINE.exec(lines[at]) as RegExpExecArray)[3]
    const scalar = render(value)
    if (
      scalar !== undefined &&
      current !== undefined &&
      plainToken(current) &&
      current !== 'true' &&
      current !== 'false'
    )
      lines[at] = `${path[0]}: ${scalar}`
    else if (isObject(value) && current === 'null' && Object.keys(value).length > 0) {
      const entries = Object.entries(value).map(([k, v]) => [k, render(v)] as const)
      if (entries.some(([k, v]) => v === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(k))) return undefined
      lines[at] = [`${path[0]}:`, ...entries.map(([k, v]) => `  ${k}: ${v}`)].join('\n')
    } else return undefined
    after[path[0]] = value
  }
  if (patches.some(p => SYNCED.includes(p.path[0]))) {
    const schema = syncedSchema(after)
    if (schema === undefined) return undefined
    const at = top.get('schema')
    const current = at === undefined ? undefined : LINE.exec(lines[at])?.[3]
    // A quoted schema is set in its quotes by the library: left to it.
    if (current !== undefined && !plainToken(current)) return undefined
    if (at !== undefined && (CARD_SCHEMAS as readonly unknown[]).includes(current)) lines[at] = `schema: ${schema}`
  }
  return lines.join('\n')
}

/** The fields the schema line follows (see cardSchemaFor). */
const SYNCED = ['status', 'recall', 'evidence', 'provenance']

/** The schema syncSchema (format.ts) sets; undefined when it would also remove a field (left to the library). */
function syncedSchema(data: Record<string, unknown>): string | undefined {
  const derived = isObject(data.recall) ? data.recall.derived_triggers : undefined
  if (Array.isArray(derived) && derived.length === 0) return undefined
  const evidence = data.evidence
  const json = isObject(evidence) ? evidence : {}
  const held = Object.values(json).some(v => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined))
  if (evidence !== undefined && !held) return undefined
  const provenance = data.provenance
  const origin = isObject(provenance) && ORIGIN_FIELDS.some(k => provenance[k] !== null && provenance[k] !== undefined)
  if (isObject(provenance) && isObject(provenance.promoted)) return CARD_SCHEMA_V6
  return data.status === 'pending'
    ? CARD_SCHEMA_V5
    : origin
      ? CARD_SCHEMA_V4
      : held
        ? CARD_SCHEMA_V3
        : Array.isArray(derived) && derived.length
          ? CARD_SCHEMA_V2
          : CARD_SCHEMA_ID
}
