import type {Card, Promoted} from './card/schema.js'
import {renderCommitMessage} from './trailers.js'

/**
 * What is pure about `cairn org promote` (DESIGN: The org layer): the org store's copy of a project card, whether
 * two cards say the same thing, the branch names, and the commit message made in the org repository.
 */

export const PROMOTE_BRANCH = 'cairn/promote/'

/** The n-th branch name for an id: cairn/promote/<id>, then cairn/promote/<id>-2, -3, ... */
export const promoteBranch = (id: string, n: number): string => `${PROMOTE_BRANCH}${id}${n > 1 ? `-${n}` : ''}`

/** Where the org store keeps the proposal: pending/, by type, as `cairn propose` writes it. */
export const pendingPathOf = (card: Pick<Card, 'type' | 'id'>): string => `.cairn/pending/${card.type}/${card.id}.md`

/**
 * The org store's copy of a project card: pending again (the org's own review decides), without what only the project
 * means (its approval, deferral, supersession chain, the commit its evidence was confirmed at, its own promotion).
 * A project-scoped card without a project key gets this project's key, so in the org store it still applies to this
 * project alone until the org's reviewers widen its scope; a card that names its key, or whose level is
 * project-family or global, keeps its scope as it is.
 */
export function orgCopy(card: Card, env: {projectKey: string | null; now: string}): Card {
  const scope =
    card.scope.level === 'project' && card.scope.project_key === null && env.projectKey !== null
      ? {...card.scope, project_key: env.projectKey}
      : card.scope
  return {
    ...card,
    status: 'pending',
    scope,
    evidence: {...card.evidence, verified_at: null, verified_commit: null},
    supersedes: [],
    superseded_by: null,
    deferred_until: null,
    approved: null,
    updated: env.now,
    provenance: {...card.provenance, promoted: null},
  }
}

/** Whether two cards say the same thing: type, title, summary and body (not status, dates or provenance). */
export const sameCard = (a: Card, b: Card): boolean =>
  a.type === b.type && a.title === b.title && a.summary === b.summary && a.body.trim() === b.body.trim()

/** The commit message of the proposal in the org repository: a cairn propose commit with its trailers. */
export function promoteMessage(card: Card, from: {projectKey: string | null; actor: string}): string {
  return renderCommitMessage({
    op: 'propose',
    summary: `propose ${card.id}`,
    body: `Promoted from ${from.projectKey ?? 'a project without a remote'} by "cairn org promote"; the org's review decides.`,
    cards: [card.id],
    actor: from.actor,
  })
}

/** Whether the project card already records this promotion. */
export const samePromotion = (a: Promoted | null, b: Promoted): boolean =>
  !!a && a.layer === b.layer && a.branch === b.branch && a.commit === b.commit
