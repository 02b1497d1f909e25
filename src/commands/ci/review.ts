import {Flags} from '@oclif/core'
import {ciReview} from '../../app/ci-review.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'

export default class CiReview extends CairnCommand {
  static override summary = 'The pull-request review check: lint the project store and write the sticky review comment.'
  static override description = `Writes the comment's markdown (first line <!-- cairn:review -->, second line the head commit it reviews) to --out, or to stdout: the check result, the settings the pull request changes, the review of each pending card added since --since, and the /cairn comment lines that approve, reject or defer it. Card text is shown in code spans, where nothing it holds renders as a link, image, HTML or mention.
The base governs: the check follows .cairn/config.yaml as --since has it (secrets.allow, review.require_decision, knowledge_language), not the working tree's, and a change to .cairn/config.yaml or .cairn/signals.yaml is listed in the comment, never obeyed. A config.yaml invalid at --since is an error (exit 6) and no comment is written.
The check fails (exit 6) on a lint error (an invalid card, a secret) and, with review.require_decision: true, while a pending card added since --since has no decision (approved, rejected or deferred). The comment is written either way. An unknown ref exits 4.
The cairn-review workflow that "cairn ci install" writes runs it.`
  static override examples = [
    '<%= config.bin %> ci review --since origin/main',
    '<%= config.bin %> ci review --since origin/main --head "$HEAD_SHA" --out "$RUNNER_TEMP/cairn-review.md"',
  ]
  static override flags = {
    since: Flags.string({
      description:
        "The pull request's base, e.g. origin/main: its settings govern, and the pending cards added since HEAD's history left it (their merge base) are reviewed.",
      required: true,
    }),
    head: Flags.string({
      description:
        "The pull request's head commit (full sha) the comment records; /cairn commands act on it alone. Default: HEAD.",
    }),
    out: Flags.string({description: 'Write the comment to this file (replaced atomically) instead of stdout.'}),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(CiReview)
    const r = await ciReview(ctx, {since: flags.since, head: flags.head, out: flags.out})
    const verdict = r.check.ok ? 'check passed' : `check failed: ${r.check.problems.length} problem(s)`
    const text = flags.out ? `wrote the review comment to ${flags.out}; ${verdict}` : r.comment
    const failure = r.check.ok
      ? undefined
      : {
          code: 'validation' as const,
          message: `The cairn review check failed: ${r.check.problems.length} problem(s). Fix: mend each one the comment lists, then push again`,
        }
    return {data: r, text, failure}
  }
}
