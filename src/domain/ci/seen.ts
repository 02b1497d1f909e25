import {CairnError} from '../errors.js'
import {isCommitSha} from './comment.js'

/**
 * A /cairn command decides what its author saw: the review in the sticky comment, of the head
 * commit that comment records. cairn-approve.yml checks out the pull request's head and tells
 * cairn what the comment recorded and when; a command that answers an older review, or a review
 * written after the command, changes nothing.
 */
export interface SeenReview {
  /** The head sha the review comment records; '' when the pull request has none. */
  reviewed?: string
  /** When the review comment was last written (GitHub's updated_at). */
  reviewUpdatedAt?: string
  /** When the command comment was written (created_at); absent for a label. */
  commandAt?: string
  /** For a label: the pull request's head when the label was added. */
  labelHead?: string
}

/** The workflow's fault, not the comment's: an error, as for a missing store. */
function unsaid(vars: string): CairnError {
  return new CairnError(
    'usage',
    `${vars} must be set: cairn acts only on the commit the review showed. ` +
      'Fix: the cairn-approve.yml that "cairn ci install" writes sets them; run it again, with --force to replace a ' +
      'workflow you edited, and commit the workflow',
  )
}

const short = (sha: string) => `\`${sha.slice(0, 7)}\``
const AGAIN = 'Review the cards in the cairn comment again, then comment again.'

/** Why the command must not act on `head`, as the reply's first sentence; null when it answers the review of `head`. */
export function staleReview(seen: SeenReview, head: string | null, byLabel: boolean): string | null {
  if (seen.reviewed === undefined) throw unsaid('CAIRN_REVIEWED')
  for (const [name, sha] of [
    ['CAIRN_REVIEWED', seen.reviewed],
    ['CAIRN_LABEL_HEAD', seen.labelHead],
  ]) {
    if (sha && !isCommitSha(sha))
      throw new CairnError(
        'usage',
        `${name} "${sha.slice(0, 80)}" is not a commit sha. Fix: give the full 40-character sha`,
      )
  }
  if (seen.reviewed === '') {
    return (
      'Nothing happened: the cairn comment does not say which commit it reviewed (there is none yet, or an older cairn ' +
      'wrote it). Wait for the cairn review check to post it, or run it again, review the cards, then comment again.'
    )
  }
  if (byLabel && !seen.labelHead) throw unsaid('CAIRN_LABEL_HEAD')
  if (!byLabel && (!seen.commandAt || !seen.reviewUpdatedAt)) {
    throw unsaid('CAIRN_REVIEW_UPDATED_AT and CAIRN_COMMENT_CREATED_AT')
  }
  const changed = (detail: string) =>
    `Nothing happened: the branch changed since the review you answered (${detail}). ${AGAIN}`
  const now = `the branch is at ${head ? short(head) : 'no commit'}`
  if (head !== seen.reviewed) return changed(`the review shows ${short(seen.reviewed)}, ${now}`)
  if (byLabel && seen.labelHead !== head) return changed(`the label was added at ${short(seen.labelHead!)}, ${now}`)
  // A review written in the same second as the command, or after it, is one its author cannot have read.
  if (!byLabel && !(Date.parse(seen.reviewUpdatedAt!) < Date.parse(seen.commandAt!))) {
    return changed('the cairn comment was updated after your command was written')
  }
  return null
}
