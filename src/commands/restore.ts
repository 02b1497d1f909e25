import {Args, Flags} from '@oclif/core'
import {listArchives} from '../app/archive.js'
import type {Context} from '../context.js'
import {restoreTarget} from '../app/restore-card.js'
import {CairnCommand} from '../cli/base.js'
import {renderArchiveList, renderRestore} from '../cli/render-lifecycle.js'

export default class Restore extends CairnCommand {
  static override summary =
    'Move archived cards back: one card by its id, or an archive by its timestamp. Never overwrites.'
  static override description = [
    'With a card id, restores that card from the newest archive that holds it; a card already live (pending or active) is refused (exit 5) with its path.',
    'With an archive timestamp, restores the whole archive, or the ids given after it; there a taken id comes back as restored-<id>.',
  ].join('\n\n')
  static override strict = false
  // oclif would show both arguments as repeatable (the command is not strict): only the ids after a timestamp are.
  static override usage =
    '<%= command.id %> [TARGET] [IDS...] [--json] [--list] [--store project|personal] [--no-commit]'
  static override examples = [
    '<%= config.bin %> restore --list',
    '<%= config.bin %> restore deepmerge-array-replace-trap',
    '<%= config.bin %> restore 20261129T100000Z',
    '<%= config.bin %> restore 20261129T100000Z deepmerge-array-replace-trap',
  ]
  static override args = {
    target: Args.string({
      description:
        'A card id (restored from the newest archive holding it), or an archive timestamp as "restore --list" shows it.',
      required: false,
    }),
    ids: Args.string({
      description: 'After a timestamp: ids to restore from that archive (default: all of it).',
      required: false,
    }),
  }
  static override flags = {
    list: Flags.boolean({description: 'List the archives that can be restored, with their cards.'}),
    store: Flags.option({
      description: 'Store to restore in.',
      options: ['project', 'personal'] as const,
      default: 'project',
    })(),
    'no-commit': Flags.boolean({description: 'Move the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {argv, flags} = await this.parse(Restore)
    const [target, ...ids] = argv as string[]
    if (flags.list) {
      const r = listArchives(ctx, {store: flags.store})
      return {data: r, text: renderArchiveList(r)}
    }
    if (!target) this.error('give a card id or an archive timestamp, or --list to see the archives', {exit: 2})
    const r = await restoreTarget(ctx, {target, ids, store: flags.store, noCommit: flags['no-commit']})
    return {data: r, text: renderRestore(r)}
  }
}
