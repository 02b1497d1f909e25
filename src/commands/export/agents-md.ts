import {Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {exportAgentsMd} from '../../app/export-agents-md.js'
import {CairnCommand} from '../../cli/base.js'
import {renderExportAgentsMd} from '../../cli/render-export.js'
import {AGENTS_MD_FILES} from '../../domain/export/agents-md.js'

export default class ExportAgentsMd extends CairnCommand {
  static override summary = "Write the project's core cards into a managed block of AGENTS.md (or CLAUDE.md, ...)."
  static override description = `For agents without cairn hooks. The block sits between <!-- cairn:begin --> and <!-- cairn:end --> and holds the active load: core cards of the project store and its org layers (a project card overrides an org card of the same id), within core_budget, as session start shows them. Personal cards are never exported.
The block is replaced in place (text outside it stays byte-identical), appended when the file has none, and the file is created when missing. Nothing is committed.`
  static override examples = [
    '<%= config.bin %> export agents-md',
    '<%= config.bin %> export agents-md --file CLAUDE.md --dry-run',
  ]
  static override flags = {
    file: Flags.option({
      description: 'Instruction file to write, relative to the repository root.',
      options: AGENTS_MD_FILES,
      default: 'AGENTS.md',
    })(),
    'dry-run': Flags.boolean({description: 'Print the block and what would change; write nothing.'}),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(ExportAgentsMd)
    const r = await exportAgentsMd(ctx, {file: flags.file, dryRun: flags['dry-run']})
    return {data: r, text: renderExportAgentsMd(r, flags['dry-run'])}
  }
}
