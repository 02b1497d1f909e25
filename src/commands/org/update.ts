import {Args, Flags} from '@oclif/core'
import {orgUpdate} from '../../app/org.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {renderOrgUpdate} from '../../cli/render-org.js'

export default class OrgUpdate extends CairnCommand {
  static override summary =
    "Fetch org layers and move each pin to its ref's head, in one commit listing the cards it brings."
  static override description = `The commit message (and --json) lists, per layer, the active cards the new pin adds (+), changes (~) and removes (-), so the project's pull request shows what the organisation changed. A layer already at its head is left as it is; with none moved, nothing is committed.
Never run by a hook: the pin moves only when someone runs this.`
  static override examples = ['<%= config.bin %> org update', '<%= config.bin %> org update platform --json']
  static override args = {name: Args.string({description: 'Update only this layer (default: every layer).'})}
  static override flags = {
    'no-commit': Flags.boolean({description: 'Write config.yaml without committing it; it is left unstaged.'}),
  }
  static override fetchesOrgLayers = false

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(OrgUpdate)
    const r = await orgUpdate(ctx, {name: args.name, noCommit: flags['no-commit']})
    return {data: r, text: renderOrgUpdate(r)}
  }
}
