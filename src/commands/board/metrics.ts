import {boardMetrics} from '../../app/board/read.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {boardFlags, renderMetrics} from '../../cli/board.js'

export default class BoardMetrics extends CairnCommand {
  static override summary = 'Show the share override rate of each committed batch.'
  static override description =
    'Rate = declarations giving a non-null share / allocatable declarations (every op but withdraw). An empty batch is not applicable (n/a); an override a patch inherits does not count, nor does share: null.'
  static override examples = ['<%= config.bin %> board metrics', '<%= config.bin %> board metrics --json']
  static override flags = {...boardFlags}

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(BoardMetrics)
    const r = await boardMetrics(ctx, {now: flags.now, store: flags.store})
    return {data: r, text: renderMetrics(r)}
  }
}
