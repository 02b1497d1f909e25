import {Args, Flags} from '@oclif/core'
import {boardHistory} from '../../app/board/history.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {boardFlags, renderHistory} from '../../cli/board.js'

export default class BoardHistory extends CairnCommand {
  static override summary = "Show the full records of committed batches: all, one item's, or one batch id's."
  static override description =
    'Each record holds the request, the receipt and the commit. With --batch, an id that was never saved exits 4: retry it with the same id, actor and content.'
  static override examples = [
    '<%= config.bin %> board history',
    '<%= config.bin %> board history visa',
    '<%= config.bin %> board history --batch run-20261009-final-check --json',
  ]
  static override args = {id: Args.string({description: 'Item id (default: every batch).', required: false})}
  static override flags = {
    ...boardFlags,
    batch: Flags.string({description: 'Show the record of this batch id.'}),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(BoardHistory)
    const r = await boardHistory(ctx, {id: args.id, batch: flags.batch, now: flags.now, store: flags.store})
    return {data: r, text: renderHistory(r.entries)}
  }
}
