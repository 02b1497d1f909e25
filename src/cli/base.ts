import {Command, Flags} from '@oclif/core'
import {createContext, type Context} from '../context.js'
import {gitUserName} from '../app/stores.js'
import {prepareOrgLayers} from '../app/org-prelude.js'
import {errorOutcome, type Outcome, runUseCase, type UseCaseOutput} from '../app/use-case.js'
import {paletteFor} from './colour.js'
import {type CommandShape, explainParseError} from './parse-errors.js'

/**
 * Every cairn command: parses, runs one app function through runUseCase, and prints the
 * text or the JSON envelope. It is the only place that sets the exit code.
 */
export abstract class CairnCommand extends Command {
  static override baseFlags = {
    json: Flags.boolean({
      description:
        'Print a JSON envelope on stdout: {ok, data, warnings} or {ok: false, error: {code, message, data}}.',
    }),
  }

  protected get wantsJson(): boolean {
    return this.argv.includes('--json')
  }

  private progressShown = false

  /** The context of one run; its warnings (a recovered write, say) go to the use case's list. */
  protected context(warn?: (message: string) => void): Context {
    const tty = process.stderr.isTTY && !this.wantsJson
    const progress = (m: string) => {
      this.progressShown = true
      process.stderr.write(`\r\x1b[K${m}`)
    }
    return createContext({progress: tty ? progress : undefined, warn, lookupActor: gitUserName})
  }

  /** Clears a progress line so results start on a clean line. */
  private clearProgress(): void {
    if (this.progressShown) process.stderr.write('\r\x1b[K')
    this.progressShown = false
  }

  protected abstract exec(ctx: Context): Promise<UseCaseOutput>

  /**
   * Whether the command first fetches the cache of an org layer the machine lacks (app/org-prelude.ts): every
   * command that reads cards does; the org commands manage the cache themselves, and doctor reports it.
   */
  static fetchesOrgLayers = true

  async run(): Promise<void> {
    const outcome = await runUseCase(async warn => {
      const ctx = this.context(warn)
      if ((this.ctor as typeof CairnCommand).fetchesOrgLayers) await prepareOrgLayers(ctx, {fetch: true})
      return this.exec(ctx).catch(error => {
        throw explainParseError(error, this.shape())
      })
    })
    // The arguments were read, or refused with the reason: oclif need not warn that they were not parsed.
    this.parsed = true
    this.print(outcome)
  }

  /** Errors oclif raises outside run() (while loading or parsing) get the same mapping. */
  override async catch(error: Error): Promise<void> {
    this.parsed = true
    this.print(errorOutcome(explainParseError(error, this.shape())))
  }

  /** What a parse error is explained with: the id the command was run by, its arguments, flags and examples. */
  private shape(): CommandShape {
    const {args, flags, examples} = this.ctor
    return {id: this.id ?? this.ctor.id, args, flags, examples: examples as unknown[] | undefined}
  }

  private print(outcome: Outcome): void {
    this.clearProgress()
    process.exitCode = outcome.exitCode
    const {envelope, text} = outcome
    if (this.wantsJson) {
      process.stdout.write(`${JSON.stringify(envelope)}\n`)
      return
    }
    if (text) process.stdout.write(text.replace(/\n?$/, '\n'))
    const paint = paletteFor(process.stderr)
    for (const w of outcome.warnings) process.stderr.write(`${paint.yellow('warning:')} ${w}\n`)
    if (outcome.hint) process.stderr.write(`${outcome.hint}\n`)
    if (!envelope.ok) process.stderr.write(`${paint.red('cairn:')} ${envelope.error.message}\n`)
  }
}
