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

/**
 * cairn's wording rules, for what a person or an agent reads of cairn's errors and help:
 * - A message is made of sentences. Each starts with a capital letter, or with a name written as it is typed (a
 *   quoted value, a --flag, a path such as .cairn/config.yaml), and ends with a period, a question mark or an
 *   exclamation mark. A message that lists problems opens with a line ending in a colon, and each item is a sentence.
 * - A label ("file: field:", "Fix:") is followed by the rest of its sentence in lowercase.
 * - A refusal says the fix, as a sentence that starts "Fix: ".
 * - Parentheses never nest: a remark inside a parenthesis uses a colon or a semicolon instead.
 * sentence() gives a text its capital and its final period; every CairnError's message goes through it (an internal
 * error keeps its stack as it is), and formatIssue() and validationError() write issues in this shape.
 * test/wording.test.ts holds the commands to it.
 */
export function sentence(text: string): string {
  const trimmed = text.trim()
  // These are English rules: Chinese text (a zh-CN store's) keeps its own style.
  if (!trimmed || /[\u3400-\u9fff]/.test(trimmed)) return trimmed
  // A first word of letters only is a word; one with a slash, dot, hyphen or underscore is a name, kept as typed.
  const capital = trimmed.replace(/^[a-z](?=[a-z]*[\s,;]|[a-z]*$)/, c => c.toUpperCase())
  return /[.?!]$/.test(capital) ? capital : `${capital.replace(/:$/, '')}.`
}

/** The text with a final period unless it already ends a sentence; its first letter as written. */
export function endSentence(text: string): string {
  const trimmed = text.trim()
  return /[.?!。？！]$/.test(trimmed) ? trimmed : `${trimmed.replace(/[:;,]$/, '')}.`
}

export class CairnError extends Error {
  readonly code: ErrorCode
  readonly data?: unknown

  constructor(code: ErrorCode, message: string, data?: unknown) {
    super(code === 'internal' ? message : sentence(message))
    this.name = 'CairnError'
    this.code = code
    this.data = data
  }

  get exitCode(): number {
    return EXIT[this.code]
  }
}

/** One issue as a line: "file: field: what is wrong. Fix: what to do." */
export function formatIssue(issue: Issue): string {
  const where = [issue.file, issue.field].filter(Boolean).join(': ')
  const what = issue.message.trim().replace(/\.$/, '')
  return `${where}: ${issue.fix ? `${what}. Fix: ${endSentence(issue.fix)}` : endSentence(what)}`
}

/**
 * A validation error listing every issue; the message names file, field and fix for each. The lead says what was
 * refused, as "Invalid YAML in x.json"; it gets its colon here.
 */
export function validationError(issues: Issue[], lead?: string): CairnError {
  const lines = issues.map(i => `  - ${formatIssue(i)}`)
  const head = (lead ?? (issues.length === 1 ? 'Invalid input' : `Invalid input, ${issues.length} problems`)).replace(
    /[.:]$/,
    '',
  )
  return new CairnError('validation', `${sentence(head).replace(/[.?!]$/, '')}:\n${lines.join('\n')}`, {
    issues: issues.map(quietSay),
  })
}
