import {CairnError} from '../domain/errors.js'
import {
  noPendingCards,
  type ReviewEntry,
  type ReviewLanguage,
  renderEntry,
  renderUnreadable,
  reviewHeading,
} from '../domain/review.js'
import type {Issue} from '../domain/errors.js'
import {
  ACTION_KEYS,
  REVIEW_ACTIONS,
  type ReviewAction,
  renderSessionSummary,
  type SessionCounts,
  sessionText,
} from '../domain/review-session.js'
import {type Context, isoSeconds} from '../context.js'
import {LIST_FIELDS, MODIFIABLE, modify} from './modify.js'
import {approve, checkDeferDate, defer, reject, review} from './review.js'

export interface Choice<T extends string> {
  value: T
  name: string
  /** One letter that picks it, as `git add -p` does. */
  key?: string
}

/**
 * The reviewer at the other end: a terminal prompt in the CLI, a script in tests. Each question
 * resolves to null when the reviewer leaves (Ctrl-C, end of input): the session then stops.
 */
export interface Asker {
  say(text: string): void
  choose<T extends string>(message: string, choices: Choice<T>[]): Promise<T | null>
  /** validate gives true, or the message to show before asking again. */
  text(message: string, validate?: (value: string) => true | string): Promise<string | null>
}

type Op = 'approve' | 'reject' | 'defer' | 'modify'

export interface ReviewSessionResult {
  language: ReviewLanguage
  counts: SessionCounts
  /** Cards left undecided by quitting: the one asked about when the reviewer quit, and those after it. */
  left: number
  quit: boolean
  /** Pending cards that do not parse, shown before the first question: the session goes on with the others. */
  unreadable: Issue[]
  /** Every decision carried out, in order: each is one commit, as the command of the same name makes. */
  done: {op: Op; id: string; commit: string | null}[]
  /** The closing summary. */
  text: string
}

const COUNTED = {approve: 'approved', reject: 'rejected', defer: 'deferred', modify: 'modified'} as const

const firstCommit = (c: {project?: string | null; personal?: string | null}): string | null =>
  c.project ?? c.personal ?? null

/** Walks the pending cards one at a time; every decision goes through the use case of the same command. */
export async function reviewSession(
  ctx: Context,
  asker: Asker,
  input: {since?: string} = {},
): Promise<ReviewSessionResult> {
  const {language, entries, unreadable} = await review(ctx, {since: input.since})
  const t = sessionText(language)
  const counts: SessionCounts = {approved: 0, rejected: 0, deferred: 0, modified: 0, skipped: 0}
  const done: ReviewSessionResult['done'] = []
  const result = (quitAt: number | null): ReviewSessionResult => {
    const left = quitAt === null ? 0 : entries.length - quitAt
    const text = entries.length ? renderSessionSummary(counts, left, language) : noPendingCards(language)
    return {language, counts, left, quit: quitAt !== null, unreadable, done, text}
  }
  const broken = renderUnreadable(unreadable, language, 'text')
  if (entries.length === 0) {
    if (broken) asker.say(`${broken}\n`)
    return result(null)
  }
  asker.say(`${reviewHeading(entries.length, language)}\n`)
  if (broken) asker.say(`${broken}\n`)
  const choices = REVIEW_ACTIONS.map(a => ({value: a, name: t.choices[a], key: ACTION_KEYS[a]}))

  for (const [i, first] of entries.entries()) {
    let entry: ReviewEntry | undefined = first
    while (entry) {
      asker.say(`${renderEntry(entry, language, 'text')}\n`)
      const action: ReviewAction | null = await asker.choose(t.action(entry.n, entries.length, entry.id), choices)
      if (action === null || action === 'quit') return result(i)
      if (action === 'skip') {
        counts.skipped++
        break
      }
      try {
        const outcome = await decide(ctx, asker, action, entry, t)
        if (outcome === null) return result(i)
        done.push({op: action, id: entry.id, commit: outcome.commit})
        counts[COUNTED[action]]++
        asker.say(`${outcome.message}\n`)
        if (action !== 'modify') break
        // A modified card is shown again as it now is, for the decision it was modified for.
        const again = (await review(ctx, {since: input.since})).entries.find(e => e.id === outcome.id)
        if (!again) asker.say(`${t.gone(outcome.id)}\n`)
        entry = again && {...again, n: entry.n}
      } catch (error) {
        // A refused decision (a bad value, a taken id, a card gone) is shown, and the card asked again.
        if (!(error instanceof CairnError) || error.code === 'internal') throw error
        asker.say(`${t.failed(error.message)}\n`)
      }
    }
  }
  return result(null)
}

