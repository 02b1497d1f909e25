import {type Context, isoSeconds} from '../context.js'
import {parseCard, patchCard, renderCard} from '../domain/card/format.js'
import type {Card, Promoted} from '../domain/card/schema.js'
import {CairnError} from '../domain/errors.js'
import {type OrgPin, pinNamed} from '../domain/org.js'
import {orgCopy, pendingPathOf, promoteBranch, promoteMessage, sameCard, samePromotion} from '../domain/org-promote.js'
import {assertSafeId, layerOf, type Stores, type WritableStore} from '../store/stores.js'
import {openStores} from './stores.js'

/**
 * `cairn org promote` (DESIGN: The org layer): a project card proposed to an org store. The card is committed as
 * pending on a new branch of the org layer's cache repository and pushed, so the org's own review decides; the
 * project card records the branch and commit (provenance.promoted) in one project commit.
 */

export interface OrgPromoteResult {
  id: string
  layer: string
  url: string
  /** proposed: a new branch; unchanged: a promote branch already held this card; in-org: the org's ref already has it. */
  outcome: 'proposed' | 'unchanged' | 'in-org'
  /** The org repository's branch the card is on (the layer's ref itself when in-org). */
  branch: string
  /** The commit of that branch holding the card. */
  commit: string
  /** Where the card is in the org repository. */
  file: string
  pushed: boolean
  /** git's reason when the push failed. */
  pushError: string | null
  /** The command that pushes the branch by hand, when the push failed. */
  pushCommand: string | null
  /** The project commit that records the link; null when the card already recorded it or --no-commit. */
  projectCommit: string | null
}

/** The layer a promote goes to: --to, else the project's only one. */
function targetLayer(pins: readonly OrgPin[], to: string | undefined): OrgPin {
  if (to !== undefined) return pinNamed(pins, to)
  if (pins.length === 1) return pins[0]
  if (pins.length === 0)
    throw new CairnError(
      'not_found',
      'The project has no org layer to promote to. Fix: subscribe with "cairn org add <url>", then promote again',
    )
  throw new CairnError(
    'usage',
    `--to is needed: the project has ${pins.length} org layers (${pins.map(p => p.name).join(', ')}). Fix: pass --to with one of them`,
    {known: pins.map(p => p.name)},
  )
}

/** The project's card (active or pending); a card of another layer, or none, is refused with the fix. */
async function projectCard(stores: Stores, project: WritableStore, id: string): Promise<{path: string; card: Card}> {
  const file = stores.find(project, id).find(f => f.location === 'cards' || f.location === 'pending')
  if (file) return {path: file.path, card: (await stores.load(file)).card}
  const elsewhere = stores.layers().find(s => s.kind !== 'project' && stores.find(s, id).length > 0)
  if (elsewhere?.kind === 'org')
    throw new CairnError(
      'not_found',
      `"${id}" is a card of the org layer "${elsewhere.org?.name}", not of the project. Nothing was written. Fix: promote a project card; that one is in the org store already`,
      {id, layer: layerOf(elsewhere)},
    )
  if (elsewhere)
    throw new CairnError(
      'not_found',
      `"${id}" is a card of the personal store, not of the project. Nothing was written. Fix: propose it to the project first ("cairn propose" with layer team), approve it, then promote it`,
      {id, layer: 'personal'},
    )
  await stores.findCard(id, {store: 'project'})
  throw new CairnError('not_found', `No project card with id "${id}". Fix: give an id as "cairn list" shows it`, {id})
}

interface Delivered {
  file: string
  outcome: OrgPromoteResult['outcome']
  branch: string
  commit: string
  pushError: string | null
  pushCommand: string | null
}

