import {Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {list, unreadableWarnings} from '../app/list.js'
import {CairnCommand} from '../cli/base.js'
import {renderList} from '../cli/render.js'

export default class List extends CairnCommand {
  static override summary = 'List cards, optionally filtered.'
  static override description =
    'A pending card is one waiting for review, in pending/. One deferred with "cairn review defer" shows as ' +
    '"pending (deferred until DATE)", and --json gives its deferred_until (null for every other card).'
  static override examples = [
    '<%= config.bin %> list',
    '<%= config.bin %> list --status pending --type pitfall',
    '<%= config.bin %> list --status archived',
    '<%= config.bin %> list --category git',
  ]
  static override flags = {
    status: Flags.option({
      description:
        'Only cards with this status: pending (waiting for review), active, deprecated, superseded or archived. ' +
        'The older name draft lists the same cards as pending.',
      options: ['pending', 'active', 'deprecated', 'superseded', 'archived', 'draft'] as const,
    })(),
    type: Flags.option({
      description: 'Only cards of this type.',
      options: ['model', 'decision', 'guideline', 'pitfall', 'process'] as const,
    })(),
    load: Flags.option({description: 'Only cards with this load tier.', options: ['core', 'recall'] as const})(),
    category: Flags.string({
      description: 'Only cards in this category (the session-start catalog lists them by category).',
    }),
    store: Flags.option({
      description: 'Which store to list.',
      options: ['project', 'personal', 'all'] as const,
      default: 'all',
    })(),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(List)
    const r = await list(ctx, {
      status: flags.status,
      type: flags.type,
      load: flags.load,
      category: flags.category,
      store: flags.store,
    })
    return {data: r, text: renderList(r), warnings: unreadableWarnings(r)}
  }
}
