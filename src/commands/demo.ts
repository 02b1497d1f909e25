import {Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {demo, type DemoStep} from '../app/demo.js'
import {CairnCommand} from '../cli/base.js'
import {renderLifecycle} from '../cli/render-lifecycle.js'
import {renderRecall} from '../cli/render-recall.js'
import {renderInit, renderLint, renderList, renderLog, renderPropose} from '../cli/render.js'

const RENDER: Record<string, (r: any) => string> = {
  init: renderInit,
  propose: renderPropose,
  list: renderList,
  lint: renderLint,
  review: r => r.text,
  approve: renderLifecycle,
  recall: r => renderRecall(r, false),
  show: r => r.text,
  log: r => renderLog(r.entries),
}

export default class Demo extends CairnCommand {
  static override summary = 'Run the whole flow on built-in sample cards in a throwaway git repo.'
  static override description =
    'Creates a temp git repo (with HOME and CAIRN_HOME inside it), then runs init, propose, lint, review, review approve, list, recall, show and log, printing each step. The temp dir is deleted afterwards unless --keep is given.'
  static override examples = ['<%= config.bin %> demo', '<%= config.bin %> demo --keep']
  static override flags = {
    keep: Flags.boolean({description: 'Keep the temp repo and print its path, to look around afterwards.'}),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Demo)
    const json = this.wantsJson
    const print = (s: DemoStep) => {
      if (!json) process.stdout.write(`\n$ ${s.command}\n${RENDER[s.step](s.result)}\n`)
    }
    const r = await demo(ctx, {keep: flags.keep, onStep: print})
    const text = r.kept ? `\nDemo repo kept at ${r.dir}` : '\nDemo finished; the temp repo was removed.'
    return {data: r, text}
  }
}
