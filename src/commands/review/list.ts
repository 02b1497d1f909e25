import type {Context} from '../../context.js'
import {ReviewListing, reviewFlags} from './index.js'

export default class ReviewList extends ReviewListing {
  static override summary = 'Review the pending cards: one at a time on a terminal, else print them all.'
  static override description = `The same as "cairn review": on a terminal it asks about each card in turn; off a terminal, or with --format or --json, it prints the review.
The language follows knowledge_language in .cairn/config.yaml (en or zh-CN). Deferred cards are hidden until their date.`
  static override examples = ['<%= config.bin %> review list --format markdown']
  static override flags = reviewFlags

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(ReviewList)
    return this.review(ctx, flags)
  }
}
