import {Flags} from '@oclif/core'
import {boardState} from '../../app/board/read.js'
import type {Context} from '../../app/context.js'
import {CairnCommand} from '../../cli/base.js'
import {boardFlags, renderOverviewNote, renderState} from '../../cli/board.js'

export default class BoardState extends CairnCommand {
  static override summary = 'Show the board: layers, items with share, rank and durations, saved annotations.'
  static override description = `Reading changes nothing: no event, no acknowledgement, no reading record (last_seen_at and since_seen are always null).
With --overview DIR it also writes, from the same capture, overview.json (scope, omissions, images), state.json, diff.json (with --diff-from),
overview.html and one PNG per layer rendered by headless Chromium. Without a browser the PNG step exits 4 and the other files are still written.
A view file (JSON) picks what to show: {"items": [ids], "depth": 1, "fields": ["summary", "due_at"], "changes_only": false}.`
  static override examples = [
    '<%= config.bin %> board state --now 2026-10-09T12:00:00Z --json',
    '<%= config.bin %> board state --now 2026-10-09T12:00:00Z --overview out/ --diff-from 3',
  ]
  static override flags = {
    ...boardFlags,
    overview: Flags.string({description: 'Also write the visual overview (JSON, HTML and PNGs) into this directory.'}),
    view: Flags.string({description: 'View file (JSON) choosing items, depth, fields and changes_only for the overview.', dependsOn: ['overview']}),
    'diff-from': Flags.string({description: 'Draw the overview as a diff from this point: an event_seq, a batch id, or an RFC 3339 time (event numbers may move after a merge; batch ids and times do not). Both ends at the same scale and now.', dependsOn: ['overview']}),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(BoardState)
    const overview = flags.overview ? {dir: flags.overview, view: flags.view, diffFrom: flags['diff-from']} : undefined
    const r = await boardState(ctx, {now: flags.now, store: flags.store, overview})
    return {data: r, text: renderState(r) + (r.overview ? `\n\n${renderOverviewNote(flags.overview!, r.overview)}` : '')}
  }
}
