import type {z} from './vendor/zod.js'
import type {Issue} from './errors.js'
import type {Say} from './messages/issues.js'
import {closest} from './suggest.js'

type RawIssue = z.core.$ZodIssue & {
  keys?: string[]
  values?: unknown[]
  expected?: string
  origin?: string
  minimum?: number | bigint
  maximum?: number | bigint
  inclusive?: boolean
  format?: string
  pattern?: string
}

/** zod's own wording ("Too small: expected number to be >=1"); a schema's message ("must ...") is kept instead. */
const ZOD_WORDING = /^(Invalid|Too (small|big)|Unrecognized)/

/**
 * Turns zod issues into cairn issues that name the field, state the rule it breaks and suggest a
 * fix. A message the schema gives is kept (config.ts states each setting's rule); zod's generic
 * one is replaced by the rule it stands for ("must not be empty", "must be at least 1"). With the
 * schema, an unknown field also suggests the closest known one.
 */
export function zodIssues(error: z.ZodError, file?: string, prefix = '', schema?: z.ZodType): Issue[] {
  return error.issues.flatMap((raw): Issue[] => {
    const issue = raw as RawIssue
    // An issue at an item's root has an empty path: drop the prefix's trailing dot so keys read "[1].key", not "[1]..key".
    const base = (
      prefix +
      issue.path
        .map(p => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '')
    ).replace(/\.$/, '')
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      const known = schema ? keysAt(schema, issue.path) : []
      return issue.keys.map(k => {
        const suggestions = k.length >= 3 ? closest(k, known) : []
        const near = suggestions.map(n => `"${n}"`)
        const to = near.length > 1 ? `${near.slice(0, -1).join(', ')} or ${near.at(-1)}` : near[0]
        return {
          file,
          field: base ? `${base}.${k}` : k,
          message: 'unknown field',
          fix: to ? `rename "${k}" to ${to}, or remove it` : `remove "${k}", or check its spelling`,
          say: {key: 'unknownField', name: k, suggestions},
        }
      })
    }
    const field = base || '(root)'
    const own = ZOD_WORDING.test(issue.message) ? undefined : issue.message
    if (issue.code === 'invalid_value' && issue.values) {
      const values = issue.values.map(v => (typeof v === 'string' ? v : JSON.stringify(v)))
      const allowed = values.length === 1 ? values[0] : `one of ${values.join(', ')}`
      // With the input reported (safeParse's reportInput), a missing value is told from a wrong one.
      const reported = 'input' in issue
      const given = reported && issue.input !== undefined ? `${shown(issue.input)} is not ${allowed}` : undefined
      const missing = reported && issue.input === undefined ? 'is required' : undefined
      return [
        {
          file,
          field,
          message: given ?? missing ?? own ?? `must be ${allowed}`,
          fix: `set ${field} to ${values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`}`,
          say: missing
            ? {key: 'required', field}
            : {
                key: 'invalidValue',
                values: issue.values.map(v => JSON.stringify(v)),
                ...(given ? {given: shown(issue.input)} : {}),
              },
        },
      ]
    }
    if (issue.code === 'invalid_type') {
      const received = /received (\w+)/.exec(issue.message)?.[1]
      if (received === 'undefined') {
        const say: Say = {key: 'required', field, expected: issue.expected}
        return [{file, field, message: 'is required', fix: `add "${field}": ${noun(issue.expected)}`, say}]
      }
      const found = received && FOUND[received] ? ` (found ${FOUND[received]})` : ''
      const say: Say = {
        key: 'mustBe',
        expected: issue.expected,
        found: received && FOUND[received] ? received : undefined,
      }
      return [
        {
          file,
          field,
          message: own ?? `must be ${noun(issue.expected)}${found}`,
          fix: `give ${noun(issue.expected)}`,
          ...(own ? {} : {say}),
        },
      ]
    }
    const rule = ruleOf(issue)
    // A custom refinement may carry its own fix, and what it says by key (see domain/card/schema.ts).
    const params = (issue as {params?: {fix?: string; say?: Say}}).params
    const fix = params?.fix ?? rule?.fix
    // The schema's own sentence for a size rule states that rule: its key says it in another language too.
    const say = params?.say ?? (own && issue.code === 'invalid_format' ? undefined : rule?.say)
    return [{file, field, message: own ?? rule?.message ?? issue.message, fix, ...(say ? {say} : {})}]
  })
}

/** A value as a message quotes it: text in double quotes, cut at 60 characters; anything else as JSON. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

const NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a map of fields',
}
const noun = (expected = 'value') => NOUNS[expected] ?? `a ${expected}`
const FOUND: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a map',
  null: 'an empty value',
}

/** The rule a size or format issue stands for, and the fix that keeps it. */
function ruleOf(issue: RawIssue): {message: string; fix?: string; say: Say} | undefined {
  const n = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum)
  const items = (k: number) => `${k} item${k === 1 ? '' : 's'}`
  if (issue.code === 'too_small') {
    if (issue.origin === 'string')
      return n <= 1
        ? {message: 'must not be empty', fix: 'give a value', say: {key: 'empty'}}
        : {
            message: `must be at least ${n} characters`,
            fix: `lengthen it to ${n} characters or more`,
            say: {key: 'minChars', n},
          }
    if (issue.origin === 'array' || issue.origin === 'set')
      return {message: `must hold at least ${items(n)}`, fix: `add at least ${items(n)}`, say: {key: 'minItems', n}}
    return issue.inclusive === false
      ? {message: `must be more than ${n}`, fix: `use a number above ${n}`, say: {key: 'moreThan', n}}
      : {message: `must be at least ${n}`, fix: `use ${n} or more`, say: {key: 'atLeast', n}}
  }
  if (issue.code === 'too_big') {
    if (issue.origin === 'string')
      return {
        message: `must be at most ${n} characters`,
        fix: `shorten it to ${n} characters or fewer`,
        say: {key: 'maxChars', n},
      }
    if (issue.origin === 'array' || issue.origin === 'set')
      return {
        message: `must hold at most ${items(n)}`,
        fix: `remove items to leave ${n} or fewer`,
        say: {key: 'maxItems', n},
      }
    return issue.inclusive === false
      ? {message: `must be less than ${n}`, fix: `use a number below ${n}`, say: {key: 'lessThan', n}}
      : {message: `must be at most ${n}`, fix: `use ${n} or less`, say: {key: 'atMost', n}}
  }
  if (issue.code === 'invalid_format')
    return {
      message: issue.pattern ? `must match ${issue.pattern}` : `must be a valid ${issue.format}`,
      fix: 'use the documented format',
      say: {key: 'format', pattern: issue.pattern, format: issue.format},
    }
  return undefined
}

interface Def {
  type: string
  innerType?: z.ZodType
  out?: z.ZodType
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
}
const defOf = (s: z.ZodType): Def => (s as unknown as {_zod: {def: Def}})._zod.def
const WRAPPERS = new Set(['default', 'prefault', 'nullable', 'optional', 'catch', 'readonly', 'nonoptional'])

/** The schema under its wrappers (a default, a nullable, a preprocess step). */
function unwrap(s: z.ZodType): z.ZodType {
  for (let def = defOf(s); ; def = defOf(s)) {
    if (WRAPPERS.has(def.type) && def.innerType) s = def.innerType
    else if (def.type === 'pipe' && def.out) s = def.out
    else return s
  }
}

/** The field names of the object at path in the schema; none when the path leads elsewhere. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let s: z.ZodType | undefined = unwrap(schema)
  for (const seg of path) {
    const def = defOf(s)
    s = typeof seg === 'number' ? def.element : def.shape?.[String(seg)]
    if (!s) return []
    s = unwrap(s)
  }
  return Object.keys(defOf(s).shape ?? {})
}
