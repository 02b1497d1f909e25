import {Args, Flags} from '@oclif/core'
import {orgPromote} from '../../app/org-promote.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {renderOrgPromote} from '../../cli/render-org-promote.js'

export default class OrgPromote extends CairnCommand {
  static override summary = "Propose a project card to an org store, on a new branch there, for the org's own review."
  static override description = `Fetches the org layer's repository into the cache under $CAIRN_HOME, commits the card as pending (.cairn/pending/<type>/<id>.md) on a new branch cairn/promote/<id> made from the head of the layer's ref, and pushes that branch with your own git credentials. Open a pull request from it in the org repository: the org's review approves or rejects the card there. The project card records the layer, branch and commit (provenance.promoted, card format cairn/card@6) in one project commit.
The card must be the project's own, active or pending. A project-scoped card without a project key gets this project's key, so in the org store it applies to this project until the org's reviewers widen its scope.
Promoting the same card again is safe: a branch that already holds the same title, summary and body is reused (and pushed if it was not), and nothing new is committed. If the org already has a card with this id that says something else, nothing is written.
When the push fails (no rights, offline), the branch is kept in the cache, a warning names the reason, and the exit code is 0: the proposal is made and recorded, only its delivery is left. Push it with the printed command, or run this command again.`
  static override examples = [
    '<%= config.bin %> org promote never-log-personal-data',
    '<%= config.bin %> org promote cron-jobs-must-be-idempotent --to platform --json',
  ]
  static override args = {id: Args.string({description: 'The id of the project card to propose.', required: true})}
  static override flags = {
    to: Flags.string({description: 'The org layer to propose it to (needed when the project has more than one).'}),
    'no-commit': Flags.boolean({description: 'Write the link into the project card without committing it.'}),
  }
  static override fetchesOrgLayers = false

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(OrgPromote)
    const r = await orgPromote(ctx, {id: args.id, to: flags.to, noCommit: flags['no-commit']})
    return {data: r, text: renderOrgPromote(r)}
  }
}
