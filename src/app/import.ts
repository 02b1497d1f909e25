import path from 'node:path'
import {renderCard} from '../domain/card/format.js'
import {getRule} from '../domain/card/sections.js'
import {cardSchemaFor, type Card} from '../domain/card/schema.js'
import {CairnError, type Issue} from '../domain/errors.js'
import {byId, charCount, coreEntry, coreText, selectCore} from '../domain/core.js'
import {secretIssue} from '../domain/secrets.js'
import {neutralized, type Neutralized} from '../domain/steering.js'
import {splitFrontmatter} from '../domain/frontmatter.js'
import {IMPORT_KINDS} from '../domain/import/kinds.js'
import {
  fixedSlugClashes,
  type PlannedProposal,
  planProposals,
  sourceKey,
  type StoreSlugs,
} from '../domain/import/pipeline.js'
import type {CardEnv, ImportItem, ImportKind} from '../domain/import/source.js'
import {parseProposals} from '../domain/propose.js'
import {BUILTIN_SIGNALS} from '../recall/index.js'
import {type Context, isoSeconds, type Origin} from '../context.js'
import type {Store} from '../store/layout.js'
import {type Stores} from '../store/stores.js'
import {openStores} from './stores.js'
import {propose, type Outcome} from './propose.js'

/** The caps every import works within, for the commands' help. */
export {SOURCE_LIMITS} from '../domain/import/limits.js'

export interface ImportInput {
  kind: string
  /** A source file or directory; by default the kind's usual places at the repository root. */
  path?: string
  dryRun?: boolean
  noCommit?: boolean
  /** Kinds whose sources are whole cards (ome): active cards under cards/, skipping review (evaluation stores). */
  activate?: boolean
}

export interface ImportedCard {
  id: string
  type: string
  title: string
  /** Repository-relative source path and line. */
  source: string
  line: number
  /**
   * What happened, or with dryRun what would: created; skipped because an earlier import made it; rejected because a
   * reviewer rejected the card an earlier import made of it; source-changed when an earlier import made it and its
   * rule text has changed in the source since (the card is left as it is).
   */
  outcome: Outcome | 'would-create' | 'skipped' | 'rejected' | 'source-changed'
  path: string | null
}

export interface ImportResult {
  kind: string
  dryRun: boolean
  cards: ImportedCard[]
  /** Source files (or records) that could not be imported, each with what is wrong and how to fix it. */
  failed: {file: string; issues: Issue[]}[]
  /** Text of a source that became no card on purpose, and why (an introduction that gives no rule). */
  leftOut: {source: string; line: number; title: string; why: string}[]
  /** What was imported with a caveat (OME fields dropped, unknown signals, short ids). */
  warnings: string[]
  /**
   * When the store's core cards, these new ones counted as approved, are over core_budget: their characters, the
   * budget, and the ids that would not load at session start (the last in id order, as session start cuts them).
   */
  coreOverflow: {chars: number; budget: number; left: string[]} | null
  /** Of the cards created (or, with dryRun, that would be), how many have no triggers of their own: cairn enrich's work. */
  derivedOnly: number
  commit: string | null
}

type Failed = ImportResult['failed']

/**
 * `cairn import <kind>`: reads the kind's sources, maps each to proposals and proposes them as pending cards
 * in one commit. A piece imported before (same source path and anchor) is skipped; a malformed file is reported
 * in `failed` and the rest is imported.
 */
