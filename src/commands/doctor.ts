import {Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {doctor} from '../app/doctor.js'
import {CairnCommand} from '../cli/base.js'
import {paletteFor} from '../cli/colour.js'
import {renderDoctor} from '../cli/render.js'
import {DOCTOR_TEXT} from '../domain/messages/doctor.js'
import {speak} from '../domain/messages/language.js'

export default class Doctor extends CairnCommand {
  /** Doctor reports an org layer's missing cache; it does not fetch it first. */
  static override fetchesOrgLayers = false
  static override summary =
    'Report on store integrity: config, ignore rules, line endings, repo state, locks, interrupted writes, leftovers, cards.'
  static override description = `Exits 6 when any check fails; warnings alone exit 0.
--fix first repairs what cannot lose anything: it finishes or rolls back an interrupted cairn write, removes temp files such a write left, and adds a missing .cairn/.gitattributes (one commit). It never removes a git index.lock: a git process may own it.
It also reports each active or pending card with no triggers and no derived triggers; --fix derives them (one commit), which makes those cards cairn/card@2.
It reports active project cards whose text names code the repository holds (a symbol, a path) but that record no evidence; --fix records it (one commit), confirmed at each card's last commit, which makes those cards cairn/card@3 and lets cairn stale watch them.
Where cairn's hooks are installed for Codex or Gemini CLI, it says whether that client will run them: Codex's project trust and a trusted hash per hook (~/.codex/config.toml, or $CODEX_HOME), Gemini's trusted folders (~/.gemini/trustedFolders.json).
For each org layer it checks the cache's copy of the pinned commit (missing: run cairn org fetch; changed, added or removed files: an error, and --fix makes the copy again), whether the remote answers (a warning when it does not; the cache is still used) and whether a branch or tag upstream still holds the pinned commit (an error when none does: run cairn org update). It never fetches a missing cache.`
  static override examples = [
    '<%= config.bin %> doctor',
    '<%= config.bin %> doctor --fix',
    '<%= config.bin %> doctor --json',
  ]
  static override flags = {
    fix: Flags.boolean({
      description:
        'Repair first: finish or roll back an interrupted write, remove its temp files, add .cairn/.gitattributes, derive missing triggers, record missing evidence, make again the cached copy of an org layer that no longer matches its commit.',
    }),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Doctor)
    const r = await doctor(ctx, {fix: flags.fix})
    const failure = r.healthy
      ? undefined
      : {code: 'validation' as const, message: speak(DOCTOR_TEXT, r.language).failed}
    return {data: r, text: renderDoctor(r, paletteFor(process.stdout)), failure}
  }
}
