import {Command, Flags} from '@oclif/core'
import {createContext, type Context} from '../app/context.js'
import {CairnError, EXIT} from '../domain/errors.js'

export interface Output<T = unknown> {
  data: T
  /** Human rendering, printed on stdout without --json. */
  text: string
  warnings?: string[]
  /** Exit code for a result that is itself a failure report (lint with errors, doctor unhealthy). */
  failure?: {code: keyof typeof EXIT; message: string}
}

/**
 * Every cairn command: builds the context, runs one app function, renders text or the
 * JSON envelope, and is the only place that sets the exit code.
 */
export abstract class CairnCommand extends Command {
  static override baseFlags = {
    json: Flags.boolean({description: 'Print a JSON envelope on stdout: {ok, data, warnings} or {ok: false, error: {code, message, data}}.'}),
  }

  protected get wantsJson(): boolean {
    return this.argv.includes('--json')
  }

  private progressShown = false

  protected context(): Context {
    const tty = process.stderr.isTTY && !this.wantsJson
    const progress = (m: string) => {
      this.progressShown = true
      process.stderr.write(`\r\x1b[K${m}`)
    }
    return createContext({progress: tty ? progress : undefined})
  }

  /** Clears a progress line so results start on a clean line. */
  private clearProgress(): void {
    if (this.progressShown) process.stderr.write('\r\x1b[K')
    this.progressShown = false
  }

  protected abstract exec(ctx: Context): Promise<Output>

  async run(): Promise<void> {
    const ctx = this.context()
    const out = await this.exec(ctx)
    // Warnings the store gave on the way (a recovered write, an interrupted one) come first.
    out.warnings = [...ctx.warnings, ...(out.warnings ?? [])]
    this.clearProgress()
    if (out.failure) {
      if (this.wantsJson) this.write({ok: false, error: {code: out.failure.code, message: out.failure.message, data: out.data}})
      else {
        if (out.text) process.stdout.write(`${out.text.replace(/\n?$/, '\n')}`)
        process.stderr.write(`cairn: ${out.failure.message}\n`)
      }
      process.exitCode = EXIT[out.failure.code]
      return
    }
    if (this.wantsJson) this.write({ok: true, data: out.data, warnings: out.warnings ?? []})
    else {
      if (out.text) process.stdout.write(out.text.replace(/\n?$/, '\n'))
      for (const w of out.warnings ?? []) process.stderr.write(`warning: ${w}\n`)
    }
  }

  private write(envelope: unknown): void {
    process.stdout.write(`${JSON.stringify(envelope)}\n`)
  }

  override async catch(error: Error & {oclif?: {exit?: number}; code?: string}): Promise<void> {
    this.clearProgress()
    const cairn = toCairnError(error)
    process.exitCode = cairn.exitCode
    if (this.wantsJson) this.write({ok: false, error: {code: cairn.code, message: cairn.message, data: cairn.data ?? null}})
    else process.stderr.write(`cairn: ${cairn.message}\n`)
  }
}

function toCairnError(error: Error & {oclif?: {exit?: number}; code?: string}): CairnError {
  if (error instanceof CairnError) return error
  if (error.oclif?.exit === 2 || /^(Unexpected argument|Missing \d+ required arg|Nonexistent flag|Expected --|Parsing --|The following error occurred)/m.test(error.message)) {
    return new CairnError('usage', `${error.message.trim()}\nSee --help for usage.`)
  }
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM' || code === 'ENOSPC' || code === 'EROFS') {
    return new CairnError('internal', `file system error: ${error.message}`)
  }
  return new CairnError('internal', `internal error: ${error.stack ?? error.message}`)
}
