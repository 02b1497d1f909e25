import {type CiCommand, parseCiCommand, quote, TRUSTED_ASSOCIATIONS, USAGE_LINES} from '../domain/ci/command.js'
import {staleReview} from '../domain/ci/seen.js'
import {CairnError} from '../domain/errors.js'
import {codeSpan, inert} from '../domain/markdown.js'
import type {Context} from '../context.js'
import type {CardFile} from '../store/cards/cards.js'
import {type Stores} from '../store/stores.js'
import {openStores} from './stores.js'
import {ownerGate, type OwnerGate} from './ci-owners.js'
import {approve, defer, type LifecycleResult, reject} from './review.js'
import {archive} from './archive.js'
import {modify} from './modify.js'
import {verify} from './verify.js'

export interface CiCommandResult {
  action: 'approve' | 'reject' | 'defer' | 'verify' | 'archive' | 'modify' | 'none' | 'refused' | 'failed'
  ids: string[]
  commit: string | null
  /** Markdown for the pull request; empty for 'none'. Each value it quotes is a bare word or in a code span. */
  reply: string
}

/** Errors a command can meet because of what the comment asked (or a concurrent run did): the reply says why. */
const ASKED_FOR: ReadonlySet<string> = new Set(['not_found', 'invalid_transition', 'conflict', 'usage', 'validation'])

const codes = (ids: string[]) => ids.map(codeSpan).join(', ')
const NOTHING_TO_APPROVE = 'Nothing to approve: every pending card this pull request adds has a decision.'

const result = (
  action: CiCommandResult['action'],
  reply: string,
  ids: string[] = [],
  commit: string | null = null,
): CiCommandResult => ({action, ids, commit, reply})

function failed(reason: string): CiCommandResult {
  return result(
    'failed',
    [`Nothing happened: ${reason}.`, '', 'Commands:', ...USAGE_LINES.map(l => `- ${l}`)].join('\n'),
  )
}

/** The reply's sentence about the commit, and the commit, of a lifecycle run. */
function committed(r: {commits: {project?: string | null}}): {note: string; commit: string | null} {
  const commit = r.commits.project ?? null
  return {commit, note: commit ? ` in commit \`${commit.slice(0, 7)}\`` : ' (not committed: commit.enabled is false)'}
}

/**
 * Runs the `/cairn` command of a pull-request comment (CAIRN_COMMENT), or the approve label
 * (CAIRN_LABEL), as CAIRN_ACTOR, if CAIRN_ASSOCIATION says the author has write access, with
 * review.approvers: codeowners on the base (`since`) only on the cards CAIRN_ACTOR owns there (ci-owners.ts), and only
 * on the commit its author saw reviewed: HEAD must be the commit the review comment records
 * (CAIRN_REVIEWED), written before the command (CAIRN_REVIEW_UPDATED_AT, CAIRN_COMMENT_CREATED_AT)
 * or, for a label, the head it was added at (CAIRN_LABEL_HEAD). Every refusal is a result with a
 * reply, never an error: the workflow posts the reply either way.
 */
export async function ciCommand(ctx: Context, input: {since: string}): Promise<CiCommandResult> {
  const env = ctx.env
  const command = parseCiCommand({comment: env.CAIRN_COMMENT, label: env.CAIRN_LABEL})
  if (command.kind === 'none') return result('none', '')
  const association = env.CAIRN_ASSOCIATION?.trim() ?? ''
  if (!TRUSTED_ASSOCIATIONS.includes(association)) {
    const was = association ? `is ${quote(association)}` : 'is not known'
    const why = 'only a repository owner, member or collaborator can run `/cairn` commands'
    return result('refused', `Nothing happened: ${why}, and this author's association ${was}.`)
  }
  if (command.kind === 'failed') return failed(command.reason)
  const actor = env.CAIRN_ACTOR?.trim()
  if (!actor || /[\r\n]/.test(actor)) {
    throw new CairnError(
      'usage',
      "CAIRN_ACTOR is not set. Fix: set it to the login of the comment's author; it is recorded as the approver",
    )
  }
  const acting: Context = {...ctx, actor: () => actor}
  const stores = openStores(acting)
  // A missing store or an unknown base ref is the workflow's fault, not the comment's: an error, exit 3 or 4.
  const added = await stores.addedSince(stores.requireProject(), input.since)
  const seen = {
    reviewed: env.CAIRN_REVIEWED?.trim(),
    reviewUpdatedAt: env.CAIRN_REVIEW_UPDATED_AT?.trim(),
    commandAt: env.CAIRN_COMMENT_CREATED_AT?.trim(),
    labelHead: env.CAIRN_LABEL_HEAD?.trim(),
  }
  const stale = staleReview(seen, await stores.headCommit(stores.requireProject()), !!env.CAIRN_LABEL)
  if (stale) return result('refused', stale)
  const gate = await ownerGate(stores, input.since, actor)
  if ('reply' in gate) return result('refused', gate.reply)
  try {
    return await run(stores, command, added, gate)
  } catch (error) {
    // The message may quote a card's id, title or file: all of it goes in a code span.
    if (error instanceof CairnError && ASKED_FOR.has(error.code)) return failed(codeSpan(error.message.split('\n')[0]))
    throw error
  }
}

type Runnable = Exclude<CiCommand, {kind: 'none' | 'failed'}>

