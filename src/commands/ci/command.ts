import {Flags} from '@oclif/core'
import {ciCommand} from '../../app/ci-command.js'
import type {Context} from '../../context.js'
import {CairnCommand} from '../../cli/base.js'

export default class CiCommand extends CairnCommand {
  static override summary =
    'Run the /cairn command of a pull-request comment, or the cairn:approve label, as its author.'
  static override description = `Reads the comment body from CAIRN_COMMENT (or the label from CAIRN_LABEL: cairn:approve means "approve all"), the author's association (author_association) from CAIRN_ASSOCIATION, and the author's login from CAIRN_ACTOR, who is recorded as the approver. Never from arguments: the body is untrusted.
It acts only on the commit its author saw reviewed: HEAD must be the commit the cairn review comment records (CAIRN_REVIEWED, empty when there is no review), and the review must have been written before the comment (CAIRN_REVIEW_UPDATED_AT, CAIRN_COMMENT_CREATED_AT; for the label, the head it was added at, CAIRN_LABEL_HEAD). Otherwise it replies that the branch changed since the review, and does nothing.
The first line starting with /cairn in the comment's own text counts: "/cairn approve <id...|all>", "/cairn reject <id> <reason>" or "/cairn defer <id> <YYYY-MM-DD>". A line the rendered comment shows as code or a quote, or does not show, is never run: in a code block (fenced or indented), a block quote, HTML (a comment, a block such as <details>, or a paragraph after raw HTML), a multi-line code span, or a link's or image's hidden parts (markdown read as CommonMark reads it). No line after raw HTML counts (but for a whole <!-- --> comment on lines of its own), nor after a footnote, a table, $$ math or a link reference definition. "all" is every pending card added since --since without a decision. The change is one commit.
With review.approvers: codeowners in .cairn/config.yaml at --since, a command acts only on cards the author owns under the CODEOWNERS file at --since (a narrow card by its scope paths, a broad one by its file under .cairn/cards/; an @org/team owner is checked with "gh api" and GH_TOKEN): a list of ids is refused whole if one is not the author's, and "all" approves the author's cards and lists the rest with who may approve them.
Prints the reply to post on the pull request; each value it quotes back (an id, the reason, a date, the login, an error) is a bare word or in a code span, where nothing renders as a link, image, HTML or mention. Exits 0 also when nothing happened: no /cairn line (action none), an author who is not OWNER, MEMBER or COLLABORATOR or a review that is not of HEAD (refused), or a bad command or unknown id (failed); nothing is written then.`
  static override examples = [
    'CAIRN_COMMENT="/cairn approve all" CAIRN_ASSOCIATION=MEMBER CAIRN_ACTOR=octocat CAIRN_REVIEWED="$(git rev-parse HEAD)" ' +
      'CAIRN_REVIEW_UPDATED_AT=2026-11-29T10:00:00Z CAIRN_COMMENT_CREATED_AT=2026-11-29T10:05:00Z <%= config.bin %> ci command --since origin/main --json',
  ]
  static override flags = {
    since: Flags.string({
      description:
        'The pull request\'s base, e.g. origin/main: "all" means the pending cards added since this git ref, and its ' +
        'review.approvers and CODEOWNERS say who may decide.',
      required: true,
    }),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(CiCommand)
    const r = await ciCommand(ctx, {since: flags.since})
    return {data: r, text: r.reply}
  }
}
