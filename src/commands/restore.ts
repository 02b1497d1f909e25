import {Args, Flags} from '@oclif/core'
import {listArchives, restore} from '../app/archive.js'
import type {Context} from '../app/context.js'
import {CairnCommand} from '../cli/base.js'
import {renderArchiveList, renderRestore} from '../cli/render-lifecycle.js'

export default class Restore extends CairnCommand {
  static override summary = 'Move archived cards back; never overwrites (a taken id comes back as restored-<id>).'
  static override strict = false
  static override examples = ['<%= config.bin %> restore --list', '<%= config.bin %> restore 20261129T100000Z', '<%= config.bin %> restore 20261129T100000Z deepmerge-array-replace-trap']
  static override args = {
    ts: Args.string({description: 'Archive timestamp, as "restore --list" shows it.', required: false}),
    ids: Args.string({description: 'Ids to restore from that archive (default: all of it).', required: false}),
  }
  static override flags = {
    list: Flags.boolean({description: 'List the archives that can be restored.'}),
    store: Flags.option({
      description: 'Store to restore in.',
      options: ['project', 'personal'] as const,
      default: 'project',
    })(),
    'no-commit': Flags.boolean({description: 'Move the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {argv, flags} = await this.parse(Restore)
    const [ts, ...ids] = argv as string[]
    if (flags.list) {
      const r = listArchives(ctx, {store: flags.store})
      return {data: r, text: renderArchiveList(r)}
    }
    if (!ts) this.error('give an archive timestamp, or --list to see them', {exit: 2})
    const r = await restore(ctx, {ts, ids, store: flags.store, noCommit: flags['no-commit']})
    return {data: r, text: renderRestore(r)}
  }
}
