import {Flags} from '@oclif/core'
import type {Context} from '../../app/context.js'
import {review} from '../../app/review.js'
import {CairnCommand} from '../../cli/base.js'
import type {ReviewFormat} from '../../domain/review.js'

export const reviewFlags = {
  format: Flags.option({
    description: 'Output format of the review.',
    options: ['text', 'markdown', 'json'] as const,
    default: 'text',
  })(),
  since: Flags.string({description: 'Only pending cards added since this git ref (what a pull request added), e.g. origin/main.'}),
}

export async function runReview(ctx: Context, flags: {format: ReviewFormat; since?: string}) {
  const r = await review(ctx, {format: flags.format, since: flags.since})
  return {data: r, text: flags.format === 'json' ? JSON.stringify(r.entries, null, 2) : r.text}
}

export default class Review extends CairnCommand {
  static override summary = 'Show the batch review of pending cards (same as "review list").'
  static override description = `Renders every pending card for one review pass: type, layer, load, scope, paths, summary, and why its layer and scope were chosen.
The language follows knowledge_language in .cairn/config.yaml (en or zh-CN). Deferred cards are hidden until their date.
Subcommands: review list, review approve, review reject, review defer, review modify.`
  static override examples = ['<%= config.bin %> review', '<%= config.bin %> review --format markdown --since origin/main']
  static override flags = reviewFlags

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Review)
    return runReview(ctx, flags)
  }
}
