import {Args, Flags} from '@oclif/core'
import {archive} from '../app/archive.js'
import type {Context} from '../context.js'
import {CairnCommand} from '../cli/base.js'
import {renderArchive} from '../cli/render-lifecycle.js'

export default class Archive extends CairnCommand {
  static override summary = 'Move cards into archive/<ts>/ (git mv, same relative paths), in one commit.'
  static override description =
    'With --load or --all, reviewed cards in cards/ are selected and protected cards are left alone. "cairn restore TS" brings them back.'
  static override strict = false
  static override examples = [
    '<%= config.bin %> archive deepmerge-array-replace-trap',
    '<%= config.bin %> archive --load recall',
    '<%= config.bin %> archive --all',
  ]
  static override args = {ids: Args.string({description: 'Ids of the cards to archive.', required: false})}
  static override flags = {
    load: Flags.option({
      description: 'Archive every reviewed card with this load tier.',
      options: ['core', 'recall'] as const,
    })(),
    all: Flags.boolean({description: 'Archive every reviewed card.'}),
    store: Flags.option({
      description: 'Store to archive in (default: where the ids are; project for --load/--all).',
      options: ['project', 'personal'] as const,
    })(),
    'no-commit': Flags.boolean({description: 'Move the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {argv, flags} = await this.parse(Archive)
    const r = await archive(ctx, {
      ids: argv as string[],
      load: flags.load,
      all: flags.all,
      store: flags.store,
      noCommit: flags['no-commit'],
    })
    return {data: r, text: renderArchive(r)}
  }
}
