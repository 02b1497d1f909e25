import {Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {init} from '../app/init.js'
import {CairnCommand} from '../cli/base.js'
import {nextSteps, renderInit} from '../cli/render.js'

export default class Init extends CairnCommand {
  static override summary = 'Create the cairn store in this git repository (or the personal store).'
  static override description = `Writes .cairn/config.yaml (every setting with its default) and .cairn/.gitignore, and commits both.
Running it again changes nothing. Outside a git repository it exits 3; run "git init" first.
With --personal it creates $CAIRN_HOME (default ~/.cairn) as its own git repository instead.
It ends with the next steps: connect an agent, add the GitHub workflows, propose a first card (also in --json, as next_steps).`
  static override examples = ['<%= config.bin %> init', '<%= config.bin %> init --personal']
  static override flags = {
    personal: Flags.boolean({
      description: 'Create the personal store at $CAIRN_HOME (default ~/.cairn) instead of .cairn/ here.',
    }),
    'no-commit': Flags.boolean({description: 'Write the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Init)
    const r = await init(ctx, {personal: flags.personal, noCommit: flags['no-commit']})
    const next = nextSteps(r.store)
    return {data: {...r, next_steps: next}, text: renderInit(r, next)}
  }
}