/** Under the cache's lock: fetch, refuse a clash, reuse or make the branch, push it. */
async function deliver(
  stores: Stores,
  pin: OrgPin,
  input: {card: Card; text: string; file: string; message: string},
): Promise<Delivered> {
  const ctx = stores.ctx
  const cache = await stores.orgCache()
  const {card, text, file} = input
  return cache.withOrgCache(ctx, pin.url, async dir => {
    await cache.fetchInto(ctx, dir, pin.url)
    const head = await cache.resolveRef(ctx, dir, pin.url, pin.ref)
    const inOrg = await cache.orgCardsWithId(ctx, dir, head, card.id)
    if (inOrg.length > 0) {
      if (inOrg.every(c => sameCard(parseCard(c.text, c.path), card)))
        return {
          file: inOrg[0].path,
          outcome: 'in-org',
          branch: pin.ref,
          commit: head,
          pushError: null,
          pushCommand: null,
        }
      throw new CairnError(
        'conflict',
        `The org layer "${pin.name}" already has a card "${card.id}" (${inOrg[0].path} on ${pin.ref}) that says something else. Nothing was written. Fix: change the card there through the org's own review, or give the project card another id and promote that`,
        {id: card.id, layer: pin.name, path: inOrg[0].path},
      )
    }
    const branches = await cache.promotionBranches(ctx, dir, card.id, file)
    const same = branches.find(b => b.text !== null && sameCard(parseCard(b.text, file), card))
    let branch: string
    let commit: string
    if (same) ({branch, commit} = same)
    else {
      const taken = new Set(branches.map(b => b.branch))
      let n = 1
      while (taken.has(promoteBranch(card.id, n))) n++
      branch = promoteBranch(card.id, n)
      const identityFrom = stores.requireProject().root
      commit = await cache.commitPromotion(ctx, dir, {
        base: head,
        file,
        text,
        message: input.message,
        branch,
        identityFrom,
      })
    }
    const pushError = same?.pushed ? null : await cache.pushPromotion(ctx, dir, pin.url, branch)
    return {
      file,
      outcome: same ? 'unchanged' : 'proposed',
      branch,
      commit,
      pushError,
      pushCommand: pushError ? cache.pushCommand(dir, pin.url, branch) : null,
    }
  })
}

export async function orgPromote(
  ctx: Context,
  input: {id: string; to?: string; noCommit?: boolean},
): Promise<OrgPromoteResult> {
  const stores = openStores(ctx)
  const project = stores.requireProject()
  assertSafeId(input.id)
  const pin = targetLayer(await stores.orgPins(), input.to)
  const {path, card} = await projectCard(stores, project, input.id)
  const projectKey = await stores.projectKey()
  const copy = orgCopy(card, {projectKey, now: isoSeconds(ctx.now())})
  const file = pendingPathOf(copy)
  const message = promoteMessage(copy, {projectKey, actor: ctx.actor()})
  const done = await deliver(stores, pin, {card: copy, text: renderCard(copy), file, message})
  const promoted: Promoted = {layer: pin.name, branch: done.branch, commit: done.commit}
  const projectCommit = samePromotion(card.provenance.promoted, promoted)
    ? null
    : await recordLink(stores, project, {path, id: input.id, promoted, noCommit: input.noCommit})
  if (done.pushError)
    ctx.warn(
      `The branch ${done.branch} could not be pushed to ${pin.url}: ${done.pushError.replace(/\.$/, '')}. It is kept in the cache. Fix: run "cairn org promote ${input.id}" again, or push it by hand with ${done.pushCommand}`,
    )
  return {
    id: input.id,
    layer: pin.name,
    url: pin.url,
    outcome: done.outcome,
    branch: done.branch,
    commit: done.commit,
    file: done.file,
    pushed: done.pushError === null,
    pushError: done.pushError,
    pushCommand: done.pushCommand,
    projectCommit,
  }
}

/** The project card's provenance.promoted set, in one project commit; the card read again under the lock. */
async function recordLink(
  stores: Stores,
  project: WritableStore,
  input: {path: string; id: string; promoted: Promoted; noCommit?: boolean},
): Promise<string | null> {
  const {commit, paths} = await stores.tx(
    {
      op: 'org',
      summary: `promote ${input.id} to org layer ${input.promoted.layer} (${input.promoted.branch})`,
      cards: [input.id],
      store: project,
      noCommit: input.noCommit,
    },
    tx => {
      const text = tx.read(input.path)
      if (text === null)
        throw new CairnError(
          'conflict',
          `The card "${input.id}" moved while it was promoted (${input.path} is gone). The org branch is made; the project card does not record it yet. Fix: run "cairn org promote ${input.id}" again`,
          {id: input.id},
        )
      // Another promote of the same card recorded it meanwhile: nothing to write.
      if (samePromotion(parseCard(text, input.path).provenance.promoted, input.promoted)) return
      tx.write(input.path, patchCard(text, input.path, [{path: ['provenance', 'promoted'], value: input.promoted}]))
    },
  )
  return paths.length ? commit : null
}
