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
    'One card per section with text of its own (a bullet group, a table, a code block or prose; a heading with nothing under it is none). The heading is the title, its first statement the summary, its text the rule, tables and fences intact. The text before the first heading, or under the file\'s H1 title, is a card only when it gives rules (a list, a table, code or instruction words), and a sentence only about the file ("This file provides guidance to …") is none. A file in a folder (tests/AGENTS.md) is scoped to that folder (tests/**).',
    IMPORT_TYPE_TEXT,
    IMPORT_RULES_TEXT,
    importLinksText(),
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> import claude-md',
    '<%= config.bin %> import claude-md docs/AGENTS.md --dry-run',
  ]
  static override args = importPathArg(
    'A Markdown file or a folder of them (default: every CLAUDE.md, AGENTS.md and GEMINI.md in the work tree, at the root and in folders, that git does not ignore, .claude/CLAUDE.md and .github/workflows/CLAUDE.md among them).',
  )
  static override flags = importFlags
  protected kind = 'claude-md'
}
