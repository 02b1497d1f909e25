import {
  IMPORT_RULES_TEXT,
  IMPORT_TYPE_TEXT,
  ImportCommand,
  importFlags,
  importLinksText,
  importPathArg,
} from '../../cli/import-command.js'

export default class ImportCopilot extends ImportCommand {
  static override summary = 'Import GitHub Copilot instructions as pending cards.'
  static override description = [
    '.github/copilot-instructions.md gives one card per rule-like section, as claude-md does. Each .github/instructions/*.instructions.md file gives one card: applyTo becomes the narrow paths it is recalled for ("**" keeps it broad), description its summary.',
    IMPORT_TYPE_TEXT,
    IMPORT_RULES_TEXT,
    importLinksText(),
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> import copilot',
    '<%= config.bin %> import copilot .github/instructions --dry-run',
  ]
  static override args = importPathArg(
    'A Copilot instructions file or a folder of them (default: .github/copilot-instructions.md and .github/instructions).',
  )
  static override flags = importFlags
  protected kind = 'copilot'
}