async function run(stores: Stores, command: Runnable, added: Set<string>, gate: OwnerGate): Promise<CiCommandResult> {
  const ctx = stores.ctx
  const project = stores.requireProject()
  const pending = new Map(
    stores
      .list(project)
      .filter(f => f.location === 'pending')
      .map(f => [f.name, f]),
  )
  const by = inert(ctx.actor())
  if (command.kind === 'approve') return runApprove(stores, command, {pending, added, gate})
  if (command.kind === 'verify' || command.kind === 'archive' || command.kind === 'modify')
    return runOnActive(stores, command, gate)
  const card = pending.get(command.id)
  if (!card) return failed(`no pending card with the id ${codes([command.id])}`)
  const {refused} = await gate.check([card])
  if (refused.length) return result('refused', gate.refusal(command.kind, refused))
  if (command.kind === 'reject') {
    const {note, commit} = committed(await reject(ctx, {id: command.id, reason: command.reason}))
    const reply = `Rejected ${codes([command.id])} for ${by}${note}. Reason: ${codeSpan(command.reason)}`
    return result('reject', reply, [command.id], commit)
  }
  const {note, commit} = committed(await defer(ctx, {id: command.id, until: command.until}))
  const reply = `Deferred ${codes([command.id])} until ${inert(command.until)} for ${by}${note}.`
  return result('defer', reply, [command.id], commit)
}

interface ApproveState {
  /** The pending cards by id. */
  pending: Map<string, CardFile>
  /** The pending card files the pull request adds. */
  added: Set<string>
  gate: OwnerGate
}

/**
 * Approves the cards named, all or none: each must be one the commenter may approve. `all` approves the undecided
 * cards the pull request adds that the commenter may approve, and the reply lists the rest with who may.
 */
async function runApprove(
  stores: Stores,
  command: Extract<CiCommand, {kind: 'approve'}>,
  {pending, added, gate}: ApproveState,
): Promise<CiCommandResult> {
  let ids = command.ids
  let left = ''
  if (command.all) {
    // Undecided: added by the pull request and never deferred (the same set the review check counts).
    const candidates = [...pending.values()].filter(f => added.has(f.path))
    const keep = await Promise.all(candidates.map(f => undecided(stores, f)))
    const check = await gate.check(candidates.filter((_, i) => keep[i]))
    if (!check.allowed.length && !check.refused.length) return result('approve', NOTHING_TO_APPROVE)
    if (!check.allowed.length) return result('refused', gate.refusal('approve', check.refused))
    ids = check.allowed
    if (check.refused.length) left = `\n\n${gate.left(check.refused)}`
  } else {
    const unknown = ids.filter(id => !pending.has(id))
    if (unknown.length) return failed(`no pending card with the id ${codes(unknown)}`)
    const {refused} = await gate.check(ids.map(id => pending.get(id)!))
    if (refused.length) return result('refused', gate.refusal('approve', refused))
  }
  const r = await retryOnRace(() => approve(stores.ctx, {ids, store: 'project'}), command.all)
  if (!r) return result('approve', NOTHING_TO_APPROVE)
  const {note, commit} = committed(r)
  return result('approve', `Approved ${codes(ids)} for ${inert(stores.ctx.actor())}${note}.${left}`, ids, commit)
}

type OnActive = Extract<CiCommand, {kind: 'verify' | 'archive' | 'modify'}>

/** The commands of the "may make stale" list: each acts on active project cards only, in one commit. */
async function runOnActive(stores: Stores, command: OnActive, gate: OwnerGate): Promise<CiCommandResult> {
  const ctx = stores.ctx
  const active = new Map(
    stores
      .list(stores.requireProject())
      .filter(f => f.location === 'cards')
      .map(f => [f.name, f]),
  )
  const ids = command.kind === 'modify' ? [command.id] : command.ids
  const unknown = ids.filter(id => !active.has(id))
  if (unknown.length) return failed(`no active card with the id ${codes(unknown)}`)
  const {refused} = await gate.check(ids.map(id => active.get(id)!))
  if (refused.length) return result('refused', gate.refusal(command.kind, refused))
  const by = inert(ctx.actor())
  if (command.kind === 'verify') {
    const {note, commit} = committed({commits: {project: (await verify(ctx, {ids})).commit}})
    return result('verify', `Confirmed ${codes(ids)} for ${by}${note}.`, ids, commit)
  }
  if (command.kind === 'archive') {
    const {note, commit} = committed(await archive(ctx, {ids, store: 'project'}))
    return result('archive', `Archived ${codes(ids)} for ${by}${note}.`, ids, commit)
  }
  const r = await modify(ctx, {id: command.id, sets: command.sets})
  const {note, commit} = committed(r)
  const fields = r.changed.map(f => codeSpan(f)).join(', ')
  return result('modify', `Modified ${codes([r.id])} (${fields}) for ${by}${note}.`, [r.id], commit)
}

/** Never deferred; a card a concurrent run just moved away counts as decided. */
async function undecided(stores: Stores, f: CardFile): Promise<boolean> {
  try {
    return !(await stores.load(f)).card.deferred_until
  } catch (error) {
    if (!stores.exists(f.store, f.path)) return false
    throw error
  }
}

/**
 * Two approve-all runs at once (a comment and the label, say): the second finds the cards gone
 * inside the lock. For `all` that means another run decided them first, which is no failure.
 */
async function retryOnRace(fn: () => Promise<LifecycleResult>, all: boolean): Promise<LifecycleResult | null> {
  try {
    return await fn()
  } catch (error) {
    if (all && error instanceof CairnError && (error.code === 'not_found' || error.code === 'invalid_transition'))
      return null
    throw error
  }
}
