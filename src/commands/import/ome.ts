import {Args, Flags} from '@oclif/core'
import type {Context} from '../../app/context.js'
import {importOme} from '../../app/import-ome.js'
import {CairnCommand} from '../../cli/base.js'
import {short, table} from '../../cli/render.js'

export default class ImportOme extends CairnCommand {
  static override summary = 'Import OME experience cards into the project store, one commit.'
  static override description = [
    'PATH is an OME JSON file (one card, an array, or {"experiences": [...]}), an OME Markdown card, or a directory of them. Cards become pending drafts, or active cards under cards/ with --activate, in one commit.',
    'OME has no card type: "type" defaults to guideline. OME ids are kept as they are, even when shorter than the 20-character slug minimum ("cairn lint" warns for active cards). Fields cairn has no place for are dropped with a warning. An id already in the store refuses the whole import (exit 5).',
  ].join('\n\n')
  static override examples = ['<%= config.bin %> import ome experiences.json', '<%= config.bin %> import ome cards/ --activate']
  static override args = {path: Args.string({description: 'OME JSON or Markdown file, or a directory of them.', required: true})}
  static override flags = {
    activate: Flags.boolean({description: 'Create active cards in cards/ instead of pending drafts.'}),
    'no-commit': Flags.boolean({description: 'Write the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(ImportOme)
    const r = await importOme(ctx, {path: args.path, activate: flags.activate, noCommit: flags['no-commit']})
    const text = `${table(r.cards.map(c => [c.id, c.type, c.status, c.path]), ['ID', 'TYPE', 'STATUS', 'PATH'])}\ncommit: ${short(r.commit)}`
    return {data: r, text, warnings: r.warnings}
  }
}
