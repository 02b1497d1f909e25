import {Args, Flags} from '@oclif/core'
import {orgRemove} from '../../app/org.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {renderOrgRemove} from '../../cli/render-org.js'

export default class OrgRemove extends CairnCommand {
  static override summary = 'Stop reading an org layer: its entry leaves .cairn/config.yaml in one commit.'
  static override description =
    'The cache under $CAIRN_HOME is kept: other projects on this machine may read the same org store.'
  static override examples = ['<%= config.bin %> org remove platform']
  static override args = {
    name: Args.string({description: 'The layer\'s name, as "cairn org list" shows it.', required: true}),
  }
  static override flags = {
    'no-commit': Flags.boolean({description: 'Write config.yaml without committing it; it is left unstaged.'}),
  }
  static override fetchesOrgLayers = false

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(OrgRemove)
    const r = await orgRemove(ctx, {name: args.name, noCommit: flags['no-commit']})
    return {data: r, text: renderOrgRemove(r)}
  }
}
