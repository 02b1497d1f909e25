import {parseCard, patchCard} from '../domain/card/format.js'
import {hasEvidence} from '../domain/card/schema.js'
import {evidenceCandidates, heldEvidence} from '../domain/evidence.js'
import type {LoadedCard} from '../store/cards/cards.js'
import type {Store} from '../store/layout.js'
import type {Stores} from '../store/stores.js'
import type {CodeFacts} from '../store/code/code-facts.js'
import type {Check, DoctorText} from './doctor.js'
import {heldBy} from './evidence.js'

/**
 * Cards older than evidence (cairn/card@1 and @2): their text may name code the repository holds, a symbol or a path,
 * that cairn stale cannot watch until the card records it. doctor reports them; doctor --fix records it (cairn/card@3),
 * with the commit that last wrote the card as its last confirmation.
 */

interface Found {
  card: LoadedCard
  evidence: {paths: string[]; symbols: string[]}
}

/** Active project cards without evidence whose text names a path or symbol the repository holds. */
async function unrecorded(stores: Stores, store: Store): Promise<Found[]> {
  const cards = (await stores.loadAll(store)).cards.filter(
    c => c.location === 'cards' && c.card.status === 'active' && !hasEvidence(c.card.evidence),
  )
  if (!cards.length) return []
  const candidates = cards.map(c => evidenceCandidates(c.card))
  const code = await stores.code(store)
  const held = await heldBy(stores, store, candidates, await code.head())
  const last = await code.lastCommits(cards.map(c => c.path))
  const then = await symbolsThen(code, cards, candidates, held.symbols, last)
  return cards
    .map(card => {
      const symbols = new Set([...held.symbols, ...(then.get(last.get(card.path)?.commit ?? '') ?? [])])
      return {card, evidence: heldEvidence(card.card, {paths: held.paths, symbols})}
    })
    .filter(f => f.evidence.paths.length + f.evidence.symbols.length > 0)
}

/** At most this many commits are searched for the symbols HEAD no longer holds. */
const MAX_THEN = 50

/**
 * The symbols each card's last commit held that HEAD does not: a card is confirmed at that commit, so a symbol gone
 * since is its evidence, and cairn stale then says it went. By commit, for the newest MAX_THEN commits that matter.
 */
async function symbolsThen(
  code: CodeFacts,
  cards: LoadedCard[],
  candidates: {symbols: string[]}[],
  atHead: ReadonlySet<string>,
  last: Map<string, {commit: string; at: string}>,
): Promise<Map<string, Set<string>>> {
  const byCommit = new Map<string, Set<string>>()
  cards.forEach((c, i) => {
    const commit = last.get(c.path)?.commit
    const missing = candidates[i].symbols.filter(s => !atHead.has(s))
    if (!commit || !missing.length) return
    byCommit.set(commit, new Set([...(byCommit.get(commit) ?? []), ...missing]))
  })
  const out = new Map<string, Set<string>>()
  for (const [commit, symbols] of [...byCommit].slice(0, MAX_THEN))
    out.set(commit, await code.symbolsFound([...symbols], commit))
  return out
}

export async function evidenceChecks(stores: Stores, project: Store | undefined, t: DoctorText): Promise<Check[]> {
  if (!project) return []
  const found = await unrecorded(stores, project)
  if (!found.length) return [{store: 'project', check: 'evidence', status: 'ok', detail: t.evidenceOk}]
  const ids = found
    .slice(0, 3)
    .map(f => f.card.card.id)
    .join(', ')
  return [
    {
      store: 'project',
      check: 'evidence',
      status: 'warning',
      detail: t.evidenceMissing(found.length, found.length > 3 ? t.andMore(ids, found.length - 3) : ids),
      fix: t.evidenceFix,
    },
  ]
}

/**
 * Records the evidence of every card evidenceChecks reports, in one commit, each confirmed at the commit that last
 * wrote its file. Each card is read again inside the lock: one that gained evidence meanwhile is left as it is.
 */
export async function recordEvidence(stores: Stores, project: Store | undefined, t: DoctorText): Promise<string[]> {
  if (!project) return []
  const found = await unrecorded(stores, project)
  if (!found.length) return []
  const last = await (await stores.code(project)).lastCommits(found.map(f => f.card.path))
  const summary = `record evidence of ${found.length === 1 ? found[0].card.card.id : `${found.length} cards`}`
  const {result, commit} = await stores.tx({op: 'doctor', summary, store: project}, tx =>
    found.filter(({card, evidence}) => {
      const text = tx.read(card.path)
      if (text === null || hasEvidence(parseCard(text, card.path).evidence)) return false
      const at = last.get(card.path)
      tx.write(
        card.path,
        patchCard(text, card.path, [
          {path: ['evidence', 'paths'], value: evidence.paths},
          {path: ['evidence', 'symbols'], value: evidence.symbols},
          {path: ['evidence', 'verified_at'], value: at?.at ?? null},
          {path: ['evidence', 'verified_commit'], value: at?.commit ?? null},
        ]),
      )
      return true
    }),
  )
  if (!result.length) return []
  return [t.recorded(result.length, commit ? commit.slice(0, 12) : null)]
}
