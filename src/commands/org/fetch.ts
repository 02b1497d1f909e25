import {orgFetch} from '../../app/org.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {renderOrgLayers} from '../../cli/render-org.js'

export default class OrgFetch extends CairnCommand {
  static override summary = "Bring the cache of every org layer's pinned commit, without moving a pin."
  static override description =
    'What a fresh machine or CI runs before it reads cards; any other cairn command does the same for a missing cache, and warns when it cannot. Fails (exit 7) when a remote cannot be read and the cache lacks the pinned commit.'
  static override examples = ['<%= config.bin %> org fetch']
  static override fetchesOrgLayers = false

  protected async exec(ctx: Context) {
    await this.parse(OrgFetch)
    const r = await orgFetch(ctx)
    return {data: r, text: renderOrgLayers(r.layers)}
  }
}
