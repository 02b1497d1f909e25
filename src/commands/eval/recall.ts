import {Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {evalRecall} from '../../app/eval-recall.js'
import {CairnCommand} from '../../cli/base.js'
import {renderEval} from '../../cli/render-recall.js'

export default class EvalRecall extends CairnCommand {
  static override summary = 'Run a recall suite (OME format) through the prompt-hook matcher and report each case.'
  static override description = [
    'The suite\'s cards (--cards, else its "experiencesFile", else <name>.cards.json next to it) are imported into a throwaway store, a temp git repo with HOME and CAIRN_HOME inside it that is removed afterwards; each prompt then runs through the exact path of the prompt hook.',
    'A case passes when every expected card is recalled, no unexpected card is, and with expectNoMatches nothing is. Exits 6 when any case fails, so CI can guard a library against regressions.',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> eval recall --suite evals/core.json',
    '<%= config.bin %> eval recall --suite evals/core.json --json',
    '<%= config.bin %> eval recall --suite evals/core.json --cards evals/core.enriched.cards.json',
  ]
  static override flags = {
    suite: Flags.string({
      description: 'Suite file: {"name", "cases": [{id, prompt, expectedCards, unexpectedCards?, expectNoMatches?}]}.',
      required: true,
    }),
    cards: Flags.string({
      description:
        'Cards file (OME format) to score the suite against instead of its own: the same cases on other cards, such as the same cards after `cairn enrich`.',
    }),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(EvalRecall)
    const r = await evalRecall(ctx, {suite: flags.suite, cards: flags.cards})
    const data = {
      suite: r.suite,
      total: r.total,
      passed: r.passed,
      failed: r.failed,
      cases: r.cases.map(({prompt: _, ...c}) => c),
    }
    const failure = r.failed
      ? {
          code: 'validation' as const,
          message: `${r.failed} of ${r.total} case(s) failed. Fix: the lines above show the cards each one missed`,
        }
      : undefined
    return {data, text: renderEval(r), failure}
  }
}