export async function importRules(ctx: Context, input: ImportInput): Promise<ImportResult> {
  const kind = IMPORT_KINDS[input.kind]
  const kinds = Object.keys(IMPORT_KINDS).join(', ')
  if (!kind) throw new CairnError('usage', `Unknown import kind "${input.kind}". Fix: use one of ${kinds}`)
  if (input.activate && !kind.card) {
    throw new CairnError(
      'usage',
      `--activate is for "cairn import ome" only; ${kind.kind} cards go to review. Fix: leave out --activate`,
    )
  }
  const stores = openStores(ctx)
  const store = stores.requireProject()
  const failed: Failed = []
  const read = await readSources(stores, kind, {store, path: input.path}, failed)
  const {notes} = read
  const mapped = read.mapped.filter(m => !m.item.leftOut)
  const leftOut = read.mapped.flatMap(({path: source, item}) =>
    item.leftOut
      ? [{source, line: item.line, title: (item.fields.title as string).replace(/\s+/g, ' '), why: item.leftOut}]
      : [],
  )
  const loaded = (await stores.loadAll(store, {archive: true})).cards
  const {byKey, rejected} = await importedKeys(stores, store, kind, mapped, loaded)
  const slugs: StoreSlugs = {paths: new Map(loaded.map(c => [c.card.id, c.path])), byKey}
  const config = await stores.config(store)
  const all = planProposals(kind.kind, mapped, slugs, config.knowledge_language)
  const built = kind.card ? buildCards(kind, all, await cardEnv(stores, store, input), failed, ctx.origin) : undefined
  const {kept, clashes} = fixedSlugClashes(built ? all.filter(p => built.has(p)) : valid(all, failed), slugs)
  for (const {source, issue} of clashes) addIssues(failed, source, [issue])
  const before = await pastOf(stores, store, {loaded, slugs, rejected}, kept)
  const isNew = (p: PlannedProposal) => before(p) === null
  const fresh = await withoutSecrets(stores, store, kept.filter(isNew), p => built?.get(p)?.card, failed)
  const card = (p: PlannedProposal, outcome: ImportedCard['outcome'], at: string | null): ImportedCard => {
    const c = built?.get(p)?.card
    const [type, title] = c ? [c.type, c.title] : [p.proposal.type as string, p.proposal.title as string]
    return {id: p.proposal.slug as string, type, title, source: p.source, line: p.line, outcome, path: at}
  }
  const skipped = kept.flatMap(p => {
    const past = before(p)
    return past ? [card(p, past, null)] : []
  })
  const warnings = [...notes, ...fresh.flatMap(p => built?.get(p)?.warnings ?? [])]
  const coreOverflow = overflow(
    (await stores.config(store)).core_budget,
    loaded
      .filter(c => (c.card.status === 'active' || c.location === 'pending') && c.card.load === 'core')
      .map(c => ({id: c.card.id, text: coreText(c.card)})),
    fresh.flatMap(p => {
      const c = built?.get(p)?.card
      if (c) return c.load === 'core' ? [{id: c.id, text: coreText(c)}] : []
      const f = p.proposal as {slug: string; title: string; summary: string; rule?: string; load?: string}
      return f.load === 'core' ? [{id: f.slug, text: coreEntry(f.slug, f.title, f.rule ?? f.summary)}] : []
    }),
  )
  const derivedOnly = fresh.filter(p => {
    const c = built?.get(p)?.card
    return c ? c.recall.triggers.length === 0 : !(p.proposal as {triggers?: unknown[]}).triggers?.length
  }).length
  const done = {kind: kind.kind, failed, leftOut, warnings, coreOverflow, derivedOnly}
  if (input.dryRun || fresh.length === 0) {
    const cards = [...fresh.map(p => card(p, 'would-create', null)), ...skipped]
    return {...done, dryRun: !!input.dryRun, cards, commit: null}
  }
  const r = built
    ? await writeCards(
        stores,
        store,
        fresh.map(p => built.get(p)!.card),
        input,
      )
    : await propose(ctx, {
        records: {data: fresh.map(p => p.proposal), label: kind.kind},
        noCommit: input.noCommit,
        via: 'import',
      })
  const cards = fresh.map((p, i) => card(p, r.cards[i].outcome, r.cards[i].path))
  return {...done, dryRun: false, cards: [...cards, ...skipped], commit: r.commit}
}

/**
 * Every source file of the kind, mapped; a file that cannot be read or mapped, or that a link leads out of the
 * repository, is reported in `failed`. What was left out on purpose (a folder link, a file's second name) is noted.
 */
