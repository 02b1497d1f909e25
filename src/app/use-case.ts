import {CairnError, endSentence, type ErrorCode, EXIT, sentence} from '../domain/errors.js'

/** What a use case returns: its data, an optional human rendering, warnings, and whether the result is a failure. */
export interface UseCaseOutput<T = unknown> {
  data: T
  /** Human rendering, for a front end that prints text (the CLI without --json). */
  text?: string
  warnings?: string[]
  /** For a person at a text front end, after the text and apart from it (stderr): what to run next. */
  hint?: string
  /** The result is itself a failure report (lint with errors, doctor unhealthy): exit with this code, data kept. */
  failure?: {code: ErrorCode; message: string}
}

/** The one envelope every front end speaks (DESIGN: --json on every command). */
export type Envelope<T = unknown> =
  {ok: true; data: T; warnings: string[]} | {ok: false; error: {code: ErrorCode; message: string; data: unknown}}

export interface Outcome<T = unknown> {
  envelope: Envelope<T>
  /** 0 when ok, else the exit code of the error's code (DESIGN: exit codes). */
  exitCode: number
  /** Human rendering; absent when the use case threw. */
  text?: string
  /** Every warning, also on failure, so a text front end can still show them. */
  warnings: string[]
  hint?: string
}

/** Collects a warning from anywhere in the use case (for example a recovered interrupted write). */
export type Warn = (message: string) => void

/**
 * Runs one use case and maps whatever happens to an envelope and an exit code, for every
 * front end: the CLI prints the envelope (--json) or the text and exits with the code; MCP
 * returns the envelope; the hook runner fails open and treats any `ok: false` as exit 0 with
 * no output. Never throws.
 */
export async function runUseCase<T>(
  fn: (warn: Warn) => Promise<UseCaseOutput<T>> | UseCaseOutput<T>,
): Promise<Outcome<T>> {
  const collected: string[] = []
  let out: UseCaseOutput<T>
  try {
    out = await fn(message => collected.push(message))
  } catch (error) {
    return {...errorOutcome(error), warnings: collected}
  }
  const warnings = [...collected, ...(out.warnings ?? [])]
  if (out.failure) {
    const {code} = out.failure
    const message = sentence(out.failure.message)
    const envelope = {ok: false as const, error: {code, message, data: out.data}}
    return {envelope, exitCode: EXIT[code], text: out.text, warnings}
  }
  return {envelope: {ok: true, data: out.data, warnings}, exitCode: 0, text: out.text, warnings, hint: out.hint}
}

/** The outcome of an error thrown outside a use case (a front end's own failure), mapped the same way. */
export function errorOutcome(error: unknown): Outcome<never> {
  const cairn = toCairnError(error)
  const envelope = {ok: false as const, error: {code: cairn.code, message: cairn.message, data: cairn.data ?? null}}
  return {envelope, exitCode: cairn.exitCode, warnings: []}
}

/** Oclif's parse failures, recognised by shape so this layer does not depend on oclif. */
const USAGE =
  /^(Unexpected argument|Missing \d+ required arg|Nonexistent flag|Expected --|Parsing --|The following error occurred)/m

/** Any thrown value as a CairnError: usage for argument parsing, internal (with the stack) for the unexpected. */
export function toCairnError(error: unknown): CairnError {
  if (error instanceof CairnError) return error
  const e: Error & {oclif?: {exit?: number}} = error instanceof Error ? error : new Error(String(error))
  if (e.oclif?.exit === 2 || USAGE.test(e.message)) {
    // One footer: oclif's own "See more help with --help" gives way to the same words, said once.
    return new CairnError(
      'usage',
      `${endSentence(e.message.replace(/\s*See more help with --help\s*$/, ''))}\nFix: run the command with --help for its usage.`,
    )
  }
  const code = (e as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM' || code === 'ENOSPC' || code === 'EROFS') {
    return new CairnError('internal', `file system error: ${e.message}`)
  }
  return new CairnError('internal', `internal error: ${e.stack ?? e.message}`)
}
