import {Args, Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {modify} from '../../app/modify.js'
import {CairnCommand} from '../../cli/base.js'
import {renderModify} from '../../cli/render-lifecycle.js'

export default class ReviewModify extends CairnCommand {
  static override summary =
    "Change a card's fields (title, summary, rule, use_when, aliases, policy, risk, type, slug, load, scope, paths, layer, triggers, ...) in one commit."
  static override description = `A slug change renames the file, a type change moves it, and a layer flip moves the card between the project store and the personal store (a personal card is always broad).
scope takes narrow, broad, project, project-family or global; paths takes comma-separated globs. An unknown field exits 2.
triggers takes comma-separated phrases and replaces the triggers cairn derived (derived_triggers), which are then cleared; derived_triggers= (empty) clears them alone.
symbols and evidence_paths take comma-separated symbols and paths and replace the card's evidence (what cairn stale watches); each must exist in the repository (exit 6 otherwise), and personal cards carry none. A change of paths, scope, symbols or evidence_paths on an active card with evidence records that it was confirmed now (evidence.verified_at and verified_commit). supersedes takes the comma-separated ids of active cards this one replaces; approving it marks them superseded in the same commit.
title, summary and rule take text; rule replaces the card's Rule section (quote a rule of several lines in the shell). A Problem section or rule that repeats the old summary takes a new summary too.
use_when, ignore_when and aliases take comma-separated phrases (a Chinese comma separates too) and replace the list; aliases go to en or zh by their script. policy takes must, should or may; risk takes high, medium or low. The Criteria section, when it is as cairn wrote it, is written again to match.
Every value is checked by the card schema: a bad one exits 6 naming the field, the value and the fix, and nothing is written.`
  static override examples = [
    '<%= config.bin %> review modify deepmerge-array-replace-trap --set type=guideline --set load=core',
    '<%= config.bin %> review modify deepmerge-array-replace-trap --set scope=narrow --set paths=src/config/**,src/hooks/*.ts',
    '<%= config.bin %> review modify indent-style-by-language --set layer=personal',
    '<%= config.bin %> review modify deepmerge-array-replace-trap --set "triggers=deepMerge hook arrays,stop hook vanished"',
    '<%= config.bin %> review modify deepmerge-array-replace-trap --set "title=deepMerge drops hook arrays" --set policy=must --set risk=high',
    '<%= config.bin %> review modify deepmerge-array-replace-trap --set "use_when=installing hooks,merging config" --set "aliases=deep merge,深度合并"',
  ]
  static override args = {id: Args.string({description: 'Id of the card (pending or reviewed).', required: true})}
  static override flags = {
    set: Flags.string({
      description:
        'A field=value to set; repeatable. Fields: type, slug, load, scope, paths, category, layer, triggers, derived_triggers, symbols, evidence_paths, supersedes, title, summary, rule, use_when, ignore_when, aliases, policy, risk. List fields (paths, triggers, symbols, evidence_paths, supersedes, use_when, ignore_when, aliases) take comma-separated values.',
      multiple: true,
      required: true,
    }),
    'no-commit': Flags.boolean({description: 'Write the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(ReviewModify)
    const r = await modify(ctx, {id: args.id, sets: flags.set, noCommit: flags['no-commit']})
    return {data: r, text: renderModify(r)}
  }
}
