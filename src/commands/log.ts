import {Args, Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {log} from '../app/log.js'
import {CairnCommand} from '../cli/base.js'
import {renderLog} from '../cli/render.js'
import {terminalColumns} from '../cli/width.js'

export default class Log extends CairnCommand {
  static override summary = "Show the cairn history, or one card's history, read from commit trailers."
  static override examples = ['<%= config.bin %> log', '<%= config.bin %> log deepmerge-array-replace-trap']
  static override args = {id: Args.string({description: 'Card id (default: every cairn commit).', required: false})}
  static override flags = {
    limit: Flags.integer({description: 'Show at most this many entries.', min: 1}),
    store: Flags.option({
      description: 'Which store to read.',
      options: ['project', 'personal', 'all'] as const,
      default: 'all',
    })(),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(Log)
    const r = await log(ctx, {id: args.id, limit: flags.limit, store: flags.store})
    return {data: r, text: renderLog(r.entries, terminalColumns())}
  }
}
