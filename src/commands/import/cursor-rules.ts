import {
  IMPORT_RULES_TEXT,
  IMPORT_TYPE_TEXT,
  ImportCommand,
  importFlags,
  importLinksText,
  importPathArg,
} from '../../cli/import-command.js'

export default class ImportCursorRules extends ImportCommand {
  static override summary = 'Import Cursor rules (.cursor/rules/*.mdc) as pending cards.'
  static override description = [
    'One card per rule file: globs become the narrow paths the card is recalled for, alwaysApply: true makes it a core card (load: core), and description becomes its summary. The body is the rule.',
    IMPORT_TYPE_TEXT,
    IMPORT_RULES_TEXT,
    importLinksText(),
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> import cursor-rules',
    '<%= config.bin %> import cursor-rules .cursor/rules/testing.mdc --dry-run',
  ]
  static override args = importPathArg('An .mdc file or a folder of them (default: .cursor/rules).')
  static override flags = importFlags
  protected kind = 'cursor-rules'
}
