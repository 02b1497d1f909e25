import type {Context} from '../../app/context.js'
import {CairnCommand} from '../../cli/base.js'
import {reviewFlags, runReview} from './index.js'

export default class ReviewList extends CairnCommand {
  static override summary = 'Show the batch review of pending cards.'
  static override description = 'The language follows knowledge_language in .cairn/config.yaml (en or zh-CN). Deferred cards are hidden until their date.'
  static override examples = ['<%= config.bin %> review list --format markdown']
  static override flags = reviewFlags

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(ReviewList)
    return runReview(ctx, flags)
  }
}
