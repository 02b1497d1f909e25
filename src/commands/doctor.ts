import type {Context} from '../app/context.js'
import {doctor} from '../app/doctor.js'
import {CairnCommand} from '../cli/base.js'
import {renderDoctor} from '../cli/render.js'

export default class Doctor extends CairnCommand {
  static override summary = 'Report on store integrity: config, ignore rules, repo state, locks, leftovers, cards.'
  static override description = 'Exits 6 when any check fails; warnings alone exit 0.'
  static override examples = ['<%= config.bin %> doctor', '<%= config.bin %> doctor --json']

  protected async exec(ctx: Context) {
    await this.parse(Doctor)
    const r = await doctor(ctx)
    const failure = r.healthy ? undefined : {code: 'validation' as const, message: 'doctor found problems'}
    return {data: r, text: renderDoctor(r), failure}
  }
}
