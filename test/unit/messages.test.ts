import {describe, expect, it} from 'vitest'
import {BOARD_TEXT} from '../../src/domain/messages/board.js'
import {DOCTOR_TEXT} from '../../src/domain/messages/doctor.js'
import {HOOK_TEXT} from '../../src/domain/messages/hooks.js'
import {IMPORT_TEXT} from '../../src/domain/messages/import.js'
import {type Catalog, speak, STORE_LANGUAGES} from '../../src/domain/messages/language.js'
import {LINT_TEXT} from '../../src/domain/messages/lint.js'
import {PROPOSE_TEXT} from '../../src/domain/messages/propose.js'
import {RECALL_TEXT} from '../../src/domain/messages/recall.js'

/**
 * Every catalog: each language has every message, and the Chinese one keeps the protected tokens its English one has
 * (commands in backticks or quotes, flags, skills, cairn's own files, field names): what the agent or the person
 * types, matches or looks up is the same in both.
 */

const CATALOGS: Record<string, Catalog<object>> = {
  board: BOARD_TEXT,
  hooks: HOOK_TEXT,
  recall: RECALL_TEXT,
  lint: LINT_TEXT,
  propose: PROPOSE_TEXT,
  doctor: DOCTOR_TEXT,
  import: IMPORT_TEXT,
}

/**
 * One value that serves as any argument a message takes: text ("ARG"), a number, a list of one, a record whose every
 * field is itself; each message renders with it.
 */
const ARG: unknown = new Proxy(['ARG'], {
  get(target, p) {
    if (p === Symbol.toPrimitive) return () => 'ARG'
    if (p in target) {
      const v = (target as unknown as Record<PropertyKey, unknown>)[p]
      return typeof v === 'function' ? v.bind(target) : v
    }
    const s = (String.prototype as unknown as Record<PropertyKey, unknown>)[p]
    if (typeof s === 'function') return s.bind('ARG')
    return ARG
  },
})

/** Every message of a table, rendered: a text as it is, a function with ARG for each argument. */
function rendered(table: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(table)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value)
    else if (typeof value === 'function')
      out.set(`${prefix}${key}`, String((value as (...a: unknown[]) => unknown)(ARG, ARG, ARG, ARG, ARG)))
    else if (value && typeof value === 'object' && !(value instanceof RegExp))
      for (const [k, v] of rendered(value, `${prefix}${key}.`)) out.set(k, v)
  }
  return out
}

/** The tokens that must stay verbatim: commands in backticks or quotes, flags, skills, cairn's files, field names. */
function protectedTokens(text: string): string[] {
  return [
    ...text.matchAll(/`[^`]+`/g),
    ...text.matchAll(/"cairn [^"]+"/g),
    ...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g),
    ...text.matchAll(/\bcairn-[a-z]+\b/g),
    ...text.matchAll(/\.cairn\/[\w./-]*/g),
    ...text.matchAll(/\b[a-z]+_[a-z_]+\b/g),
  ].map(m => m[0])
}

describe('the message catalogs', () => {
  for (const [area, catalog] of Object.entries(CATALOGS)) {
    it(`${area}: every language has every message, and Chinese keeps English's protected tokens`, () => {
      const en = rendered(speak(catalog, 'en'))
      expect(en.size).toBeGreaterThan(0)
      for (const language of STORE_LANGUAGES) {
        const other = rendered(speak(catalog, language))
        expect([...other.keys()].sort()).toEqual([...en.keys()].sort())
        for (const [key, text] of en)
          for (const token of protectedTokens(text)) expect(other.get(key), `${area}.${key}`).toContain(token)
      }
    })
  }

  it('a store without a language, or an older index without one, speaks English', () => {
    expect(speak(HOOK_TEXT, undefined)).toBe(HOOK_TEXT.en)
    expect(speak(HOOK_TEXT, 'zh-CN')).toBe(HOOK_TEXT['zh-CN'])
  })
})
