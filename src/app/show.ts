import type {StoreKind} from '../domain/org.js'
import {getRule, getSection, type Section} from '../domain/card/sections.js'
import type {Card} from '../domain/card/schema.js'
import {provenanceText} from '../domain/card/origin.js'
import {CairnError} from '../domain/errors.js'
import type {Context} from '../context.js'
import {type StoreChoice} from '../store/stores.js'
import {openStores} from './stores.js'
import {layerField, usageStore} from './layers.js'

export interface ShowInput {
  id: string
  /** One section of the body, or the card's provenance (who proposed it, from where, who approved it). */
  section?: Section | 'provenance'
  store?: StoreChoice
}

export interface ShowResult {
  id: string
  path: string
  store: StoreKind
  /** An org card's layer, "org:<name>"; absent for a project or personal card. */
  layer?: string
  location: string
  section: Section | 'provenance' | null
  /** The section text, or the whole card file when no section was asked for. */
  text: string
  card: Omit<Card, 'body'>
}

export async function show(ctx: Context, input: ShowInput): Promise<ShowResult> {
  const stores = openStores(ctx)
  stores.noteInterrupted()
  const found = await stores.findCard(input.id, {store: input.store, archive: true})
  const {body, ...card} = found.card
  let text = stores.text(found)
  if (input.section === 'provenance') text = provenanceText(card)
  else if (input.section) {
    const part = input.section === 'rule' ? getRule(body) : getSection(body, input.section)
    if (part === undefined)
      throw new CairnError(
        'not_found',
        `${found.path} has no "${input.section}" section. Fix: show the whole card, or add the section with "## ${input.section}"`,
      )
    text = part
  }
  const local = await stores.local(usageStore(stores, found.store))
  local.recordUsage({event: 'card_read', card: card.id}, ctx.now())
  return {
    id: card.id,
    path: found.path,
    store: found.store.kind,
    ...layerField(found.store),
    location: found.location,
    section: input.section ?? null,
    text,
    card,
  }
}