async function readSources(
  stores: Stores,
  kind: ImportKind,
  from: {store: Store; path: string | undefined},
  failed: Failed,
) {
  const {ctx} = stores
  const {store, path: given} = from
  const rel = (file: string) => path.relative(store.root, path.resolve(ctx.cwd, file)).split(path.sep).join('/')
  const mapped: {path: string; item: ImportItem}[] = []
  const cleaned: string[] = []
  // A rule file's comments, hidden characters and outside links are made safe; cards (kind.card) are taken as written.
  const hosts = kind.card ? null : (await stores.config(store)).content.allow_hosts
  const mapOne = async (source: string, read: () => string | Promise<string>) => {
    try {
      const items = kind.map({path: source, text: await read()})
      const safe = hosts ? safeItems(items, hosts) : null
      const said = safe && neutralizedNote(source, safe, path.posix.join(store.prefix, 'config.yaml'))
      if (said) cleaned.push(said)
      mapped.push(...(safe?.items ?? items).map(item => ({path: source, item})))
    } catch (error) {
      addIssues(failed, source, issuesOf(error, source))
    }
  }
  if (given === '-') {
    if (kind.accepts(rel(given))) await mapOne(rel(given), async () => (await (await stores.input()).read(given)).text)
    return {mapped, notes: cleaned}
  }
  const sources = await stores.sources()
  // Without PATH: the kind's usual places, and its files found at any depth (a nested tests/AGENTS.md).
  const nested = given || !kind.nested ? [] : await sources.named(store.root, kind.nested)
  const targets = given
    ? [given]
    : [
        ...new Set([
          ...kind.defaults.map(d => path.join(store.root, d)).filter(p => sources.exists(p)),
          ...nested.map(f => path.join(store.root, f)),
        ]),
      ]
  if (targets.length === 0) {
    const where = kind.defaults.length ? `No ${kind.defaults.join(', ')} in ${store.root}` : 'Nothing to import'
    throw new CairnError('not_found', `${where}. Fix: give PATH, the file or folder to import`)
  }
  const {extensions, accepts, outside} = kind
  const found = sources.find({cwd: ctx.cwd, root: store.root, targets, extensions, accepts, outside})
  for (const issue of found.refused) addIssues(failed, issue.file!, [issue])
  const reader = sources.reader()
  for (const [n, file] of found.files.entries()) {
    const source = rel(file.path)
    if (found.files.length > 1) ctx.progress(`reading ${n + 1}/${found.files.length}: ${source}`)
    await mapOne(source, () => reader.read(file, source))
  }
  if (found.files.length > 1) ctx.progress('')
  return {mapped, notes: [...found.notes, ...cleaned]}
}

/**
 * What an earlier import made of a piece, or null for a new one: a card (skipped; source-changed when the piece's
 * rule text differs from the one the card was proposed with, the card left as it is), or a card a reviewer rejected
 * (rejected: the reject is the team's answer, so the piece is not proposed again). A card whose text a reviewer
 * edited is compared as it was proposed, so an edit alone never reads as a change at the source.
 */
async function pastOf(
  stores: Stores,
  store: Store,
  known: {loaded: {card: Card}[]; slugs: StoreSlugs; rejected: Set<string>},
  planned: PlannedProposal[],
) {
  const {loaded, slugs, rejected} = known
  const byId = new Map(loaded.map(c => [c.card.id, c.card]))
  const ruleOf = (p: PlannedProposal) => (p.proposal as {rule?: string}).rule?.trim()
  const madeOf = (p: PlannedProposal) => {
    const id = slugs.byKey.get(p.key)
    return id === undefined ? undefined : byId.get(id)
  }
  const differs = (rule: string, body: string) => (getRule(body) ?? '').trim() !== rule
  const edited = planned.filter(p => {
    const made = madeOf(p)
    const rule = ruleOf(p)
    return made && rule && differs(rule, made.body)
  })
  const first = await stores.asProposed(store, [...new Set(edited.map(p => madeOf(p)!.id))])
  const changed = new Set(
    edited.filter(p => {
      const was = first.get(madeOf(p)!.id)
      return was === undefined || differs(ruleOf(p)!, bodyOf(was))
    }),
  )
  return (p: PlannedProposal): 'skipped' | 'source-changed' | 'rejected' | null => {
    if (slugs.byKey.get(p.key) === undefined) return rejected.has(p.key) ? 'rejected' : null
    return changed.has(p) ? 'source-changed' : 'skipped'
  }
}

/** A card file's body, or '' when it has no frontmatter to split it from. */
function bodyOf(text: string): string {
  try {
    return splitFrontmatter(text, 'card')?.body ?? ''
  } catch {
    return ''
  }
}

/** Which card an earlier import made of each source key, and which keys a reviewer rejected. */
async function importedKeys(
  stores: Stores,
  store: Store,
  kind: ImportKind,
  mapped: {path: string; item: ImportItem}[],
  loaded: {card: Card}[],
) {
  const byKey = new Map(
    loaded.flatMap(c => {
      const key = c.card.provenance.source_sessions[0]
      return key ? [[key, c.card.id] as const] : []
    }),
  )
  if (kind.importedBefore) adoptOlderImports(kind, mapped, loaded, byKey)
  const rejected = await stores.rejectedSources(store)
  adoptFormerAnchors(mapped, byKey, rejected)
  return {byKey, rejected}
}

/**
 * A piece an older cairn anchored otherwise (a Chinese heading by position or by its ASCII words alone) keeps its
 * card, or its reject; never one another piece of the file is now anchored by ("API" for "API 设计" beside "## API").
 */
