import {Args, Flags} from '@oclif/core'
import {ImportCommand, importFlags, importLinksText} from '../../cli/import-command.js'

export default class ImportOme extends ImportCommand {
  static override summary = 'Import OME experience cards as pending cards for review.'
  static override description = [
    'PATH is an OME JSON file (one card, an array, or {"experiences": [...]}), an OME Markdown card, or a directory of them. OME has no card type: "type" defaults to guideline. Each OME id is kept as the card\'s slug, since it is the card\'s identity, even when shorter than the 20-character slug minimum ("cairn lint" warns). Fields cairn has no place for are dropped with a warning. An id already used by a card from elsewhere is reported (exit 6) and the rest is imported.',
    'Cards become pending cards for "cairn review" in one commit, with "import:<path>#<id>" as their source session and the path and line of their id as the proposed reason; a second run adds nothing. --activate skips review. A malformed file (bad JSON or YAML, a record that is not a valid card), and a card holding a secret (named with its fingerprint and the secrets.allow fix), is reported with its path and the rest is imported; the exit code is then 6.',
    importLinksText("the repository's work tree, or in the folder named"),
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> import ome experiences.json',
    '<%= config.bin %> import ome cards/ --dry-run',
  ]
  static override args = {
    path: Args.string({description: 'OME JSON or Markdown file, or a directory of them.', required: true}),
  }
  static override flags = {
    ...importFlags,
    activate: Flags.boolean({
      description:
        'Create active cards under cards/ instead of pending ones: skips review; for evaluation stores and migrating a library you already reviewed.',
    }),
  }

  protected kind = 'ome'
}
