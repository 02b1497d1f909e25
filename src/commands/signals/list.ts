import type {Context} from '../../context.js'
import {listSignals} from '../../app/signals.js'
import {CairnCommand} from '../../cli/base.js'
import {renderSignals} from '../../cli/render-recall.js'

export default class SignalsList extends CairnCommand {
  static override summary = "Show the signal registry: built-in generic signals and the project's .cairn/signals.yaml."
  static override description =
    'Cards name signal ids in engine_hints (positive, required_all, negative). A gating positive signal must fire for a card that names it; a negative signal suppresses the positive signals it targets. An invalid signals.yaml exits 6 naming the file and field.'
  static override examples = ['<%= config.bin %> signals list', '<%= config.bin %> signals list --json']

  protected async exec(ctx: Context) {
    const r = await listSignals(ctx)
    return {data: r, text: renderSignals(r.signals)}
  }
}
