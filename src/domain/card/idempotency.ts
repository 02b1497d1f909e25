import {createHash} from 'node:crypto'

/**
 * The idempotency key of a proposal (seed 000): only the first source session takes part,
 * so adding later sessions merges evidence instead of creating a second pending card.
 */
export function idempotencyKey(sourceSessions: readonly string[], type: string, slug: string): string {
  return createHash('sha256')
    .update(JSON.stringify({source_session: sourceSessions[0], type, slug}))
    .digest('hex')
}
