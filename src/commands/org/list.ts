import {orgList} from '../../app/org.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {renderOrgLayers} from '../../cli/render-org.js'

export default class OrgList extends CairnCommand {
  static override summary = 'List the org layers the project reads: name, ref, pinned commit, active cards, URL.'
  static override description =
    'CARDS says "missing" when the cache under $CAIRN_HOME lacks the pinned commit: its cards are left out until a cairn command fetches it ("cairn org fetch").'
  static override examples = ['<%= config.bin %> org list', '<%= config.bin %> org list --json']
  static override fetchesOrgLayers = false

  protected async exec(ctx: Context) {
    await this.parse(OrgList)
    const r = await orgList(ctx)
    return {data: r, text: renderOrgLayers(r.layers)}
  }
}
