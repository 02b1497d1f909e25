import {boardState} from '../../app/board/read.js'
import type {Context} from '../../app/context.js'
import {CairnCommand} from '../../cli/base.js'
import {boardFlags, renderState} from '../../cli/board.js'

export default class BoardState extends CairnCommand {
  static override summary = 'Show the board: layers, items with share, rank and durations, saved annotations.'
  static override description = 'Reading changes nothing: no event, no acknowledgement, no reading record (last_seen_at and since_seen are always null).'
  static override examples = ['<%= config.bin %> board state --now 2026-10-09T12:00:00Z --json']
  static override flags = {...boardFlags}

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(BoardState)
    const r = await boardState(ctx, {now: flags.now, store: flags.store as never})
    return {data: r, text: renderState(r)}
  }
}
