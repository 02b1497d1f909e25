import {Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {maintain} from '../app/maintain.js'
import {CairnCommand} from '../cli/base.js'
import {maintainHint, renderMaintain} from '../cli/render-lifecycle.js'

export default class Maintain extends CairnCommand {
  static override summary =
    'Plan library upkeep: core over budget, stale, evidence gone, unused, keyword duplicates, deprecated, broken links.'
  static override description = `Without flags, prints the plan and, when it is not empty, writes the .local/.pending-fix marker.
--dry-run prints the plan and writes nothing. --apply carries out the whole plan in one commit (archive moves, core demotions) and clears the marker.
It reads cairn stale for the project store: a core card whose cited file or symbol is gone is demoted to recall; a card whose every cited file, folder and symbol is gone, and that nobody confirmed for maintain.stale_grace_days, is archived; the plan ends with how many cards may be stale.
It reads this machine's receipts (cairn stats sums them): an active recall card that no hook matched (a catalog line is no match) and nobody read with cairn show for maintain.unused_days is archived, but only once the receipts go back that many days and the card is that old, never a core or protected card; a recall card matched maintain.enrich_min_injections times with no triggers, aliases or use_when is suggested for cairn enrich (a suggestion, not a fix). The plan ends with the most injected cards.
Protected cards are never touched; broken links are only reported.`
  static override examples = ['<%= config.bin %> maintain --dry-run', '<%= config.bin %> maintain --apply']
  static override flags = {
    apply: Flags.boolean({description: 'Carry out the plan in one commit.', exclusive: ['dry-run']}),
    'dry-run': Flags.boolean({description: 'Only print the plan; write nothing, not even the marker.'}),
    store: Flags.option({
      description: 'Store to maintain.',
      options: ['project', 'personal'] as const,
      default: 'project',
    })(),
    'no-commit': Flags.boolean({
      description: 'With --apply, write the files without committing them; they are left unstaged.',
    }),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Maintain)
    const r = await maintain(ctx, {
      apply: flags.apply,
      dryRun: flags['dry-run'],
      store: flags.store,
      noCommit: flags['no-commit'],
    })
    return {data: r, text: renderMaintain(r), hint: maintainHint(r, !!flags['dry-run'])}
  }
}
