import {Flags} from '@oclif/core'
import {stale} from '../app/stale.js'
import type {Context} from '../context.js'
import {CairnCommand} from '../cli/base.js'
import {renderStale} from '../cli/render-stale.js'

export default class Stale extends CairnCommand {
  static override summary =
    'List active cards whose evidence in the code changed: a cited file or symbol gone, or a file rewritten.'
  static override description = `A card's evidence is the files and folders it cites (scope.paths, provenance.recent_paths, evidence.paths) and the symbols its text names (evidence.symbols). A card is listed when a cited file or folder was deleted or renamed (with its new name; a glob when no file matches it any more), a cited symbol is no longer found in the repository's files (cairn's own and the instruction files it exports to are not counted), or a cited file was rewritten (at least half its lines, and at least 3, changed). Only active cards of the project store are checked.
Without --since each card is compared with the commit it was last confirmed at (cairn verify), and a card not confirmed for maintain.verify_days days is listed too. With --since only what the change from that ref to HEAD did is listed, as the pull request review does; a card the change confirmed (cairn verify) counts from its confirmation, and one whose paths or symbols the change modified counts as looked at.
Each card comes with the commands that settle it: cairn verify (still true), cairn review modify (change it), cairn archive (gone). Exit 0 whether or not cards are listed.`
  static override examples = [
    '<%= config.bin %> stale',
    '<%= config.bin %> stale --since origin/main',
    '<%= config.bin %> stale --since v1.4.0 --json',
  ]
  static override flags = {
    since: Flags.string({
      description: 'Compare with this branch, tag or commit (where HEAD meets it), as ci review does.',
    }),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Stale)
    const r = await stale(ctx, {since: flags.since})
    return {data: r, text: renderStale(r)}
  }
}
