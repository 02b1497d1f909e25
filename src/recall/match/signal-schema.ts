import {z} from '../../domain/vendor/zod.js'
import {type Issue, validationError} from '../../domain/errors.js'
import {zodIssues} from '../../domain/issues.js'
import {re2Error} from './re2-pattern.js'
import {BUILTIN_SIGNALS, type Signal} from './signals.js'

/** .cairn/signals.yaml: project signals of the same shape as the built-in registry. */
const patternList = z.array(z.string().min(1, 'must not be empty')).default([])
const signalSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be snake_case: lowercase letters, digits and underscores'),
  polarity: z.enum(['positive', 'negative']),
  gating: z.boolean().optional(),
  description: z.string().trim().min(1, 'must not be empty'),
  patterns: z.strictObject({en: patternList, zh: patternList}),
  targets: z.array(z.string()).default([]),
  discount: z.number().gt(0, 'must be above 0').lt(1, 'must be below 1: it multiplies the admission score').optional(),
  source: z.enum(['generic', 'pack', 'project']).default('project'),
  pack: z.string().trim().min(1).nullable().default(null),
})
const fileSchema = z.strictObject({
  schema: z.literal('cairn/signals@1').optional(),
  signals: z.array(signalSchema).default([]),
})

/** Project patterns run on RE2 (re2-pattern.ts), which has a linear-time guarantee and fewer features than RegExp. */
const PATTERN_FIX =
  'use RE2 syntax: no lookahead, lookbehind or backreference, \\x{4e2d} rather than \\u4e2d; ' +
  'escape special characters, or write a plain phrase'

/** Validates a parsed signals file; every problem names the file and the field. */
export function parseSignals(data: unknown, file: string): Signal[] {
  const result = fileSchema.safeParse(data ?? {}, {reportInput: true})
  if (!result.success) throw validationError(zodIssues(result.error, file), `Invalid signals file ${file}`)
  const issues: Issue[] = []
  const builtin = new Set(BUILTIN_SIGNALS.map(s => s.id))
  const seen = new Set<string>()
  const signals: Signal[] = result.data.signals.map(s => ({...s, gating: s.gating ?? s.polarity === 'positive'}))
  const positive = new Set([...BUILTIN_SIGNALS, ...signals].filter(s => s.polarity === 'positive').map(s => s.id))
  signals.forEach((s, i) => {
    const at = `signals[${i}]`
    if (builtin.has(s.id))
      issues.push({
        file,
        field: `${at}.id`,
        message: `"${s.id}" is a built-in signal`,
        fix: 'choose another id; built-in signals cannot be redefined',
      })
    if (seen.has(s.id))
      issues.push({file, field: `${at}.id`, message: `"${s.id}" is defined twice`, fix: 'keep one definition'})
    seen.add(s.id)
    if (s.patterns.en.length + s.patterns.zh.length === 0)
      issues.push({file, field: `${at}.patterns`, message: 'has no pattern', fix: 'give at least one en or zh pattern'})
    for (const lang of ['en', 'zh'] as const) {
      s.patterns[lang].forEach((p, j) => {
        const error = re2Error(p)
        if (error)
          issues.push({
            file,
            field: `${at}.patterns.${lang}[${j}]`,
            message: `not a valid RE2 pattern (${error})`,
            fix: PATTERN_FIX,
          })
      })
    }
    if (s.discount !== undefined && s.polarity !== 'negative')
      issues.push({
        file,
        field: `${at}.discount`,
        message: 'only a negative signal (an intent that is not the task) discounts cards',
        fix: 'set polarity: negative, or remove discount',
      })
    if (s.polarity === 'negative' && s.targets.length === 0 && s.discount === undefined)
      issues.push({
        file,
        field: `${at}.targets`,
        message: 'a negative signal needs targets',
        fix: 'list the positive signal ids it suppresses, or give it a discount',
      })
    if (s.polarity === 'positive' && s.targets.length)
      issues.push({
        file,
        field: `${at}.targets`,
        message: 'only negative signals have targets',
        fix: 'remove targets, or make the signal negative',
      })
    s.targets.forEach((t, j) => {
      if (!positive.has(t))
        issues.push({
          file,
          field: `${at}.targets[${j}]`,
          message: `"${t}" is not a positive signal`,
          fix: 'target a built-in or project positive signal id',
        })
    })
    if (s.source === 'pack' && !s.pack)
      issues.push({file, field: `${at}.pack`, message: 'a pack signal needs its pack name', fix: 'set pack: <name>'})
  })
  if (issues.length) throw validationError(issues, `Invalid signals file ${file}`)
  return signals
}
