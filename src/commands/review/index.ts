import {Flags} from '@oclif/core'
import type {Context} from '../../context.js'
import {review} from '../../app/review.js'
import {CairnCommand} from '../../cli/base.js'
import {CairnError, formatIssue} from '../../domain/errors.js'

export const reviewFlags = {
  format: Flags.option({
    description:
      'Print the review without asking: text, or markdown for a pull-request comment. json is the same as --json ' +
      '(the standard envelope); --json with text or markdown is a usage error.',
    options: ['text', 'markdown', 'json'] as const,
  })(),
  since: Flags.string({
    description:
      'Only pending cards added since this git ref (what a pull request added, since its merge base with the ref), e.g. origin/main.',
  }),
}

export interface ReviewFlags {
  format?: 'text' | 'markdown' | 'json'
  since?: string
  json?: boolean
}

/** Asks about each card when on a terminal and no output format was asked for; else prints the review. */
export async function runReview(ctx: Context, flags: ReviewFlags, terminal: boolean) {
  if (flags.json && flags.format && flags.format !== 'json') {
    throw new CairnError(
      'usage',
      `--json prints the JSON envelope and --format ${flags.format} prints ${flags.format}. Fix: give one of them`,
    )
  }
  if (terminal && !flags.json && !flags.format) {
    const {interactiveReview} = await import('../../cli/review-interactive.js')
    return interactiveReview(ctx, {since: flags.since})
  }
  const r = await review(ctx, {format: flags.format === 'markdown' ? 'markdown' : 'text', since: flags.since})
  // A card that cannot be read is in the printed review; the JSON envelope lists it in its warnings too.
  return {data: r, text: r.text, warnings: flags.json ? r.unreadable.map(i => formatIssue(i)) : undefined}
}

/**
 * `review` and `review list`: one JSON mode, so --format json prints the envelope --json does. An interactive review
 * left with Ctrl-C exits 130 (128 + SIGINT), as an interrupted command does; what was decided stays committed.
 */
export abstract class ReviewListing extends CairnCommand {
  private interrupted = false

  protected override get wantsJson(): boolean {
    return (
      super.wantsJson ||
      this.argv.some((a, i, all) => a === '--format=json' || (a === '--format' && all[i + 1] === 'json'))
    )
  }

  protected async review(ctx: Context, flags: ReviewFlags) {
    const out = await runReview(
      ctx,
      {...flags, json: this.wantsJson},
      Boolean(process.stdin.isTTY && process.stdout.isTTY),
    )
    this.interrupted = 'interrupted' in out && out.interrupted
    return out
  }

  override async run(): Promise<void> {
    await super.run()
    if (this.interrupted) process.exitCode = 130
  }
}

export default class Review extends ReviewListing {
  static override summary =
    'Review the pending cards: one at a time on a terminal, else print them all (same as "review list").'
  static override description = `On a terminal, it shows the pending cards one at a time, folded to the terminal's width, and asks: approve, reject (with a reason), modify a field, defer to a date, skip or quit. Each decision is one commit, the same as the command of that name; the end shows what was done. Ctrl-C quits with exit code 130; what was decided stays committed, and nothing is left half-written. Ctrl-D quits with exit code 0.
Off a terminal, or with --format or --json, it prints the review and asks nothing.
The review shows each card's type, layer, load, scope, paths, summary, rule (its first 12 lines), why its layer and scope were chosen, and how it is recalled: its policy and risk and its own phrases (triggers, aliases, use_when, ignore_when). The language follows knowledge_language in .cairn/config.yaml (en or zh-CN). Deferred cards are hidden until their date.
A pending card that cannot be read (broken YAML, an invalid field) is listed as a problem with its file and fix, and the other cards are reviewed as usual (exit 0).
Subcommands: review list, review approve, review reject, review defer, review modify.`
  static override examples = [
    '<%= config.bin %> review',
    '<%= config.bin %> review --format markdown --since origin/main',
  ]
  static override flags = reviewFlags

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Review)
    return this.review(ctx, flags)
  }
}
