import {
  IMPORT_RULES_TEXT,
  ImportCommand,
  importFlags,
  importLinksText,
  importPathArg,
} from '../../cli/import-command.js'

export default class ImportSkein extends ImportCommand {
  static override summary = 'Import skein-spec rules (.skein/spec) as pending cards.'
  static override description = [
    'One guideline card per rule file under .skein/spec/core/<category>/ or .skein/spec/recall/<category>/: the layer becomes the load (core or recall), the folder the category; title, summary (or description) and keywords are kept. The archive (.skein/spec/.archive) is not read.',
    IMPORT_RULES_TEXT,
    importLinksText(),
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> import skein',
    '<%= config.bin %> import skein .skein/spec/core --dry-run',
  ]
  static override args = importPathArg('A rule file or a folder of them (default: .skein/spec).')
  static override flags = importFlags
  protected kind = 'skein'
}
