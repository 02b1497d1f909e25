import {
  IMPORT_RULES_TEXT,
  ImportCommand,
  importFlags,
  importLinksText,
  importPathArg,
} from '../../cli/import-command.js'

export default class ImportFabric extends ImportCommand {
  static override summary = 'Import fabric knowledge (.fabric/knowledge) as pending cards.'
  static override description = [
    "One card per knowledge file under .fabric/knowledge/<type>/: fabric's types (model, decision, guideline, pitfall, process) map one to one, from the type field or else the folder. Title, summary, keywords and relevance_paths are kept.",
    IMPORT_RULES_TEXT,
    importLinksText(),
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> import fabric',
    '<%= config.bin %> import fabric .fabric/knowledge/pitfall --dry-run',
  ]
  static override args = importPathArg('A knowledge file or a folder of them (default: .fabric/knowledge).')
  static override flags = importFlags
  protected kind = 'fabric'
}
