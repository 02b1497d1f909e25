import {parseCard, renderCard} from '../domain/card/format.js'
import {getRule, getSection} from '../domain/card/sections.js'
import type {Card} from '../domain/card/schema.js'
import {distinctSlug} from '../domain/card/slug.js'
import {MAX_CARD_BYTES, type Via} from '../domain/card/types.js'
import {CairnError, quietSay, validationError} from '../domain/errors.js'
import {speakError} from '../domain/messages/issues.js'
import type {StoreLanguage} from '../domain/messages/language.js'
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
import {replaceText, textChanges, type TextChange} from '../domain/propose-text.js'
import {type Context, isoSeconds} from '../context.js'
import type {Store} from '../store/layout.js'
import {type Stores} from '../store/stores.js'
import {openStores, primaryLanguage} from './stores.js'
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
  /**
   * Whether a proposal of a card already pending replaces its text (--replace). Without it the pending card keeps its
   * text, only the evidence merges, and kept_text says what the proposal gave differently.
   */
  replace?: boolean
  /** Through what the cards come, when not the context's own front end (an import's). */
  via?: Via
}

/**
 * created: a new pending card. merged: the evidence merged into the pending card of the same proposal. unchanged: the
 * pending card already held all of it. replaced: with --replace, the proposal's text replaced the pending card's.
 */
export type Outcome = 'created' | 'merged' | 'unchanged' | 'replaced'

export interface ProposedCard {
  id: string
  type: string
  store: 'project' | 'personal'
  path: string
  outcome: Outcome
  key: string
  /** merged or unchanged: the text the proposal gives differently, which the pending card kept (--replace takes it). */
  kept_text?: TextChange[]
  /** replaced: the text that changed. */
  replaced_text?: TextChange[]
}

export interface ProposeResult {
  /** The store's knowledge_language, which the rendering speaks. */
  language?: StoreLanguage
  cards: ProposedCard[]
  /** The project commit (or the personal one when only personal cards were proposed). */
  commit: string | null
  commits: {project?: string | null; personal?: string | null}
}

/** Proposes cards; a validation error speaks the store's language (its field names, ids and paths as they are). */
export async function propose(ctx: Context, input: ProposeInput): Promise<ProposeResult> {
  let result: ProposeResult
  try {
    result = await proposeCards(ctx, input)
  } catch (error) {
    throw speakError(error, await primaryLanguage(ctx))
  }
  return {...result, language: await primaryLanguage(ctx)}
}

