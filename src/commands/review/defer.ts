import {Args, Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {defer} from '../../app/review.js'
import {CairnCommand} from '../../cli/base.js'
import {renderLifecycle} from '../../cli/render-lifecycle.js'

export default class ReviewDefer extends CairnCommand {
  static override summary =
    'Defer pending cards: they stay pending, hidden from review until the date; several ids are one commit per store.'
  static override description =
    'The same date applies to every card named. All or none: an unknown id exits 4 and a card that is not pending exits 5, and nothing is written then.'
  static override strict = false
  static override examples = [
    '<%= config.bin %> review defer deepmerge-array-replace-trap --until 2026-12-31',
    '<%= config.bin %> review defer stage-only-touched-paths quote-shell-variables-always --until 2026-12-31',
  ]
  static override args = {ids: Args.string({description: 'Ids of the pending cards to defer.', required: false})}
  static override flags = {
    until: Flags.string({description: 'Date (YYYY-MM-DD) or ISO timestamp to hide the cards until.', required: true}),
    'no-commit': Flags.boolean({description: 'Write the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {argv, flags} = await this.parse(ReviewDefer)
    const r = await defer(ctx, {ids: argv as string[], until: flags.until, noCommit: flags['no-commit']})
    return {data: r, text: renderLifecycle(r)}
  }
}
