import {type CiCommand, parseCiCommand, quote, TRUSTED_ASSOCIATIONS, USAGE_LINES} from '../domain/ci/command.js'
import {CairnError} from '../domain/errors.js'
import {markdownText} from '../domain/review.js'
import type {Context} from '../store/context.js'
import {openStores} from '../store/stores.js'
import {approve, defer, type LifecycleResult, reject} from './review.js'

export interface CiCommandResult {
  action: 'approve' | 'reject' | 'defer' | 'none' | 'refused' | 'failed'
  ids: string[]
  commit: string | null
  /** Markdown for the pull request; empty for 'none'. */
  reply: string
}

/** Errors a command can meet because of what the comment asked (or a concurrent run did): the reply says why. */
const ASKED_FOR: ReadonlySet<string> = new Set(['not_found', 'invalid_transition', 'conflict', 'usage', 'validation'])

const short = (sha: string | null | undefined) => (sha ? `\`${sha.slice(0, 7)}\`` : null)
const codes = (ids: string[]) => ids.map(id => `\`${id}\``).join(', ')

function failed(reason: string): CiCommandResult {
  return {action: 'failed', ids: [], commit: null, reply: [`Nothing happened: ${reason}.`, '', 'Commands:', ...USAGE_LINES.map(l => `- ${l}`)].join('\n')}
}

/**
 * Runs the `/cairn` command of a pull-request comment (CAIRN_COMMENT), or the approve label
 * (CAIRN_LABEL), as CAIRN_ACTOR, if CAIRN_ASSOCIATION says the author has write access. Every
 * refusal is a result with a reply, never an error: the workflow posts the reply either way.
 */
export async function ciCommand(ctx: Context, input: {since: string}): Promise<CiCommandResult> {
  const env = ctx.env
  const command = parseCiCommand({comment: env.CAIRN_COMMENT, label: env.CAIRN_LABEL})
  if (command.kind === 'none') return {action: 'none', ids: [], commit: null, reply: ''}
  const association = env.CAIRN_ASSOCIATION?.trim() ?? ''
  if (!TRUSTED_ASSOCIATIONS.includes(association)) {
    const was = association ? `is ${quote(association)}` : 'is not known'
    return {
      action: 'refused',
      ids: [],
      commit: null,
      reply: `Nothing happened: only a repository owner, member or collaborator can run \`/cairn\` commands, and this author's association ${was}.`,
    }
  }
  if (command.kind === 'failed') return failed(command.reason)
  const actor = env.CAIRN_ACTOR?.trim()
  if (!actor || /[\r\n]/.test(actor)) throw new CairnError('usage', 'set CAIRN_ACTOR to the login of the comment\'s author: it is recorded as the approver')
  const acting: Context = {...ctx, actor}
  try {
    return await run(acting, command, input.since)
  } catch (error) {
    if (error instanceof CairnError && ASKED_FOR.has(error.code)) return failed(markdownText(error.message.split('\n')[0]))
    throw error
  }
}

async function run(ctx: Context, command: Exclude<CiCommand, {kind: 'none' | 'failed'}>, since: string): Promise<CiCommandResult> {
  const stores = openStores(ctx)
  const project = stores.requireProject()
  const added = await stores.addedSince(project, since)
  const pending = new Map(stores.list(project).filter(f => f.location === 'pending').map(f => [f.name, f]))
  const by = markdownText(ctx.actor)
  if (command.kind === 'approve') {
    let ids = command.ids
    if (command.all) {
      // Undecided: added by the pull request and never deferred (the same set the review check counts).
      ids = [...pending.values()].filter(f => added.has(f.path) && !stores.load(f).card.deferred_until).map(f => f.name)
      if (ids.length === 0) return {action: 'approve', ids: [], commit: null, reply: 'Nothing to approve: every pending card this pull request adds has a decision.'}
    }
    const unknown = ids.filter(id => !pending.has(id))
    if (unknown.length) return failed(`no pending card with the id ${codes(unknown)}`)
    const r = await retryOnRace(() => approve(ctx, {ids, store: 'project'}), command.all)
    if (!r) return {action: 'approve', ids: [], commit: null, reply: 'Nothing to approve: every pending card this pull request adds has a decision.'}
    const commit = r.commits.project ?? null
    return {action: 'approve', ids, commit, reply: `Approved ${codes(ids)} for ${by}${commitNote(commit)}.`}
  }
  if (!pending.has(command.id)) return failed(`no pending card with the id ${codes([command.id])}`)
  if (command.kind === 'reject') {
    const r = await reject(ctx, {id: command.id, reason: command.reason})
    const commit = r.commits.project ?? null
    return {action: 'reject', ids: [command.id], commit, reply: `Rejected ${codes([command.id])} for ${by}${commitNote(commit)}. Reason: ${markdownText(command.reason)}`}
  }
  const r = await defer(ctx, {id: command.id, until: command.until})
  const commit = r.commits.project ?? null
  return {action: 'defer', ids: [command.id], commit, reply: `Deferred ${codes([command.id])} until ${command.until} for ${by}${commitNote(commit)}.`}
}

const commitNote = (commit: string | null) => (commit ? ` in commit ${short(commit)}` : ' (not committed: commit.enabled is false)')

/**
 * Two approve-all runs at once (a comment and the label, say): the second finds the cards gone
 * inside the lock. For `all` that means another run decided them first, which is no failure.
 */
async function retryOnRace(fn: () => Promise<LifecycleResult>, all: boolean): Promise<LifecycleResult | null> {
  try {
    return await fn()
  } catch (error) {
    if (all && error instanceof CairnError && (error.code === 'not_found' || error.code === 'invalid_transition')) return null
    throw error
  }
}
