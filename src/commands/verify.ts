import {Args, Flags} from '@oclif/core'
import {verify} from '../app/verify.js'
import type {Context} from '../context.js'
import {CairnCommand} from '../cli/base.js'
import {renderVerify} from '../cli/render-stale.js'

export default class Verify extends CairnCommand {
  static override summary = 'Record that active cards are still true of the code, in one commit.'
  static override description = `Sets evidence.verified_at and evidence.verified_commit (HEAD) on each card: cairn stale then counts its evidence from here, and the pull request's "may make stale" list drops it. The card's evidence is brought in step with the code: a renamed file or folder is cited under its new name, a deleted one and a symbol no longer found are dropped (scope.paths keep a deleted path: change those with cairn review modify).
--all-fresh confirms every active card cairn stale finds no changed evidence for (with --since, none the change since that ref touched); cards whose evidence changed are left and listed.`
  static override strict = false
  static override examples = [
    '<%= config.bin %> verify parse-config-defaults-trap',
    '<%= config.bin %> verify --all-fresh',
    '<%= config.bin %> verify --all-fresh --since origin/main',
  ]
  static override args = {ids: Args.string({description: 'Ids of the active cards to confirm.', required: false})}
  static override flags = {
    'all-fresh': Flags.boolean({description: 'Confirm every active card whose evidence no change touched.'}),
    since: Flags.string({
      description: 'With --all-fresh: the change (from this ref to HEAD) the cards must not be touched by.',
    }),
    'no-commit': Flags.boolean({description: 'Write the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {argv, flags} = await this.parse(Verify)
    const r = await verify(ctx, {
      ids: argv as string[],
      allFresh: flags['all-fresh'],
      since: flags.since,
      noCommit: flags['no-commit'],
    })
    return {data: r, text: renderVerify(r)}
  }
}
