import {parseCard, patchCard} from '../domain/card/format.js'
import {reasonText, settledEvidence} from '../domain/stale.js'
import {isSafeId} from '../domain/card/types.js'
import {CairnError} from '../domain/errors.js'
import {type Context, isoSeconds} from '../context.js'
import type {LoadedCard} from '../store/cards/cards.js'
import {openStores} from './stores.js'
import {stale, type StaleEntry} from './stale.js'

export interface VerifyInput {
  ids?: string[]
  /**
   * Confirm every active card the check finds nothing against (with `since`, nothing the change since it touched),
   * except those confirmed at a commit the code has not moved from since.
   */
  allFresh?: boolean
  since?: string
  noCommit?: boolean
}

export interface VerifyResult {
  verified: string[]
  /** Cards --all-fresh left alone because the check lists them. */
  skipped: {id: string; why: string[]}[]
  /** What each confirmed card's evidence now says instead: a renamed file's new name, a gone file or symbol dropped. */
  updated: {id: string; why: string[]}[]
  /** When, and at which commit (HEAD before the verify commit), the cards are now confirmed. */
  verified_at: string
  verified_commit: string | null
  commit: string | null
}

/**
 * `cairn verify`: records that active project cards are still true of the code, as evidence.verified_at and
 * evidence.verified_commit (HEAD), in one commit. A stale card stops being listed: its evidence now counts from here.
 */
export async function verify(ctx: Context, input: VerifyInput): Promise<VerifyResult> {
  if (!!input.ids?.length === !!input.allFresh)
    throw new CairnError(
      'usage',
      'Nothing to confirm. Fix: give the ids of the cards to confirm, or --all-fresh, not both',
    )
  if (input.since !== undefined && !input.allFresh)
    throw new CairnError(
      'usage',
      '--since goes with --all-fresh: it says which change the cards must not be touched by. Fix: add --all-fresh, or leave out --since',
    )
  const stores = openStores(ctx)
  const store = stores.requireProject()
  const skipped: VerifyResult['skipped'] = []
  let picked: LoadedCard[]
  if (input.allFresh) {
    const check = await stale(ctx, {since: input.since})
    // Overdue alone is not a change to the code: --all-fresh confirms those cards too.
    const held = check.cards.filter(c => c.reasons.some(r => r.kind !== 'unverified'))
    for (const c of held) skipped.push({id: c.id, why: c.why})
    const heldIds = new Set(held.map(c => c.id))
    const loaded = await stores.loadAll(store)
    const fresh = loaded.cards.filter(
      c => c.location === 'cards' && c.card.status === 'active' && !heldIds.has(c.card.id),
    )
    // A card confirmed at a commit the code has not moved from since is confirmed already: no new commit for it.
    const code = await stores.code(store)
    const at = [...new Set(fresh.map(c => c.card.evidence.verified_commit).filter((v): v is string => !!v))]
    const still = await code.codeUnchangedSince(at)
    // Listed and not held: only overdue, so confirmed whether or not the code moved.
    const overdue = new Set(check.cards.map(c => c.id))
    picked = fresh.filter(
      c => overdue.has(c.card.id) || !c.card.evidence.verified_commit || !still.has(c.card.evidence.verified_commit),
    )
  } else picked = await Promise.all([...new Set(input.ids)].map(id => activeCard(stores, id)))
  // A card confirmed as it is keeps its evidence in step with the code: what moved or went is settled now.
  const reasons = new Map<string, StaleEntry>()
  if (!input.allFresh) for (const c of (await stale(ctx, {ids: picked.map(p => p.card.id)})).cards) reasons.set(c.id, c)
  const at = isoSeconds(ctx.now())
  const head = await stores.headCommit(store)
  const updated = picked.flatMap(c => {
    const r = reasons.get(c.card.id)
    const moved = r?.reasons.filter(x => x.kind !== 'unverified' && x.kind !== 'rewritten') ?? []
    return moved.length ? [{id: c.card.id, why: moved.map(x => reasonText(x))}] : []
  })
  const verified = picked.map(c => c.card.id)
  const result: VerifyResult = {verified, skipped, updated, verified_at: at, verified_commit: head, commit: null}
  if (!picked.length) return result
  const summary = picked.length === 1 ? picked[0].card.id : `${picked.length} cards`
  const {commit} = await stores.tx(
    {op: 'verify', summary, store, cards: picked.map(c => c.card.id), noCommit: input.noCommit},
    tx => {
      for (const c of picked) {
        const text = tx.readFound(c.path, `card "${c.card.id}"`)
        const settled = settledEvidence(parseCard(text, c.path), reasons.get(c.card.id)?.reasons ?? [])
        tx.write(
          c.path,
          patchCard(text, c.path, [
            ...settled,
            {path: ['evidence', 'verified_at'], value: at},
            {path: ['evidence', 'verified_commit'], value: head},
          ]),
        )
      }
    },
  )
  result.commit = commit
  return result
}

/** The active project card with this id; a pending, retired, archived or personal card is refused, saying why. */
async function activeCard(stores: ReturnType<typeof openStores>, id: string): Promise<LoadedCard> {
  if (!isSafeId(id))
    throw new CairnError(
      'usage',
      `"${id}" is not a card id: ids are kebab-case, such as parse-config-trap. Fix: give the id as "cairn list" shows it`,
    )
  const [personal] = stores.personal ? stores.find(stores.personal, id, {archive: true}) : []
  if (personal && !stores.find(stores.requireProject(), id, {archive: true}).length)
    throw new CairnError(
      'invalid_transition',
      `"${id}" is a personal card: cards are confirmed against a repository's code, so only project cards are. Fix: confirm project cards only`,
    )
  const c = await stores.findCard(id, {store: 'project', archive: true})
  if (c.location === 'pending')
    throw new CairnError(
      'invalid_transition',
      `"${id}" is pending, and approving it confirms it. Fix: run "cairn review approve ${id}"`,
    )
  if (c.location === 'archive')
    throw new CairnError(
      'invalid_transition',
      `"${id}" is archived. Fix: restore it first with "cairn restore ${c.archiveTs} ${id}"`,
    )
  if (c.card.status !== 'active')
    throw new CairnError(
      'invalid_transition',
      `"${id}" is ${c.card.status}: only active cards are confirmed. Fix: confirm an active card, or the card that replaced it`,
    )
  return c
}
