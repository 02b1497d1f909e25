import {Args, Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {recall, recallData} from '../app/recall.js'
import {CairnCommand} from '../cli/base.js'
import {CairnError} from '../domain/errors.js'
import {renderRecall} from '../cli/render-recall.js'
import {explainData} from '../cli/recall-data.js'

export default class Recall extends CairnCommand {
  static override summary = 'Find the active cards that apply to a task, as the light index an agent sees.'
  static override description = [
    "Answers exactly as the prompt hook does, from the recall index in .cairn/.cache/ (brought up to date first, so uncommitted edits count): scope, ignore_when and signal gates, an admission score that does not depend on the library's size, then BM25F. Chinese and English prompts reach cards in either language through the lexicon (a CC-CEDICT subset, a software glossary and .cairn/lexicon.yaml).",
    'When no card clears admission it says so and recalls nothing. Each entry ends with the command that prints its full rule; the rule itself is never shown.',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> recall "before commit, check git status"',
    '<%= config.bin %> recall "fix the settings page" --path apps/web/src/settings.tsx --explain',
    '<%= config.bin %> recall "rename the settings fields" --path apps/web/src/settings.tsx,apps/api/settings.ts',
  ]
  static override strict = false
  // The query is checked here, not by oclif: its note about giving arguments before a flag does not hold for --path.
  static override args = {query: Args.string({description: 'The task or question, in English or Chinese.'})}
  static override flags = {
    path: Flags.string({
      description:
        'A repo-relative path the task touches; repeat it, or separate paths with commas. Narrow cards need one of them to match.',
      multiple: true,
      // One value per --path, so the query may come after it.
      multipleNonGreedy: true,
      aliases: ['paths'],
    }),
    limit: Flags.integer({
      description: 'At most this many cards (default: recall.max_cards); admitted must cards are always shown.',
      min: 1,
    }),
    explain: Flags.boolean({description: 'Show every gate and score for each card considered.'}),
  }

  protected async exec(ctx: Context) {
    const {args, argv, flags} = await this.parse(Recall)
    const query = (argv as string[]).length > 1 ? (argv as string[]).join(' ') : args.query
    if (!query?.trim())
      throw new CairnError(
        'usage',
        'Missing the task or question to recall for. Usage: cairn recall <query> [--path <path>]. ' +
          'Fix: give it in quotes, such as: cairn recall "fix the settings page" --path apps/web/src/settings.tsx',
      )
    const r = await recall(ctx, {prompt: query, paths: flags.path, limit: flags.limit})
    const data = {...recallData(query, r), ...(flags.explain ? {explain: explainData(r)} : {})}
    return {data, text: renderRecall(r, !!flags.explain)}
  }
}
