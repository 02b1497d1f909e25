import {Args, Flags} from '@oclif/core'
import {CompletionCommand, fishInstructions, runPluginCommand, SHELLS, shellOf} from '../../cli/autocomplete.js'

export default class Autocomplete extends CompletionCommand {
  static override summary = 'Show how to set up shell completion for bash, zsh, fish or PowerShell.'
  static override description = `Completion for bash, zsh and PowerShell comes from oclif's autocomplete plugin, which builds a cache under ~/.cache/cairn; fish completion is a script cairn writes from its own commands.
Without a shell, the one you run ($SHELL) is used.`
  static override examples = [
    '<%= config.bin %> autocomplete bash',
    '<%= config.bin %> autocomplete fish',
    '<%= config.bin %> autocomplete --refresh-cache',
  ]
  static override args = {
    shell: Args.string({
      description: 'The shell: bash, zsh, fish or powershell.',
      options: [...SHELLS],
      required: false,
    }),
  }
  static override flags = {
    'refresh-cache': Flags.boolean({
      char: 'r',
      description: 'Rebuild the bash, zsh and PowerShell completion cache, without the instructions.',
    }),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Autocomplete)
    if (!flags['refresh-cache'] && shellOf(args.shell, this.config) === 'fish') {
      process.stdout.write(fishInstructions(this.config.bin))
      return
    }
    await runPluginCommand(this.config, 'autocomplete', this.argv)
  }
}
