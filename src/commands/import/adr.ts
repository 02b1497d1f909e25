import {
  IMPORT_RULES_TEXT,
  ImportCommand,
  importFlags,
  importLinksText,
  importPathArg,
} from '../../cli/import-command.js'

export default class ImportAdr extends ImportCommand {
  static override summary = 'Import architecture decision records (MADR or Nygard style) as pending decision cards.'
  static override description = [
    'One decision card per ADR: its title without the number, its decision (the "Decision" or "Decision Outcome" section) as rule and summary, its context as problem. A deprecated or superseded ADR (Deprecated, Superseded by …, 已废弃, 已被取代), or a Rejected one, is a retired record: its pending card has that status (deprecated for a rejected one), a superseded one gets superseded_by the card of the ADR its status links to or numbers ("Superseded by ADR-0005"), and approving files it as such, never recalled. The status is said in the proposed reason. README, index and template files are skipped.',
    IMPORT_RULES_TEXT,
    importLinksText(),
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> import adr',
    '<%= config.bin %> import adr docs/architecture/decisions --dry-run',
  ]
  static override args = importPathArg(
    'An ADR file or a folder of them (default: whichever of docs/adr, doc/adr, docs/adrs, adr, docs/decisions and docs/architecture/decisions exist).',
  )
  static override flags = importFlags
  protected kind = 'adr'
}
