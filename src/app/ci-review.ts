import path from 'node:path'
import {isCommitSha, renderComment, staleProblem, undecidedProblem} from '../domain/ci/comment.js'
import {governingConfig, type SettingsFile, settingsChanges} from '../domain/ci/settings.js'
import {parseCard} from '../domain/card/format.js'
import {getRule} from '../domain/card/sections.js'
import {type FieldChange, recallChanges} from '../domain/enrich.js'
import {CairnError, formatIssue} from '../domain/errors.js'
import {reviewEntries} from '../domain/review.js'
import {cardSteering} from '../domain/steering.js'
import type {LoadedCard} from '../store/cards/cards.js'
import type {Context} from '../context.js'
import {type Stores} from '../store/stores.js'
import {openStores} from './stores.js'
import type {Store} from '../store/layout.js'
import type {SettingsText} from '../store/settings/settings-files.js'
import {lint} from './lint.js'
import {nearActive} from './review.js'
import {type OrgPinChange, orgPinChanges} from './org.js'
import {stale, type StaleEntry} from './stale.js'

export interface CiReviewResult {
  comment: string
  check: {ok: boolean; problems: string[]}
  /** Ids of the pending cards the comment lists. */
  pending: string[]
  /** The recall phrases the pull request changed on active cards (cairn enrich, review modify, an edit). */
  recall: RecallChange[]
  /** Active cards whose evidence the pull request touched (cairn stale --since). */
  stale: StaleEntry[]
  /**
   * Whether the pull request needs the comment: it changes the store, or may make a card stale. A pull request that
   * does neither gets no comment (the workflow still updates one an earlier push made).
   */
  needed: boolean
  /** The org layers whose pin the pull request adds, moves or removes, with the cards each change brings. */
  org: OrgPinChange[]
}

export interface RecallChange {
  id: string
  path: string
  fields: FieldChange[]
}

/**
 * The pull request's review check and its sticky comment: lint errors of the project store, and
 * with review.require_decision, the pending cards added since `since` that have no decision.
 * `since` is the base: its config.yaml governs the check (secrets.allow, content.allow_hosts, require_decision, the
 * language), and the pull request's own change to its settings is listed in the comment, never
 * obeyed. `head` is the pull request's head commit the comment records (HEAD when not given).
 */
export async function ciReview(
  ctx: Context,
  input: {since: string; head?: string; out?: string},
): Promise<CiReviewResult> {
  if (input.head !== undefined && !isCommitSha(input.head)) {
    const fix = "give the full 40-character sha of the pull request's head"
    throw new CairnError('usage', `--head "${input.head}" is not a commit sha. Fix: ${fix}`)
  }
  const stores = openStores(ctx)
  const project = stores.requireProject()
  const base = await stores.settingsAt(project, input.since)
  const baseConfig = base.find(f => f.kind === 'config')!
  const config = governingConfig(baseConfig.text, baseConfig.file, input.since)
  const changed = settingsChanges(paired(base, await stores.settingsInTree(project)))
  const head = input.head ?? (await stores.headCommit(project))
  const added = await stores.addedSince(project, input.since)
  // The working tree's config.yaml is still linted: a broken one would turn every hook off once merged.
  const linted = await lint(ctx, {
    store: 'project',
    allowSecrets: new Set(config.secrets.allow),
    allowHosts: config.content.allow_hosts,
  })
  const problems = linted.problems.filter(p => p.severity === 'error').map(p => formatIssue(p))
  const cards = await addedPending(stores, project, added)
  const now = ctx.now().getTime()
  // What `cairn review --since` shows: a card deferred into the future is hidden until its date.
  const shown = cards.filter(c => !c.card.deferred_until || new Date(c.card.deferred_until).getTime() <= now)
  // A deferral is a decision, whether or not its date has passed.
  if (config.review.require_decision) {
    for (const c of cards)
      if (!c.card.deferred_until) problems.push(undecidedProblem(c.card.id, config.knowledge_language))
  }
  const entries = reviewEntries(
    shown.map(c => ({
      card: c.card,
      layer: 'team' as const,
      path: c.path,
      rule: getRule(c.card.body) ?? null,
      steering: cardSteering(c.path, c.card, config.content.allow_hosts),
    })),
    config.knowledge_language,
    await nearActive(stores, shown),
  )
  const settings = {base: input.since, changes: changed}
  const recall = await recallChangesSince(stores, project, input.since)
  const staleCards = (await stale(ctx, {since: input.since, config})).cards
  const org = await orgPinChanges(ctx, config.org, await headPins(stores))
  if (config.review.require_fresh)
    for (const c of staleCards) problems.push(staleProblem(c.id, c.why, config.knowledge_language))
  const comment = renderComment({
    language: config.knowledge_language,
    problems,
    entries,
    head,
    settings,
    recall,
    stale: staleCards.map(c => ({id: c.id, title: c.title, why: c.why})),
    org,
  })
  const needed = staleCards.length > 0 || problems.length > 0 || (await stores.storeChangedSince(project, input.since))
  if (input.out) {
    const file = path.resolve(ctx.cwd, input.out)
    const out = await stores.output(path.dirname(file))
    out.write(path.basename(file), comment)
  }
  const pending = shown.map(c => c.card.id)
  return {comment, check: {ok: problems.length === 0, problems}, pending, recall, stale: staleCards, needed, org}
}

/** The org pins of the pull request's config.yaml; none when it is invalid (lint reports that as a problem). */
async function headPins(stores: Stores) {
  try {
    return await stores.orgPins()
  } catch (error) {
    if (error instanceof CairnError && error.code === 'validation') return []
    throw error
  }
}

/** Each settings file as the base and the working tree have it. */
function paired(base: SettingsText[], head: SettingsText[]): SettingsFile[] {
  return base.map(b => ({file: b.file, base: b.text, head: head.find(h => h.kind === b.kind)?.text ?? null}))
}

/**
 * The recall phrases changed on each active card the pull request edited in place, by id. A card that does not parse
 * on either side is left out: lint reports the working tree's, and the base's was reviewed before.
 */
async function recallChangesSince(stores: Stores, store: Store, since: string): Promise<RecallChange[]> {
  const out: RecallChange[] = []
  const files = new Map(stores.list(store).map(f => [f.path, f]))
  for (const {path: file, before} of await stores.changedCardsSince(store, since)) {
    const now = files.get(file)
    if (!now) continue
    try {
      const after = (await stores.load(now)).card
      const fields = after.status === 'active' ? recallChanges(parseCard(before, file), after) : []
      if (fields.length) out.push({id: after.id, path: file, fields})
    } catch (error) {
      if (!(error instanceof CairnError && error.code === 'validation')) throw error
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** Pending cards in the added set that parse; one that does not is already a lint error. */
async function addedPending(stores: Stores, store: Store, added: Set<string>): Promise<LoadedCard[]> {
  const out: LoadedCard[] = []
  for (const f of stores.list(store)) {
    if (f.location !== 'pending' || !added.has(f.path)) continue
    try {
      out.push(await stores.load(f))
    } catch (error) {
      if (!(error instanceof CairnError && error.code === 'validation')) throw error
    }
  }
  return out
}
