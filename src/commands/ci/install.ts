import {Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {ciInstall} from '../../app/ci-install.js'
import {CairnCommand} from '../../cli/base.js'
import {renderCiInstall} from '../../cli/render-ci-install.js'

export default class CiInstall extends CairnCommand {
  static override summary =
    'Write the GitHub workflows: review comment and check, approve by comment or label, weekly maintain.'
  static override description = `Writes cairn-review.yml, cairn-review-comment.yml, cairn-approve.yml and cairn-maintain.yml into .github/workflows/. Each installs this version of cairn-memory, pinned; running it again after upgrading cairn updates the pin.
A cairn workflow you edited keeps your edits and gets only the new pin, with a warning; a file of your own with the same name is left alone with a warning. --force replaces both. Nothing is committed.`
  static override examples = [
    '<%= config.bin %> ci install',
    '<%= config.bin %> ci install --dry-run',
    '<%= config.bin %> ci install --force',
  ]
  static override flags = {
    'dry-run': Flags.boolean({description: 'Print the diff of each file instead of writing it.'}),
    force: Flags.boolean({description: "Replace workflows that differ from cairn's, edits included."}),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(CiInstall)
    const r = await ciInstall(ctx, {dryRun: flags['dry-run'], force: flags.force})
    return {...r, text: renderCiInstall(r.data)}
  }
}
