import {Args, Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {DEFAULT_LIMIT, enrichApply, enrichList} from '../app/enrich.js'
import {CairnCommand} from '../cli/base.js'
import {renderEnrichApplied, renderEnrichList} from '../cli/render-enrich.js'

export default class Enrich extends CairnCommand {
  static override summary =
    'List cards whose recall fields are thin, with a brief; --apply adds the phrases an agent wrote.'
  static override description = `A card is thin when it has no triggers of its own, no aliases, no use_when, or no phrase in English or in Chinese. Prompts find a card by the words they say, so the agent you already run writes what a colleague would type (the cairn-enrich skill runs this loop), and the team reviews the commit like any change.
--apply takes a JSON array of {"id", "triggers": [], "aliases": {"en": [], "zh": []}, "use_when": [], "ignore_when": []}: the phrases are added to each card's own, repeats dropped (--replace replaces each field given; an empty list clears it), in one commit per store. A bad entry or an unknown id in the file is reported by its place, id and field, exit 6, and nothing is written. An unknown id given to list exits 4.`
  static override strict = false
  static override examples = [
    '<%= config.bin %> enrich',
    '<%= config.bin %> enrich --json --limit 5',
    '<%= config.bin %> enrich lockfile-drift-after-rebase',
    '<%= config.bin %> enrich --apply phrases.json',
    `echo '[{"id":"lockfile-drift-after-rebase","triggers":["npm ci fails after rebase"],"aliases":{"zh":["变基后锁文件冲突"]}}]' | <%= config.bin %> enrich --apply -`,
  ]
  static override args = {
    ids: Args.string({description: 'Ids of cards to brief, thin or not.', required: false, ignoreStdin: true}),
  }
  static override flags = {
    limit: Flags.integer({description: `At most this many briefs (default ${DEFAULT_LIMIT}).`, min: 1}),
    apply: Flags.string({description: 'A JSON file (or - for stdin) of phrases to add.'}),
    replace: Flags.boolean({description: 'With --apply: replace each field an entry gives instead of adding to it.'}),
    'no-commit': Flags.boolean({
      description: 'With --apply: write the files without committing them; they are left unstaged.',
    }),
  }

  protected async exec(ctx: Context) {
    const {argv, flags} = await this.parse(Enrich)
    if (flags.apply === undefined) {
      if (flags.replace || flags['no-commit']) this.error('--replace and --no-commit go with --apply', {exit: 2})
      const r = await enrichList(ctx, {ids: argv as string[], limit: flags.limit})
      return {data: r, text: renderEnrichList(r)}
    }
    if (argv.length || flags.limit !== undefined)
      this.error('--apply takes its ids from the file: give no ids or --limit', {exit: 2})
    const r = await enrichApply(ctx, {file: flags.apply, replace: flags.replace, noCommit: flags['no-commit']})
    return {data: r, text: renderEnrichApplied(r)}
  }
}
