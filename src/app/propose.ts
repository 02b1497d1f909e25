import {parseCard, renderCard} from '../domain/card/format.js'
import {getRule, getSection} from '../domain/card/sections.js'
import {type Card, MAX_CARD_BYTES} from '../domain/card/schema.js'
import {CairnError, validationError} from '../domain/errors.js'
import {buildCard, layerOf, mergeEvidence, parseProposals, type Proposal, type ProposalEnv} from '../domain/propose.js'
import {findById} from '../store/cards.js'
import {readConfig} from '../store/config.js'
import {type Context, isoSeconds} from '../store/context.js'
import {remoteProjectKey} from '../store/git.js'
import {cardRel, projectStore, type Store} from '../store/layout.js'
import {transaction} from '../store/transaction.js'
import {personalStore} from './init.js'
import {parseStructured, readInput} from './input.js'

export interface ProposeInput {
  /** A file path, or "-" for stdin. */
  file?: string
  /** A single card from flags. */
  fields?: Record<string, unknown>
  noCommit?: boolean
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
  const proposals = await readProposals(ctx, input)
  const groups = new Map<'team' | 'personal', Proposal[]>()
  for (const p of proposals) {
    const group = groups.get(layerOf(p)) ?? []
    group.push(p)
    groups.set(layerOf(p), group)
  }
  // Resolve both stores before writing anything, so a missing project store fails the whole call.
  const stores = new Map<'team' | 'personal', Store>()
  if (groups.has('team')) stores.set('team', projectStore(ctx))
  if (groups.has('personal')) stores.set('personal', await personalStore(ctx))
  const envs = new Map<'team' | 'personal', ProposalEnv>()
  for (const [layer, store] of stores) envs.set(layer, await proposalEnv(ctx, store))
  // Build every card before the first transaction: bad input must write nothing anywhere.
  const built = new Map<'team' | 'personal', Card[]>()
  for (const [layer, ps] of groups) built.set(layer, ps.map(p => checkSize(buildCard(p, envs.get(layer)!), p)))
  const result: ProposeResult = {cards: [], commit: null, commits: {}}
  for (const [layer, cards] of built) {
    const store = stores.get(layer)!
    const config = readConfig(store)
    if (cards.length > 50) ctx.progress(`writing ${cards.length} cards to the ${store.kind} store`)
    const {result: outcomes, commit} = await transaction(
      ctx,
      store,
      {op: 'propose', summary: summaryOf(cards), cards: [...new Set(cards.map(c => c.id))], commit: config.commit.enabled && !input.noCommit, verify: config.commit.verify},
      tx => cards.map(card => {
        const target = cardRel(store, 'pending', card.type, card.id)
        const pending = tx.read(target)
        if (pending !== null) {
          const existing = parseCard(pending, target)
          if (existing.provenance.idempotency_key !== card.provenance.idempotency_key) {
            throw new CairnError('conflict', `slug "${card.id}" is already taken by ${target}, a different proposal. Slugs are unique within a store (rule 5): add a discriminating word instead of a number`, {id: card.id, path: target})
          }
          const merged = mergeEvidence(existing, card, envs.get(layer)!)
          if (merged.changed) tx.write(target, renderCard(merged.card))
          return {id: card.id, type: card.type, store: store.kind, path: target, outcome: merged.changed ? 'merged' : 'unchanged', key: card.provenance.idempotency_key!} as ProposedCard
        }
        const clash = findById(store, card.id, {archive: true}).find(f => f.path !== target && tx.exists(f.path))
        if (clash) {
          const hint = clash.location === 'archive' ? ` (archived; "cairn restore ${clash.archiveTs} ${card.id}" brings it back)` : ''
          throw new CairnError('conflict', `slug "${card.id}" is already used by ${clash.path}${hint}. Slugs are unique within a store (rule 5): add a discriminating word`, {id: card.id, path: clash.path})
        }
        tx.write(target, renderCard(card))
        return {id: card.id, type: card.type, store: store.kind, path: target, outcome: 'created', key: card.provenance.idempotency_key!} as ProposedCard
      }),
    )
    result.cards.push(...outcomes)
    result.commits[store.kind] = commit
  }
  result.commit = result.commits.project !== undefined ? result.commits.project : (result.commits.personal ?? null)
  return result
}

async function readProposals(ctx: Context, input: ProposeInput): Promise<Proposal[]> {
  if (input.fields) {
    const fields = Object.fromEntries(Object.entries(input.fields).filter(([, v]) => v !== undefined))
    return parseProposals(fields, '(flags)')
  }
  if (!input.file) throw new CairnError('usage', 'give a FILE, "-" for stdin, or --type, --slug, --title and --summary')
  const {text, label} = await readInput(ctx, input.file)
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

async function proposalEnv(ctx: Context, store: Store): Promise<ProposalEnv> {
  const config = readConfig(store)
  return {
    now: isoSeconds(ctx.now()),
    projectKey: store.kind === 'project' ? (config.project_key ?? (await remoteProjectKey(store.root))) : null,
    repoRoot: store.root,
    defaultLanguage: config.knowledge_language === 'zh-CN' ? 'zh' : 'en',
    maxRecentPaths: config.archive.max_recent_paths,
  }
}

function checkSize(card: Card, p: Proposal): Card {
  const size = Buffer.byteLength(renderCard(card), 'utf8')
  if (size <= MAX_CARD_BYTES) return card
  const fields: [string, number][] = Object.entries(p).map(([k, v]) => [k, Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8')])
  const largest = fields.sort((a, b) => b[1] - a[1])[0][0]
  throw validationError([{file: `(card ${card.id})`, field: largest, message: `the card would be ${size} bytes, over the ${MAX_CARD_BYTES}-byte limit`, fix: `shorten "${largest}"; keep long material in a linked document`}])
}

function summaryOf(cards: Card[]): string {
  const ids = [...new Set(cards.map(c => c.id))]
  return ids.length === 1 ? ids[0] : `${ids.length} cards`
}
