import type {Say} from './messages/issues.js'

/** Stable error codes and the exit code each maps to (DESIGN: Code layout and conventions). */
export const EXIT = {
  internal: 1,
  usage: 2,
  not_initialised: 3,
  not_git_repo: 3,
  not_found: 4,
  conflict: 5,
  invalid_transition: 5,
  batch_id_conflict: 5,
  validation: 6,
  rejected: 6,
  git: 7,
} as const

export type ErrorCode = keyof typeof EXIT

/** One problem inside a validation error: the file, the field, what is wrong and how to fix it. */
export interface Issue {
  file?: string
  field: string
  message: string
  fix?: string
  /**
   * What it says by a stable key, for a store that speaks another language (domain/messages/issues.ts). Kept off the
   * issue's JSON and its equality (quietSay): it is how the issue is said again, not part of what it reports.
   */
  say?: Say
}

/** The issue (or lint problem) with its `say` made a property that JSON, equality and spreads leave out. */
export function quietSay<T extends {say?: Say}>(issue: T): T {
  if (!Object.prototype.propertyIsEnumerable.call(issue, 'say')) return issue
  const {say, ...rest} = issue
  return Object.defineProperty(rest, 'say', {value: say, enumerable: false}) as T
}

export class CairnError extends Error {
  readonly code: ErrorCode
  readonly data?: unknown

  constructor(code: ErrorCode, message: string, data?: unknown) {
    super(message)
    this.name = 'CairnError'
    this.code = code
    this.data = data
  }

  get exitCode(): number {
    return EXIT[this.code]
  }
}

export function formatIssue(issue: Issue): string {
  const where = [issue.file, issue.field].filter(Boolean).join(': ')
  return `${where}: ${issue.message}${issue.fix ? `. Fix: ${issue.fix}` : ''}`
}

/** A validation error listing every issue; the message names file, field and fix for each. */
export function validationError(issues: Issue[], lead?: string): CairnError {
  const lines = issues.map(i => `  - ${formatIssue(i)}`)
  const head = lead ?? (issues.length === 1 ? 'Invalid input' : `Invalid input (${issues.length} problems)`)
  return new CairnError('validation', `${head}:\n${lines.join('\n')}`, {issues: issues.map(quietSay)})
}
