import {Args, Flags} from '@oclif/core'
import {boardCommit} from '../../app/board/commit.js'
import type {Context} from '../../context.js'
import {MAX_DECLARATIONS} from '../../domain/board/request.js'
import {CairnCommand} from '../../cli/base.js'
import {actorFlag, boardFlags, renderReceipt} from '../../cli/board.js'

export default class BoardCommit extends CairnCommand {
  static override summary = 'Validate a batch of declarations and apply all of it or nothing, with a receipt.'
  static override description = `FILE (or "-" for stdin) is JSON: {"batch_id": ..., "declarations": [...], "acknowledges": ["a-5f3c9e21"]}.
Ops: new, supersedes (a patch; also restores a withdrawn item), children (the target set), merges (same-layer active leaves), withdraw (the whole subtree).
Every op except withdraw gives weight (1-5) and kind. An explicit share needs a reason; share: null goes back to the derived share.
A batch holds at most ${MAX_DECLARATIONS} declarations; split a larger one into batches, each with its own batch_id.
Receipts: committed and already_committed exit 0; rejected exits 6 (nothing saved; each error names its JSON path); batch_id_conflict exits 5.
Retrying the same batch id with the same content returns the first receipt without redoing it, even with a new --now.
The actor is --actor, else CAIRN_ACTOR, else git's user.name, else $USER; an agent names itself with --actor.`
  static override examples = [
    '<%= config.bin %> board commit batch.json --now 2026-10-09T12:00:00Z --actor agent-1',
    'cat batch.json | <%= config.bin %> board commit -',
  ]
  static override args = {file: Args.string({description: 'The batch as JSON, or "-" for stdin.', required: true})}
  static override flags = {
    ...boardFlags,
    actor: actorFlag,
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(BoardCommit)
    const r = await boardCommit(ctx, {file: args.file, actor: flags.actor, now: flags.now, store: flags.store})
    return {data: r.receipt, text: renderReceipt(r)}
  }
}
