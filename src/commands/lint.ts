import {Args, Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {lint} from '../app/lint.js'
import {CairnCommand} from '../cli/base.js'
import {renderLint} from '../cli/render.js'
import {speak} from '../domain/messages/language.js'
import {LINT_TEXT} from '../domain/messages/lint.js'

export default class Lint extends CairnCommand {
  static override summary = 'Check cards: valid, ids unique across pending, cards and archive, links resolve.'
  static override description =
    'Without PATHS, lints every card in the stores. With PATHS (files or directories), reports on those files, checked against the stores. Exits 6 when any error is found.'
  static override strict = false
  static override examples = ['<%= config.bin %> lint', '<%= config.bin %> lint .cairn/pending']
  static override args = {
    paths: Args.string({description: 'Card files or directories to lint (default: all stores).', required: false}),
  }
  static override flags = {
    store: Flags.option({
      description: 'Which store to lint.',
      options: ['project', 'personal', 'all'] as const,
      default: 'all',
    })(),
  }

  protected async exec(ctx: Context) {
    const {argv, flags} = await this.parse(Lint)
    const r = await lint(ctx, {paths: argv as string[], store: flags.store})
    const failed = speak(LINT_TEXT, r.language).failed(r.errors)
    const failure = r.errors ? {code: 'validation' as const, message: failed} : undefined
    return {data: r, text: renderLint(r), failure}
  }
}