async function proposeCards(ctx: Context, input: ProposeInput): Promise<ProposeResult> {
  const stores = openStores(ctx)
  const {proposals, label} = await readProposals(stores, input)
  const groups = new Map<'team' | 'personal', Proposal[]>()
  for (const p of proposals) groups.set(layerOf(p), [...(groups.get(layerOf(p)) ?? []), p])
  // Where a proposal's text is named when it is refused: the input, and its place in an array of several.
  const place = new Map(proposals.map((p, i) => [p, i]))
  const where = (p: Proposal) => ({file: label, prefix: proposals.length > 1 ? `[${place.get(p)}].` : ''})
  // Resolve both stores before writing anything, so a missing project store fails the whole call.
  const targets = new Map<'team' | 'personal', Store>()
  if (groups.has('team')) targets.set('team', stores.requireProject())
  if (groups.has('personal')) targets.set('personal', await stores.ensurePersonal())
  const envs = new Map(
    await Promise.all(
      [...targets].map(async ([layer, store]) => [layer, await proposalEnv(ctx, stores, store, input.via)] as const),
    ),
  )
  // Build every card before the transaction: bad input must write nothing anywhere. Each is rendered once, to
  // check its size, and that text is what a created card's file holds.
  const rendered = new WeakMap<Card, string>()
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
      return {store, env, cards: cards.map((c, i) => checkSize(c, ps[i], rendered)), from: ps.map(where)}
    }),
  )
  const all = built.flatMap(b => b.cards)
  if (all.length > 50) ctx.progress(`writing ${all.length} cards`)
  const {result: cards, commits} = await stores.tx(
    {op: 'propose', summary: summaryOf(all), store: built.map(b => b.store), noCommit: input.noCommit},
    async tx => {
      const done = built.flatMap(b =>
        b.cards.map((card, i) => ({
          store: b.store,
          card,
          from: b.from[i],
          result: writeProposal(tx.in(b.store), card, {stores, env: b.env, replace: !!input.replace, rendered}),
        })),
      )
      // A created card is scanned as the file it becomes; a proposal of a pending card may write none of its text.
      await refuseSecrets(
        stores,
        done.filter(d => d.result.outcome !== 'created'),
      )
      return done.map(d => d.result)
    },
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

/** The fix for a slug another card holds: a free slug with a word of the title, else a word to add. */
function freeSlug(tx: ChangeSet, stores: Stores, card: Card): string {
  const taken = (slug: string) => stores.find(tx.store, slug, {archive: true}).some(f => tx.exists(f.path))
  const free = distinctSlug(card.id, card.title, taken)
  return free ? `propose it as "${free}"` : 'add a discriminating word instead of a number'
}

/**
 * Creates the pending card, or merges its evidence into the same proposal already pending; that card keeps its text
 * unless `replace`, and the result says what the proposal gave differently.
 */
function writeProposal(
  tx: ChangeSet,
  card: Card,
  {
    stores,
    env,
    replace,
    rendered,
  }: {stores: Stores; env: ProposalEnv; replace: boolean; rendered: WeakMap<Card, string>},
): ProposedCard {
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
        `Slug "${card.id}" is already taken by ${target}, a different proposal. Slugs are unique within a store: rule 5. ` +
          `Fix: ${freeSlug(tx, stores, card)}`,
        quietSay({id: card.id, path: target, say: {key: 'slugTaken', id: card.id, path: target}}),
      )
    }
    const changes = textChanges(existing, card)
    if (changes.length > 0 && replace) {
      tx.write(target, renderCard(replaceText(existing, card, env)))
      return {...done('replaced'), replaced_text: changes}
    }
    const merged = mergeEvidence(existing, card, env)
    if (merged.changed) tx.write(target, renderCard(merged.card))
    const outcome = done(merged.changed ? 'merged' : 'unchanged')
    return changes.length > 0 ? {...outcome, kept_text: changes} : outcome
  }
  const clash = stores.find(store, card.id, {archive: true}).find(f => f.path !== target && tx.exists(f.path))
  if (clash) {
    const hint =
      clash.location === 'archive' ? `, archived; "cairn restore ${clash.archiveTs} ${card.id}" brings it back` : ''
    throw new CairnError(
      'conflict',
      `Slug "${card.id}" is already used by ${clash.path}${hint}. Slugs are unique within a store: rule 5. ` +
        `Fix: ${freeSlug(tx, stores, card)}`,
      quietSay({
        id: card.id,
        path: clash.path,
        say: {
          key: 'slugUsed',
          id: card.id,
          path: clash.path,
          archived: clash.location === 'archive' ? (clash.archiveTs ?? null) : null,
        },
      }),
    )
  }
  tx.write(target, rendered.get(card) ?? renderCard(card))
  return done('created')
}

/**
 * The secrets and steering text in proposals of cards already pending, refused as a created card's would be: whatever
 * the pending card keeps, the new text is checked.
 */
async function refuseSecrets(
  stores: Stores,
  proposed: {store: Store; card: Card; from: {file: string; prefix: string}}[],
): Promise<void> {
  if (proposed.length === 0) return
  const checks = await stores.cardChecks()
  const issues = []
  for (const store of new Set(proposed.map(p => p.store))) {
    const mine = proposed.filter(p => p.store === store)
    // Each card is scanned under its place in the list, then named by its input and place there.
    const found = await checks.secretIssues(
      store,
      mine.map((p, i) => ({file: String(i), card: p.card})),
    )
    issues.push(
      ...found.map(issue => {
        const {file, prefix} = mine[Number(issue.file)].from
        return {...issue, file, field: `${prefix}${issue.field}`}
      }),
    )
  }
  if (issues.length) throw validationError(issues, 'The proposal was refused, and nothing was written')
}

async function readProposals(stores: Stores, input: ProposeInput): Promise<{proposals: Proposal[]; label: string}> {
  const read = (data: unknown, label: string) => ({proposals: parseProposals(data, label), label})
  if (input.records) return read(input.records.data, input.records.label)
  if (input.fields) {
    const fields = Object.fromEntries(Object.entries(input.fields).filter(([, v]) => v !== undefined))
    return read(fieldsFromFlags(fields, input.phrases ?? {}), '(flags)')
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
  return read(data, label)
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

/** The card, its rendered text kept in `rendered`; over MAX_CARD_BYTES it is refused, naming the largest field. */
function checkSize(card: Card, p: Proposal, rendered: WeakMap<Card, string>): Card {
  const text = renderCard(card)
  rendered.set(card, text)
  const size = Buffer.byteLength(text, 'utf8')
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
      say: {key: 'proposalTooLarge', size, max: MAX_CARD_BYTES, field: largest},
    },
  ])
}

function summaryOf(cards: Card[]): string {
  const ids = [...new Set(cards.map(c => c.id))]
  return ids.length === 1 ? ids[0] : `${ids.length} cards`
}
