import {Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {exportCursorRules} from '../../app/export-cursor-rules.js'
import {CairnCommand} from '../../cli/base.js'
import {renderExportCursorRules} from '../../cli/render-export.js'

export default class ExportCursorRules extends CairnCommand {
  static override summary = 'Write a Cursor rule (.cursor/rules/cairn-<id>.mdc) for each active narrow card.'
  static override description = `Each rule is attached when a file matching the card's scope.paths is in context (globs, alwaysApply: false), described by the card's summary, and holds the card's rule.
The project's cards and its org layers' are exported (a project card overrides an org card of the same id); personal cards never are.
Rule files cairn wrote for cards that are no longer active and narrow are removed; your own rules are never touched. Nothing is committed.`
  static override examples = [
    '<%= config.bin %> export cursor-rules',
    '<%= config.bin %> export cursor-rules --dry-run',
  ]
  static override flags = {
    'dry-run': Flags.boolean({description: 'List the rule files that would be written or removed; write nothing.'}),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(ExportCursorRules)
    const r = await exportCursorRules(ctx, {dryRun: flags['dry-run']})
    return {data: r, text: renderExportCursorRules(r, flags['dry-run'])}
  }
}
