import {parseCard, renderCard} from '../domain/card/format.js'
import {getRule, getSection} from '../domain/card/sections.js'
import type {Card} from '../domain/card/schema.js'
import {MAX_CARD_BYTES, type Via} from '../domain/card/types.js'
import {CairnError, validationError} from '../domain/errors.js'
import {
  buildCard,
  layerOf,
  mergeEvidence,
  parseProposals,
  type Proposal,
  type ProposalEnv,
  fieldsFromFlags,
  type PhraseFlags,
} from '../domain/propose.js'
import {type Context, isoSeconds} from '../context.js'
import type {Store} from '../store/layout.js'
import {type Stores} from '../store/stores.js'
import {openStores} from './stores.js'
import type {ChangeSet} from '../store/cards/transaction.js'
import {parseStructured} from './input.js'
import {gatherEvidence} from './evidence.js'

export interface ProposeInput {
  /** A file path, or "-" for stdin. */
  file?: string
  /** A single card from flags. */
  fields?: Record<string, unknown>
  /** With fields: the repeatable recall phrase flags (--trigger, --use-when, --ignore-when, --alias, --topic). */
  phrases?: PhraseFlags
  /** Proposals already read (an importer's), with the label their errors name. */
  records?: {data: unknown[]; label: string}
  noCommit?: boolean
  /** Through what the cards come, when not the context's own front end (an import's). */
  via?: Via
}

export type Outcome = 'created' | 'merged' | 'unchanged'

export interface ProposedCard {
  id: string
  type: string
  store: 'project' | 'personal'
  path: string
  outcome: Outcome
  key: string
}

export interface ProposeResult {
  cards: ProposedCard[]
  /** The project commit (or the personal one when only personal cards were proposed). */
  commit: string | null
  commits: {project?: string | null; personal?: string | null}
}

export async function propose(ctx: Context, input: ProposeInput): Promise<ProposeResult> {
  const stores = openStores(ctx)
  const proposals = await readProposals(stores, input)
  const groups = new Map<'team' | 'personal', Proposal[]>()
  for (const p of proposals) groups.set(layerOf(p), [...(groups.get(layerOf(p)) ?? []), p])
  // Resolve both stores before writing anything, so a missing project store fails the whole call.
  const targets = new Map<'team' | 'personal', Store>()
  if (groups.has('team')) targets.set('team', stores.requireProject())
  if (groups.has('personal')) targets.set('personal', await stores.ensurePersonal())
  const envs = new Map(
    await Promise.all(
      [...targets].map(async ([layer, store]) => [layer, await proposalEnv(ctx, stores, store, input.via)] as const),
    ),
  )
  // Build every card before the transaction: bad input must write nothing anywhere.
  const built = await Promise.all(
    [...groups].map(async ([layer, ps]) => {
      const store = targets.get(layer)!
      const env = envs.get(layer)!
      const cards = await gatherEvidence(
        stores,
        store,
        ps.map(p => buildCard(p, env)),
        env.now,
      )
      return {store, env, cards: cards.map((c, i) => checkSize(c, ps[i]))}
    }),
  )
  const all = built.flatMap(b => b.cards)
  if (all.length > 50) ctx.progress(`writing ${all.length} cards`)
  const {result: cards, commits} = await stores.tx(
    {op: 'propose', summary: summaryOf(all), store: built.map(b => b.store), noCommit: input.noCommit},
    tx => built.flatMap(b => b.cards.map(card => writeProposal(stores, tx.in(b.store), card, b.env))),
  )
  const commit = commits.project !== undefined ? commits.project : (commits.personal ?? null)
  // The stop hook's archive signal counts from the last proposal (seed 000's knowledge_proposed).
  for (const b of built) {
    const ids = cards.filter(c => c.store === b.store.kind).map(c => c.id)
    const local = await stores.local(b.store)
    local.recordUsage({event: 'card_proposed', cards: ids}, ctx.now())
  }
  return {cards, commit, commits}
}

