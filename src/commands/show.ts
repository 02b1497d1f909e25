import {Args, Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {show} from '../app/show.js'
import {CairnCommand} from '../cli/base.js'

export default class Show extends CairnCommand {
  static override summary = 'Print a card, or one section of it.'
  static override description =
    'Looks in the project store, then its org layers (read-only, at their pinned commits), then the personal store; ' +
    'live cards before archived ones. Exits 4 when the id is unknown.'
  static override examples = [
    '<%= config.bin %> show deepmerge-array-replace-trap',
    '<%= config.bin %> show deepmerge-array-replace-trap --section rule',
    '<%= config.bin %> show deepmerge-array-replace-trap --section provenance',
  ]
  static override args = {id: Args.string({description: 'Card id.', required: true})}
  static override flags = {
    section: Flags.option({
      description:
        'Print only this section (rule prints the full rule text; provenance: who proposed the card, from which ' +
        'client and session, and who approved it).',
      options: ['problem', 'criteria', 'rule', 'evidence', 'provenance'] as const,
    })(),
    store: Flags.option({
      description: 'Which store to look in.',
      options: ['project', 'personal', 'all'] as const,
      default: 'all',
    })(),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(Show)
    const r = await show(ctx, {id: args.id, section: flags.section, store: flags.store})
    return {data: r, text: r.text}
  }
}
