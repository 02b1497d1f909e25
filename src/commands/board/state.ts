import {Flags} from '@oclif/core'
import {boardState} from '../../app/board/read.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {boardFlags, renderOverviewNote, renderState} from '../../cli/board.js'

export default class BoardState extends CairnCommand {
  static override summary = 'Show the board: layers, items with share, rank and durations, saved annotations.'
  static override description = `Reading changes nothing: no event, no acknowledgement, no reading record (last_seen_at and since_seen are always null).
With --overview DIR it also writes, from the same capture, state.json, diff.json (with --diff-from), one SVG and one PNG per layer
(rendered without a browser, with the font cairn ships), and overview.json (scope, omissions, images) last; --html adds overview.html.
A view file (JSON) picks what to show: {"items": [ids], "depth": 1, "fields": ["summary", "due_at"], "changes_only": false}.`
  static override examples = [
    '<%= config.bin %> board state --now 2026-10-09T12:00:00Z --json',
    '<%= config.bin %> board state --now 2026-10-09T12:00:00Z --overview out/ --diff-from 3',
    '<%= config.bin %> board state --now 2026-10-09T12:00:00Z --overview out/ --html',
  ]
  static override flags = {
    ...boardFlags,
    overview: Flags.string({description: 'Also write the visual overview (JSON, SVGs and PNGs) into this directory.'}),
    html: Flags.boolean({
      description: 'Also write overview.html: the pictures with every field of the box under the pointer.',
      dependsOn: ['overview'],
    }),
    view: Flags.string({
      description: 'View file (JSON) choosing items, depth, fields and changes_only for the overview.',
      dependsOn: ['overview'],
    }),
    'diff-from': Flags.string({
      description:
        'Draw the overview as a diff from this point: an event_seq, a batch id, or an RFC 3339 time (event numbers may move after a merge; batch ids and times do not). Both ends at the same scale and now.',
      dependsOn: ['overview'],
    }),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(BoardState)
    const overview = flags.overview
      ? {dir: flags.overview, view: flags.view, diffFrom: flags['diff-from'], html: flags.html}
      : undefined
    const r = await boardState(ctx, {now: flags.now, store: flags.store, overview})
    return {
      data: r,
      text: renderState(r) + (r.overview ? `\n\n${renderOverviewNote(flags.overview!, r.overview)}` : ''),
    }
  }
}
