import {Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {uninstall} from '../app/uninstall.js'
import {CairnCommand} from '../cli/base.js'
import {renderUninstall} from '../cli/render-install.js'
import {AGENT_CLIENTS} from '../domain/agents/types.js'

export default class Uninstall extends CairnCommand {
  static override summary = 'Disconnect an agent from cairn: remove exactly the hooks and skills install added.'
  static override description = `A settings file nobody but cairn changed since install gets its bytes from before install back (or is deleted, with the folders install created, when install created it). A file you changed at any time since, even between two installs, loses only cairn's entries. A skill file you edited is kept, with a note. Nothing is committed.`
  static override examples = [
    '<%= config.bin %> uninstall --agent claude',
    '<%= config.bin %> uninstall --agent cursor --scope user --dry-run',
  ]
  static override flags = {
    agent: Flags.option({description: 'The agent client to disconnect.', options: AGENT_CLIENTS, required: true})(),
    scope: Flags.option({
      description: 'Where it was installed: this repository (project) or your home directory (user).',
      options: ['project', 'user'] as const,
      default: 'project',
    })(),
    'dry-run': Flags.boolean({description: 'Print the diff of each file instead of writing it.'}),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Uninstall)
    const r = await uninstall(ctx, {agent: flags.agent, scope: flags.scope, dryRun: flags['dry-run']})
    return {...r, text: renderUninstall(r.data)}
  }
}
