import {parseCard, patchCard} from '../domain/card/format.js'
import {getRule} from '../domain/card/sections.js'
import type {Card} from '../domain/card/schema.js'
import {deriveTriggers} from '../domain/derive.js'
import type {LoadedCard} from '../store/cards/cards.js'
import type {Store} from '../store/layout.js'
import type {Stores, WritableStore} from '../store/stores.js'
import type {Check, DoctorText} from './doctor.js'
import {isRetired} from '../domain/card/types.js'

/**
 * Cards older than derived triggers (cairn/card@1 with no triggers) that no prompt finds by its
 * words: doctor reports each, and doctor --fix derives their triggers, moving them to @2.
 */

const untriggered = (card: Card): boolean => !card.recall.triggers.length && !card.recall.derived_triggers.length

const derive = (card: Card): string[] =>
  deriveTriggers({title: card.title, summary: card.summary, rule: getRule(card.body), language: card.language})

/** Active and pending cards with neither triggers nor derived triggers; a card that does not parse is lint's. */
async function cardsWithoutTriggers(stores: Stores, store: WritableStore): Promise<LoadedCard[]> {
  return (await stores.loadAll(store)).cards.filter(
    c => (c.location === 'pending' ? !isRetired(c.card.status) : c.card.status === 'active') && untriggered(c.card),
  )
}

export async function triggerChecks(stores: Stores, targets: WritableStore[], t: DoctorText): Promise<Check[]> {
  const checks: Check[] = []
  for (const store of targets) {
    for (const c of await cardsWithoutTriggers(stores, store)) {
      const own = t.ownTriggers(c.card.id)
      checks.push({
        store: store.kind,
        check: 'triggers',
        status: 'warning',
        detail: t.noTriggers(c.path),
        fix: derive(c.card).length ? t.deriveFix(own) : t.ownFix(own),
      })
    }
  }
  if (!checks.length) checks.push({store: 'project', check: 'triggers', status: 'ok', detail: t.triggersOk})
  return checks
}

/**
 * Derives triggers for every card that has none, in one transaction over the stores (one commit
 * each). Each card is read again inside the lock: a card given triggers meanwhile, or derived by
 * a parallel doctor --fix, is left as it is.
 */
export async function deriveMissing(stores: Stores, targets: WritableStore[], t: DoctorText): Promise<string[]> {
  const found = (await Promise.all(targets.map(store => cardsWithoutTriggers(stores, store))))
    .flat()
    .filter(c => derive(c.card).length)
  if (!found.length) return []
  const summary = `derive triggers for ${found.length === 1 ? found[0].card.id : `${found.length} cards`}`
  const written = targets.filter(s => found.some(c => c.store.kind === s.kind))
  const {result, commits} = await stores.tx({op: 'doctor', summary, store: written}, tx =>
    found.filter(c => {
      const cs = tx.in(c.store)
      const text = cs.read(c.path)
      if (text === null) return false
      const card = parseCard(text, c.path)
      const derived = untriggered(card) ? derive(card) : []
      if (derived.length) cs.write(c.path, patchCard(text, c.path, [[['recall', 'derived_triggers'], derived]]))
      return derived.length > 0
    }),
  )
  return targets.flatMap(store => {
    const n = result.filter(c => c.store.kind === store.kind).length
    const commit = commits[store.kind]
    return n ? [t.derived(n, store.kind, commit ? commit.slice(0, 12) : null)] : []
  })
}