function adoptFormerAnchors(
  mapped: {path: string; item: ImportItem}[],
  byKey: Map<string, string>,
  rejected: Set<string>,
) {
  const current = new Set(mapped.map(({path: source, item}) => sourceKey(source, item.anchor)))
  for (const {path: source, item} of mapped) {
    if (item.formerAnchor === undefined) continue
    const key = sourceKey(source, item.anchor)
    const former = sourceKey(source, item.formerAnchor)
    if (current.has(former)) continue
    const id = byKey.get(former)
    if (id !== undefined && !byKey.has(key)) byKey.set(key, id)
    if (rejected.has(former)) rejected.add(key)
  }
}

/** Cards an older cairn imported without a source key count as imported from their item's key. */
function adoptOlderImports(
  kind: ImportKind,
  mapped: {path: string; item: ImportItem}[],
  loaded: {card: Card}[],
  byKey: Map<string, string>,
) {
  const byId = new Map(loaded.map(c => [c.card.id, c.card]))
  for (const {path: source, item} of mapped) {
    const old = item.slug === undefined ? undefined : byId.get(item.slug)
    const key = sourceKey(source, item.anchor)
    if (old && kind.importedBefore!(old, item) && !byKey.has(key)) byKey.set(key, old.id)
  }
}

async function cardEnv(stores: Stores, store: Store, input: ImportInput): Promise<CardEnv> {
  const {ctx} = stores
  const signals = new Set([...BUILTIN_SIGNALS.map(s => s.id), ...(await stores.signals(store)).map(s => s.id)])
  const language = (await stores.config(store)).knowledge_language
  const status = input.activate ? ('active' as const) : ('pending' as const)
  return {language, now: isoSeconds(ctx.now()), actor: ctx.actor(), status, signals}
}

/** The whole cards of a card kind (OME); a file with a record that is not a valid card is reported whole and left out. */
function buildCards(kind: ImportKind, planned: PlannedProposal[], env: CardEnv, failed: Failed, origin: Origin) {
  const built = new Map<PlannedProposal, {card: Card; warnings: string[]}>()
  const bad = new Set<string>()
  // Who imported the card, from which client and session: the record's own history stays in its other fields.
  const from = {proposed_by: env.actor, client: origin.client, session: origin.session, via: 'import' as const}
  for (const p of planned) {
    if (bad.has(p.source)) continue
    try {
      const made = kind.card!(p, env)
      const provenance = {...made.card.provenance, ...from}
      const card = {...made.card, provenance, schema: cardSchemaFor({...made.card, provenance})}
      built.set(p, {...made, card})
    } catch (error) {
      bad.add(p.source)
      failed.push({file: p.source, issues: issuesOf(error, `${p.source}:${p.line}`)})
    }
  }
  for (const p of built.keys()) if (bad.has(p.source)) built.delete(p)
  return built
}

/** Writes whole cards in one commit: pending cards, or active cards with activate. */
async function writeCards(stores: Stores, store: Store, cards: Card[], input: ImportInput) {
  const location = input.activate ? 'cards' : 'pending'
  const summary = `import ${cards.length === 1 ? cards[0].id : `${cards.length} cards`} from ${input.kind}`
  const {result, commit} = await stores.tx({op: 'import', summary, store, noCommit: input.noCommit}, tx =>
    cards.map(c => {
      // The store was read before the transaction; a writer since may have taken the id.
      const clash = stores.find(store, c.id, {archive: true}).find(f => tx.exists(f.path))
      if (clash) {
        const message = `"${c.id}" is already in the store at ${clash.path}. Nothing was imported. Fix: run the import again`
        throw new CairnError('conflict', message, {id: c.id, path: clash.path})
      }
      const target = stores.cardPath(store, location, c.type, c.id)
      tx.write(target, renderCard(c))
      return {outcome: 'created' as const, path: target}
    }),
  )
  return {cards: result, commit}
}

/** The planned proposals that are valid cards; a file with an invalid one is reported whole and left out. */
function valid(planned: PlannedProposal[], failed: Failed): PlannedProposal[] {
  const bad = new Set<string>()
  for (const p of planned) {
    try {
      parseProposals(p.proposal, `${p.source}:${p.line}`)
    } catch (error) {
      bad.add(p.source)
      failed.push({file: p.source, issues: issuesOf(error, `${p.source}:${p.line}`)})
    }
  }
  return planned.filter(p => !bad.has(p.source))
}

