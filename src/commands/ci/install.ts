import {Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {ciInstall} from '../../app/ci-install.js'
import {CairnCommand} from '../../cli/base.js'
import {renderCiInstall} from '../../cli/render-ci-install.js'

export default class CiInstall extends CairnCommand {
  static override summary =
    'Write the GitHub workflows: review comment and check, approve by comment or label, weekly maintain.'
  static override description = `Writes cairn-review.yml, cairn-review-comment.yml, cairn-approve.yml and cairn-maintain.yml into .github/workflows/. Each installs one package, pinned: this version of cairn-memory, or what --package names (a version, the https:// URL of a tarball, or a git URL at a commit). A pin that is a URL stays when you run it again without --package; a version follows the cairn that runs, so running it again after upgrading cairn updates the pin.
Warns when the pinned version is not on the npm registry, where the workflows would fail to install it (CAIRN_NPM_REGISTRY=off skips the check).
A cairn workflow you edited keeps your edits and gets only the new pin, with a warning; a file of your own with the same name is left alone with a warning. --force replaces both. Nothing is committed.`
  static override examples = [
    '<%= config.bin %> ci install',
    '<%= config.bin %> ci install --dry-run',
    '<%= config.bin %> ci install --force',
    '<%= config.bin %> ci install --package https://github.com/acme/cairn/releases/download/v0.1.0/cairn-memory-0.1.0.tgz',
    '<%= config.bin %> ci install --package github:acme/cairn#<commit sha>',
  ]
  static override flags = {
    'dry-run': Flags.boolean({description: 'Print the diff of each file instead of writing it.'}),
    force: Flags.boolean({description: "Replace workflows that differ from cairn's, edits included."}),
    package: Flags.string({
      description:
        'What the workflows install: an exact version (cairn-memory@0.1.0), the https:// URL of a tarball, or a git URL at a commit.',
      helpValue: '<spec>',
    }),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(CiInstall)
    const r = await ciInstall(ctx, {dryRun: flags['dry-run'], force: flags.force, pkg: flags.package})
    return {...r, text: renderCiInstall(r.data)}
  }
}
