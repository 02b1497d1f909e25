import {Args, Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {reject} from '../../app/review.js'
import {CairnCommand} from '../../cli/base.js'
import {renderLifecycle} from '../../cli/render-lifecycle.js'

export default class ReviewReject extends CairnCommand {
  static override summary = 'Reject a pending card: git rm, with the reason in the commit message.'
  static override description = 'The card stays recoverable from git history ("cairn log ID" finds the commit).'
  static override examples = [
    '<%= config.bin %> review reject deepmerge-array-replace-trap --reason "already covered by config-merge-rules"',
  ]
  static override args = {id: Args.string({description: 'Id of the pending card.', required: true})}
  static override flags = {
    reason: Flags.string({description: 'Why it is rejected; recorded in the commit message.', required: true}),
    'no-commit': Flags.boolean({description: 'Remove the file without committing it; it is left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(ReviewReject)
    const r = await reject(ctx, {id: args.id, reason: flags.reason, noCommit: flags['no-commit']})
    return {data: r, text: renderLifecycle(r)}
  }
}