/** The core cards over budget once these are approved, as session start would cut them (id order), or null. */
function overflow(
  budget: number,
  active: {id: string; text: string}[],
  added: {id: string; text: string}[],
): ImportResult['coreOverflow'] {
  if (added.length === 0) return null
  const all = byId([...active.filter(a => !added.some(x => x.id === a.id)), ...added])
  const {omitted} = selectCore(all, budget, c => c.text)
  if (omitted.length === 0) return null
  return {chars: all.reduce((n, c) => n + charCount(c.text), 0), budget, left: omitted.map(c => c.id)}
}

/**
 * The pieces that hold no secret. A piece with one is left out and reported with its source, the fingerprint and the
 * `secrets.allow` fix, so one credential in one file never stops the rest of an import (the write would refuse all).
 */
async function withoutSecrets(
  stores: Stores,
  store: Store,
  planned: PlannedProposal[],
  cardOf: (p: PlannedProposal) => Card | undefined,
  failed: Failed,
): Promise<PlannedProposal[]> {
  if (planned.length === 0) return planned
  const checks = await stores.cardChecks()
  const where = (p: PlannedProposal) => `${p.source}:${p.line}`
  const hits = await checks.findSecrets(
    planned.map(p => {
      const card = cardOf(p)
      return card ? {file: where(p), card} : {file: where(p), record: p.proposal}
    }),
    checks.allowedSecrets(store),
    checks.allowedHosts(store),
  )
  if (hits.length === 0) return planned
  // Imports write to the project store only: its config is .cairn/config.yaml.
  const config = path.posix.join(store.prefix, 'config.yaml')
  for (const p of planned) {
    const own = hits.filter(h => h.file === where(p))
    if (own.length)
      addIssues(
        failed,
        p.source,
        own.map(h => secretIssue(h, config)),
      )
  }
  const held = new Set(hits.map(h => h.file))
  return planned.filter(p => !held.has(where(p)))
}

function addIssues(failed: Failed, file: string, issues: Issue[]) {
  const entry = failed.find(f => f.file === file)
  if (entry) entry.issues.push(...issues)
  else failed.push({file, issues})
}

function issuesOf(error: unknown, file: string): Issue[] {
  if (!(error instanceof CairnError)) throw error
  const issues = (error.data as {issues?: Issue[]} | undefined)?.issues
  return issues?.length ? issues : [{file, field: '(file)', message: error.message}]
}

type Cleaned = Omit<Neutralized, 'text'>

/** The pieces of a rule file with each text field neutralized, once mapped (the cairn block's comments mark it). */
function safeItems(items: ImportItem[], hosts: readonly string[]): Cleaned & {items: ImportItem[]} {
  const out = {comments: 0, hidden: 0, links: 0, items: [] as ImportItem[]}
  // A piece's summary repeats a sentence of its rule: each is counted once, by the field that holds the most.
  const most = {comments: 0, hidden: 0, links: 0}
  const clean = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const n = neutralized(value, hosts)
      for (const k of ['comments', 'hidden', 'links'] as const) most[k] = Math.max(most[k], n[k])
      return n.text
    }
    return Array.isArray(value) ? value.map(clean) : value
  }
  for (const item of items) {
    Object.assign(most, {comments: 0, hidden: 0, links: 0})
    const fields = Object.fromEntries(Object.entries(item.fields).map(([k, v]) => [k, clean(v)]))
    for (const k of ['comments', 'hidden', 'links'] as const) out[k] += most[k]
    // A piece that was only comments (an ADR template's prompts) has nothing a reader sees: no card.
    const emptied = ['title', 'summary', 'rule'].some(k => isBlank(fields[k]) && !isBlank(item.fields[k]))
    const leftOut = emptied ? 'it holds only HTML comments, which a reader never sees' : item.leftOut
    out.items.push({...item, fields, ...(leftOut ? {leftOut} : {})})
  }
  return out
}

const isBlank = (v: unknown) => typeof v === 'string' && v.trim() === ''

/** What neutralized() changed in one rule file, as the import's note, or null when nothing. */
function neutralizedNote(source: string, n: Cleaned, configFile: string): string | null {
  const count = (k: number, one: string) => (k === 1 ? `1 ${one}` : `${k} ${one}s`)
  const removed = [n.comments && count(n.comments, 'HTML comment'), n.hidden && count(n.hidden, 'hidden character')]
    .filter(Boolean)
    .join(' and ')
  const parts = [
    removed && `removed ${removed} (a reader never sees them)`,
    n.links &&
      `${count(n.links, 'link')} to hosts outside the allow-list shown as code, not followed (to keep a host's ` +
        `links, list it under content: allow_hosts: in ${configFile} and import again)`,
  ].filter(Boolean)
  return parts.length ? `${source}: ${parts.join('; ')}` : null
}
