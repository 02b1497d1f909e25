import type {z} from 'zod'
import type {Issue} from './errors.js'

/** Turns zod issues into cairn issues that name the field and suggest a fix. */
export function zodIssues(error: z.ZodError, file?: string, prefix = ''): Issue[] {
  return error.issues.flatMap((raw): Issue[] => {
    const issue = raw as z.core.$ZodIssue & {keys?: string[]; values?: unknown[]; expected?: string; received?: string}
    // An issue at an item's root has an empty path: drop the prefix's trailing dot so keys read "[1].key", not "[1]..key".
    const base = (prefix + issue.path.map(p => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '')).replace(/\.$/, '')
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      return issue.keys.map(k => ({file, field: base ? `${base}.${k}` : k, message: 'unknown field', fix: `remove "${k}" or check its spelling`}))
    }
    const field = base || '(root)'
    if (issue.code === 'invalid_value' && issue.values) {
      return [{file, field, message: 'has an invalid value', fix: `use one of ${issue.values.map(v => JSON.stringify(v)).join(', ')}`}]
    }
    if (issue.code === 'invalid_type') {
      const missing = issue.message.includes('received undefined')
      return [{file, field, message: missing ? 'is required' : issue.message.replace(/^Invalid input: /, ''), fix: missing ? `add "${field}" (${issue.expected})` : `give a ${issue.expected}`}]
    }
    // A custom refinement may carry its own fix (see domain/card/schema.ts).
    const fix = (issue as {params?: {fix?: string}}).params?.fix ?? fixFor(issue.code)
    return [{file, field, message: issue.message, fix}]
  })
}

function fixFor(code: string): string | undefined {
  switch (code) {
    case 'too_small': return 'give a longer or non-empty value'
    case 'too_big': return 'shorten it'
    case 'invalid_format': return 'use the documented format'
    default: return undefined
  }
}
