import {Args, Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {defer} from '../../app/review.js'
import {CairnCommand} from '../../cli/base.js'
import {renderLifecycle} from '../../cli/render-lifecycle.js'

export default class ReviewDefer extends CairnCommand {
  static override summary = 'Defer a pending card: it stays pending, hidden from review until the date.'
  static override examples = ['<%= config.bin %> review defer deepmerge-array-replace-trap --until 2026-12-31']
  static override args = {id: Args.string({description: 'Id of the pending card.', required: true})}
  static override flags = {
    until: Flags.string({description: 'Date (YYYY-MM-DD) or ISO timestamp to hide the card until.', required: true}),
    'no-commit': Flags.boolean({description: 'Write the file without committing it; it is left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(ReviewDefer)
    const r = await defer(ctx, {id: args.id, until: flags.until, noCommit: flags['no-commit']})
    return {data: r, text: renderLifecycle(r)}
  }
}
