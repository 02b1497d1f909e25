import {Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {evalRecall} from '../../app/eval-recall.js'
import {CairnCommand} from '../../cli/base.js'
import {renderEval} from '../../cli/render-recall.js'

export default class EvalRecall extends CairnCommand {
  static override summary = 'Run a recall suite (OME format) through the prompt-hook matcher and report each case.'
  static override description = [
    'The suite\'s cards (<name>.cards.json next to it, or its "experiencesFile") are imported into a throwaway store, a temp git repo with HOME and CAIRN_HOME inside it that is removed afterwards; each prompt then runs through the exact path of the prompt hook.',
    'A case passes when every expected card is recalled, no unexpected card is, and with expectNoMatches nothing is. Exits 6 when any case fails, so CI can guard a library against regressions.',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> eval recall --suite evals/core.json',
    '<%= config.bin %> eval recall --suite evals/core.json --json',
  ]
  static override flags = {
    suite: Flags.string({
      description: 'Suite file: {"name", "cases": [{id, prompt, expectedCards, unexpectedCards?, expectNoMatches?}]}.',
      required: true,
    }),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(EvalRecall)
    const r = await evalRecall(ctx, {suite: flags.suite})
    const data = {
      suite: r.suite,
      total: r.total,
      passed: r.passed,
      failed: r.failed,
      cases: r.cases.map(({prompt: _, ...c}) => c),
    }
    const failure = r.failed
      ? {code: 'validation' as const, message: `${r.failed} of ${r.total} case(s) failed`}
      : undefined
    return {data, text: renderEval(r), failure}
  }
}
