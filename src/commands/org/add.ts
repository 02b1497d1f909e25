import {Args, Flags} from '@oclif/core'
import {orgAdd} from '../../app/org.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {renderOrgAdd} from '../../cli/render-org.js'

export default class OrgAdd extends CairnCommand {
  static override summary =
    "Subscribe the project to an org store: another repository's cards, read-only at a pinned commit."
  static override description = `Fetches the URL into the cache under $CAIRN_HOME (shared by every project on this machine that reads it), pins the head of --ref, and records the name, URL, ref and commit in .cairn/config.yaml in one commit. The org store is an ordinary cairn store ("cairn init" there), reviewed in its own pull requests.
From then on recall, the hooks, list, show, search, export and MCP read its active cards at the pinned commit. For one id, the project's card wins over an org card, and an org card over a personal one. Nothing fetches again until "cairn org update" moves the pin; a hook never fetches.
Private repositories work through your own git credentials (credential helper, ssh agent); cairn stores none and never prompts.`
  static override examples = [
    '<%= config.bin %> org add https://github.com/acme/cairn-org.git',
    '<%= config.bin %> org add git@github.com:acme/platform-cards.git --name platform --ref main',
  ]
  static override args = {
    url: Args.string({description: 'The URL you would give "git clone", or a local path.', required: true}),
  }
  static override flags = {
    name: Flags.string({description: 'The layer\'s name in this project (default: from the URL, e.g. "cairn-org").'}),
    ref: Flags.string({description: "The branch or tag to follow (default: the remote's default branch)."}),
    'no-commit': Flags.boolean({description: 'Write config.yaml without committing it; it is left unstaged.'}),
  }
  static override fetchesOrgLayers = false

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(OrgAdd)
    const r = await orgAdd(ctx, {url: args.url, name: flags.name, ref: flags.ref, noCommit: flags['no-commit']})
    return {data: r, text: renderOrgAdd(r)}
  }
}
