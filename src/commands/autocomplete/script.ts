import {Args} from '@oclif/core'
import {CompletionCommand, fishScript, runPluginCommand, SHELLS, shellOf} from '../../cli/autocomplete.js'

export default class AutocompleteScript extends CompletionCommand {
  static override hidden = true
  static override summary = 'Print the completion setup script for a shell (fish: the whole completion script).'
  static override args = {
    shell: Args.string({
      description: 'The shell: bash, zsh, fish or powershell.',
      options: [...SHELLS],
      required: false,
    }),
  }

  async run(): Promise<void> {
    const {args} = await this.parse(AutocompleteScript)
    if (shellOf(args.shell, this.config) === 'fish') {
      process.stdout.write(fishScript(this.config))
      return
    }
    await runPluginCommand(this.config, 'autocomplete:script', this.argv)
  }
}