type Words = ReturnType<typeof sessionText>

/** Asks what the action needs and carries it out; null when the reviewer left meanwhile. */
async function decide(
  ctx: Context,
  asker: Asker,
  action: Exclude<ReviewAction, 'skip' | 'quit'>,
  entry: ReviewEntry,
  t: Words,
): Promise<{id: string; commit: string | null; message: string} | null> {
  const {id} = entry
  if (action === 'approve') {
    const r = await approve(ctx, {ids: [id]})
    const sha = firstCommit(r.commits)
    return {id, commit: sha, message: t.approved(id, r.cards[0]?.to ?? '', sha)}
  }
  if (action === 'reject') {
    const validate = (v: string) => (v.trim() ? true : t.reasonEmpty)
    const reason = await asker.text(t.reason, validate)
    if (reason === null) return null
    const sha = firstCommit((await reject(ctx, {id, reason})).commits)
    return {id, commit: sha, message: t.rejected(id, sha)}
  }
  if (action === 'defer') {
    // The use case's own check, asked again until it passes: a past date is refused at the prompt.
    // The session's own words for a bad date: no flag was typed here.
    const check = (v: string) => checkDeferDate(ctx, v.trim())
    const until = await asker.text(t.date, v => {
      const c = check(v)
      return 'until' in c ? true : c.problem === 'past' ? t.pastDate(isoSeconds(ctx.now())) : t.notADate
    })
    if (until === null) return null
    const checked = check(until)
    if (!('until' in checked)) return null
    const at = checked.until
    const sha = firstCommit((await defer(ctx, {id, until: at})).commits)
    return {id, commit: sha, message: t.deferred(id, at, sha)}
  }
  const field = await asker.choose(
    t.field,
    MODIFIABLE.map(f => ({value: f, name: f})),
  )
  if (field === null) return null
  const value = await asker.text(t.value(field, currentValue(entry, field), LIST_FIELDS.includes(field)))
  if (value === null) return null
  const r = await modify(ctx, {id, sets: [`${field}=${value}`]})
  const sha = firstCommit(r.commits)
  return {id: r.id, commit: sha, message: t.modified(r.id, r.changed.join(', '), sha)}
}

/** true when fn accepts, else its refusal's message (for a prompt that asks again). */
function refusal(fn: () => unknown): true | string {
  try {
    fn()
    return true
  } catch (error) {
    if (error instanceof CairnError) return error.message
    throw error
  }
}

/** What the review shows of a field, to show beside the question; none where the review does not show it. */
function currentValue(entry: ReviewEntry, field: (typeof MODIFIABLE)[number]): string | undefined {
  const shown: Partial<Record<typeof field, string>> = {
    type: entry.type,
    slug: entry.id,
    load: entry.load,
    scope: entry.relevance_scope,
    paths: entry.relevance_paths.join(','),
    layer: entry.layer,
    title: entry.title,
    policy: entry.recall.policy,
    risk: entry.recall.risk,
    triggers: entry.recall.triggers.join(','),
    aliases: entry.recall.aliases.join(','),
    use_when: entry.criteria.use_when.join(','),
    ignore_when: entry.criteria.ignore_when.join(','),
    supersedes: entry.supersedes?.join(','),
  }
  const now = shown[field]
  // A long value (a summary, a rule) is on the screen already, just above the question.
  return now && [...now].length <= 80 ? now : undefined
}
