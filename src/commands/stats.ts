import {Flags} from '@oclif/core'
import {stats} from '../app/receipts.js'
import type {Context} from '../context.js'
import {CairnCommand} from '../cli/base.js'
import {renderStats} from '../cli/render-receipts.js'

export default class Stats extends CairnCommand {
  static override summary =
    'Sum the receipts: per card how often the hooks injected it, in how many sessions, when last, its share of characters.'
  static override description = `Reads the receipts the hooks leave (cairn receipts lists them) and sums them. Per card: injections (hook calls that injected it), matched (those that injected it for itself: a prompt or path match, a core or enforced card, not a catalog line), sessions, the last injection, its characters and their share of every character injected. Per session: injections, distinct cards, characters, and the first and last injection.
cairn maintain plans with the same counts: a recall card no hook matched for maintain.unused_days is archived once the receipts go back that far, and a card injected often with no triggers, aliases or use_when is suggested for cairn enrich.`
  static override examples = [
    '<%= config.bin %> stats',
    '<%= config.bin %> stats --since 2026-11-01',
    '<%= config.bin %> stats --json',
  ]
  static override flags = {
    since: Flags.string({
      description: 'Only receipts from then on: a date (2026-11-01), an RFC 3339 time, or a span back (7d, 12h, 2w).',
    }),
    store: Flags.option({
      description: 'Whose receipts (default: the project store, else the personal one).',
      options: ['project', 'personal'] as const,
    })(),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Stats)
    const r = await stats(ctx, {since: flags.since, store: flags.store})
    return {data: r, text: renderStats(r)}
  }
}
