import {Args, Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {reject} from '../../app/review.js'
import {CairnCommand} from '../../cli/base.js'
import {renderLifecycle} from '../../cli/render-lifecycle.js'

export default class ReviewReject extends CairnCommand {
  static override summary =
    'Reject pending cards: git rm, with the reason in the commit message; several ids are one commit per store.'
  static override description =
    'The same reason applies to every card named. All or none: an unknown id exits 4 and a card that is not pending exits 5, and nothing is removed then. The cards stay recoverable from git history ("cairn log ID" finds the commit).'
  static override strict = false
  static override examples = [
    '<%= config.bin %> review reject deepmerge-array-replace-trap --reason "already covered by config-merge-rules"',
    '<%= config.bin %> review reject stage-only-touched-paths quote-shell-variables-always --reason "duplicates"',
  ]
  static override args = {ids: Args.string({description: 'Ids of the pending cards to reject.', required: false})}
  static override flags = {
    reason: Flags.string({description: 'Why they are rejected; recorded in the commit message.', required: true}),
    'no-commit': Flags.boolean({description: 'Remove the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {argv, flags} = await this.parse(ReviewReject)
    const r = await reject(ctx, {ids: argv as string[], reason: flags.reason, noCommit: flags['no-commit']})
    return {data: r, text: renderLifecycle(r)}
  }
}
