import {Command, type Config} from '@oclif/core'
import {errorOutcome} from '../app/use-case.js'
import {CairnError} from '../domain/errors.js'
import {paletteFor} from './colour.js'
import {explainParseError} from './parse-errors.js'
import {fishCompletion} from './fish-completion.js'

/** The shells completion covers: oclif's autocomplete plugin does bash, zsh and PowerShell, cairn does fish. */
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const

/**
 * The completion commands: they print a shell's own text, never cairn's JSON envelope, but a bad
 * argument reads and exits like any other cairn usage error.
 */
export abstract class CompletionCommand extends Command {
  override async catch(error: Error): Promise<void> {
    // Refused with the reason: oclif need not warn that the arguments were not parsed.
    this.parsed = true
    const {args, flags, examples} = this.ctor
    const {envelope, exitCode} = errorOutcome(explainParseError(error, {id: this.id, args, flags, examples}))
    process.exitCode = exitCode
    if (!envelope.ok) process.stderr.write(`${paletteFor(process.stderr).red('cairn:')} ${envelope.error.message}\n`)
  }
}

/** The shell to complete for: the one named, else the one the user runs ($SHELL, as oclif reads it), if cairn completes it. */
export function shellOf(named: string | undefined, config: Config): (typeof SHELLS)[number] {
  const shell = named ?? config.shell
  if ((SHELLS as readonly string[]).includes(shell)) return shell as (typeof SHELLS)[number]
  throw new CairnError(
    'usage',
    `completion covers bash, zsh, fish and powershell, and your shell is "${shell || 'unknown'}". Fix: name one, such as "cairn autocomplete bash"`,
  )
}

/** Runs the autocomplete plugin's own command of that id (cairn's commands of the same id take its place). */
export async function runPluginCommand(config: Config, id: string, argv: string[]): Promise<void> {
  const loadable = config.plugins.get('@oclif/plugin-autocomplete')?.commands.find(c => c.id === id)
  if (!loadable) throw new Error(`the @oclif/plugin-autocomplete command "${id}" is missing; reinstall cairn`)
  const command: Command.Class = await loadable.load()
  await command.run(argv, config)
}

/** The fish script for every visible command and topic of this CLI. */
export function fishScript(config: Config): string {
  return fishCompletion(config.bin, `${config.name} ${config.version}`, config.commands, config.topics)
}

export function fishInstructions(bin: string): string {
  return [
    `Fish completion for ${bin}: fish loads it from ~/.config/fish/completions/${bin}.fish.`,
    '',
    '1) Run this command:',
    '',
    `  mkdir -p ~/.config/fish/completions && ${bin} autocomplete script fish > ~/.config/fish/completions/${bin}.fish`,
    '',
    '2) Open a new fish, and type:',
    '',
    `  ${bin} <TAB>                  # commands and topics`,
    `  ${bin} board state --<TAB>    # flags, with the values they take`,
    '',
    `Run step 1 again after upgrading ${bin}, so new commands and flags complete too.`,
    '',
  ].join('\n')
}
