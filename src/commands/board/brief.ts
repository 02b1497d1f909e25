import {boardBrief} from '../../app/board/read.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {boardFlags} from '../../cli/board.js'

export default class BoardBrief extends CairnCommand {
  static override summary = 'Print a text summary of the active board items by rank, low weights folded.'
  static override description =
    'Durations are computed from --now. Summaries are printed whole, never cut to fit a line count. Items below board.fold_below (config, default 3) are folded into one line per layer.'
  static override examples = ['<%= config.bin %> board brief --now 2026-10-09T12:00:00Z']
  static override flags = {...boardFlags}

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(BoardBrief)
    const r = await boardBrief(ctx, {now: flags.now, store: flags.store})
    return {data: r, text: r.text}
  }
}
