import {
  IMPORT_RULES_TEXT,
  IMPORT_TYPE_TEXT,
  ImportCommand,
  importFlags,
  importLinksText,
  importPathArg,
} from '../../cli/import-command.js'

export default class ImportKiro extends ImportCommand {
  static override summary = 'Import Kiro steering files (.kiro/steering/*.md) as pending cards.'
  static override description = [
    'One card per steering file. inclusion: always (the default) makes a core card (load: core); fileMatch a recalled card narrowed to fileMatchPattern; manual a recalled card for every path.',
    IMPORT_TYPE_TEXT,
    IMPORT_RULES_TEXT,
    importLinksText(),
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> import kiro',
    '<%= config.bin %> import kiro .kiro/steering/tech.md --dry-run',
  ]
  static override args = importPathArg('A steering file or a folder of them (default: .kiro/steering).')
  static override flags = importFlags
  protected kind = 'kiro'
}
