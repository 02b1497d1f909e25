import {Args, Flags} from '@oclif/core'
import {boardAnnotate} from '../../app/board/annotate.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'
import {actorFlag, boardFlags, renderReceipt} from '../../cli/board.js'

export default class BoardAnnotate extends CairnCommand {
  static override summary = "Save the user's annotation on a board item; it stays saved until a batch acknowledges it."
  static override description = `The actor is --actor, else CAIRN_ACTOR, else git's user.name, else $USER. The batch id makes it idempotent like a batch: the same id and text again returns the first receipt; the same id with other content exits 5.`
  static override examples = [
    '<%= config.bin %> board annotate reading "Keep it: I need it for tomorrow\'s meeting." --batch-id note-20261009-1',
  ]
  static override args = {
    id: Args.string({description: 'Item id the annotation is about.', required: true}),
    text: Args.string({description: 'Annotation text.', required: true}),
  }
  static override flags = {
    ...boardFlags,
    'batch-id': Flags.string({
      description: 'Id of this write; retry with the same id if the receipt was lost.',
      required: true,
    }),
    actor: actorFlag,
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(BoardAnnotate)
    const r = await boardAnnotate(ctx, {
      item: args.id,
      text: args.text,
      batch_id: flags['batch-id'],
      actor: flags.actor,
      now: flags.now,
      store: flags.store,
    })
    return {data: r.receipt, text: renderReceipt(r)}
  }
}
