import {Args} from '@oclif/core'
import type {Context} from '../../context.js'
import {testSignals} from '../../app/signals.js'
import {CairnCommand} from '../../cli/base.js'
import {renderSignalTest} from '../../cli/render-recall.js'

export default class SignalsTest extends CairnCommand {
  static override summary = 'Show which signals fire for a prompt.'
  static override description =
    'Also shows the parts of the prompt that only mention things ("this is not ...", "for example ..."): positive signals do not fire there.'
  static override examples = ['<%= config.bin %> signals test "fix the settings page and check it in a real browser"']
  static override strict = false
  static override args = {prompt: Args.string({description: 'The prompt to test.', required: true})}

  protected async exec(ctx: Context) {
    const {args, argv} = await this.parse(SignalsTest)
    const prompt = (argv as string[]).length > 1 ? (argv as string[]).join(' ') : args.prompt
    const r = await testSignals(ctx, prompt)
    return {data: r, text: renderSignalTest(r)}
  }
}