/** Creates the pending card, or merges its evidence into the same proposal already pending. */
function writeProposal(stores: Stores, tx: ChangeSet, card: Card, env: ProposalEnv): ProposedCard {
  const store = tx.store
  const target = stores.cardPath(store, 'pending', card.type, card.id)
  const done = (outcome: Outcome): ProposedCard => ({
    id: card.id,
    type: card.type,
    store: store.kind,
    path: target,
    outcome,
    key: card.provenance.idempotency_key!,
  })
  const pending = tx.read(target)
  if (pending !== null) {
    const existing = parseCard(pending, target)
    if (existing.provenance.idempotency_key !== card.provenance.idempotency_key) {
      throw new CairnError(
        'conflict',
        `Slug "${card.id}" is already taken by ${target}, a different proposal. Slugs are unique within a store: rule 5. Fix: add a discriminating word instead of a number`,
        {id: card.id, path: target},
      )
    }
    const merged = mergeEvidence(existing, card, env)
    if (merged.changed) tx.write(target, renderCard(merged.card))
    return done(merged.changed ? 'merged' : 'unchanged')
  }
  const clash = stores.find(store, card.id, {archive: true}).find(f => f.path !== target && tx.exists(f.path))
  if (clash) {
    const hint =
      clash.location === 'archive' ? `, archived; "cairn restore ${clash.archiveTs} ${card.id}" brings it back` : ''
    throw new CairnError(
      'conflict',
      `Slug "${card.id}" is already used by ${clash.path}${hint}. Slugs are unique within a store: rule 5. Fix: add a discriminating word`,
      {id: card.id, path: clash.path},
    )
  }
  tx.write(target, renderCard(card))
  return done('created')
}

async function readProposals(stores: Stores, input: ProposeInput): Promise<Proposal[]> {
  if (input.records) return parseProposals(input.records.data, input.records.label)
  if (input.fields) {
    const fields = Object.fromEntries(Object.entries(input.fields).filter(([, v]) => v !== undefined))
    return parseProposals(fieldsFromFlags(fields, input.phrases ?? {}), '(flags)')
  }
  if (!input.file)
    throw new CairnError(
      'usage',
      'Nothing to propose. Fix: give a FILE, "-" for stdin, --type, --slug, --title and --summary, or --edit to write the card in your editor',
    )
  const {text, label} = await (await stores.input()).read(input.file)
  const {data, body} = parseStructured(text, label)
  if (body !== undefined && data && typeof data === 'object' && !Array.isArray(data)) {
    const fields = data as Record<string, unknown>
    const rule = getRule(body)
    const problem = getSection(body, 'problem')
    if (rule && fields.rule === undefined) fields.rule = rule
    if (problem && fields.problem === undefined) fields.problem = problem
  }
  return parseProposals(data, label)
}

/**
 * The language a card proposed to this layer is written in by default: its store's knowledge_language.
 * The team layer needs the project store, so a missing store is reported before anything else happens.
 */
export async function proposalLanguage(ctx: Context, layer: 'team' | 'personal'): Promise<'en' | 'zh-CN'> {
  const stores = openStores(ctx)
  const store = layer === 'team' ? stores.requireProject() : stores.personal
  return store ? (await stores.config(store)).knowledge_language : 'en'
}

async function proposalEnv(ctx: Context, stores: Stores, store: Store, via?: Via): Promise<ProposalEnv> {
  const config = await stores.config(store)
  const {client, session, connection} = ctx.origin
  return {
    now: isoSeconds(ctx.now()),
    projectKey: store.kind === 'project' ? await stores.projectKey() : null,
    repoRoot: store.root,
    defaultLanguage: config.knowledge_language === 'zh-CN' ? 'zh' : 'en',
    maxRecentPaths: config.archive.max_recent_paths,
    origin: {proposed_by: ctx.actor(), client, session, via: via ?? ctx.origin.via, connection},
  }
}

function checkSize(card: Card, p: Proposal): Card {
  const size = Buffer.byteLength(renderCard(card), 'utf8')
  if (size <= MAX_CARD_BYTES) return card
  const fields: [string, number][] = Object.entries(p).map(([k, v]) => [
    k,
    Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8'),
  ])
  const largest = fields.sort((a, b) => b[1] - a[1])[0][0]
  throw validationError([
    {
      file: `(card ${card.id})`,
      field: largest,
      message: `the card would be ${size} bytes, over the ${MAX_CARD_BYTES}-byte limit`,
      fix: `shorten "${largest}"; keep long material in a linked document`,
    },
  ])
}

function summaryOf(cards: Card[]): string {
  const ids = [...new Set(cards.map(c => c.id))]
  return ids.length === 1 ? ids[0] : `${ids.length} cards`
}
