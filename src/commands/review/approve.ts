import {Args, Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {approve} from '../../app/review.js'
import {CairnCommand} from '../../cli/base.js'
import {renderLifecycle} from '../../cli/render-lifecycle.js'

export default class ReviewApprove extends CairnCommand {
  static override summary =
    'Approve pending cards: status active, approved {by, at}, git mv to cards/, one commit per store.'
  static override description =
    'Exits 4 for an unknown id, and 5 for a card that is not pending or whose id already exists in cards/; nothing is written then.'
  static override strict = false
  static override examples = [
    '<%= config.bin %> review approve deepmerge-array-replace-trap',
    '<%= config.bin %> review approve --all',
    '<%= config.bin %> review approve --all --store personal',
  ]
  static override args = {ids: Args.string({description: 'Ids of the pending cards to approve.', required: false})}
  static override flags = {
    all: Flags.boolean({
      description: 'Approve every pending card that review shows (deferred cards excluded), in one store: see --store.',
    }),
    store: Flags.option({
      description:
        'Store to approve in: project (the default inside a project), personal (the default outside one), or all.',
      options: ['project', 'personal', 'all'] as const,
    })(),
    'no-commit': Flags.boolean({description: 'Write the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {argv, flags} = await this.parse(ReviewApprove)
    if (flags.all && argv.length) this.error('give ids or --all, not both', {exit: 2})
    const r = await approve(ctx, {
      ids: argv as string[],
      all: flags.all,
      store: flags.store,
      noCommit: flags['no-commit'],
    })
    return {data: r, text: renderLifecycle(r)}
  }
}
