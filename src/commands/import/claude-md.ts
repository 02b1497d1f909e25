import {
  IMPORT_RULES_TEXT,
  IMPORT_TYPE_TEXT,
  ImportCommand,
  importFlags,
  importLinksText,
  importPathArg,
} from '../../cli/import-command.js'

export default class ImportClaudeMd extends ImportCommand {
  static override summary = 'Import the rules in CLAUDE.md, AGENTS.md or GEMINI.md as pending cards.'
  static override description = [
    'One card per rule-like section: a heading whose text holds a bullet group or says what to do. The heading is the title, its first statement the summary, its text the rule.',
    IMPORT_TYPE_TEXT,
    IMPORT_RULES_TEXT,
    importLinksText(),
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> import claude-md',
    '<%= config.bin %> import claude-md docs/AGENTS.md --dry-run',
  ]
  static override args = importPathArg(
    'A Markdown file or a folder of them (default: whichever of CLAUDE.md, AGENTS.md and GEMINI.md exist at the repository root).',
  )
  static override flags = importFlags
  protected kind = 'claude-md'
}
