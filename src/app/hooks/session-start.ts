import {catalogLine, renderCatalog} from '../../domain/catalog.js'
import {charCount, selectCore, someIds} from '../../domain/core.js'
import type {Context} from '../../context.js'
import {CairnError} from '../../domain/errors.js'
import {HOOK_TEXT} from '../../domain/messages/hooks.js'
import {speak, type StoreLanguage} from '../../domain/messages/language.js'
import {CATALOG_WHY} from '../../domain/receipt-stats.js'
import type {CardEntry} from '../../domain/receipts.js'
import type {CatalogEntry, CoreEntry, PathEntry} from '../../recall/index.js'
import {type ContextPart, type HookAnswer, type HookInput, NOTHING} from './types.js'
import {inScope, openHookView} from './view.js'

/**
 * session-start: the core cards within core_budget, a one-line catalog of recall cards within
 * recall.catalog_budget, a reminder when cards wait for review, and the board brief. Over budget,
 * the cards that do not fit are left out, named, and the .pending-fix marker asks for maintain.
 */
export async function sessionStart(ctx: Context, input: HookInput): Promise<HookAnswer> {
  const view = await openHookView(ctx, input)
  if (!view) return NOTHING
  const {door, primary, index, settings} = view
  const {language} = settings
  const t = speak(HOOK_TEXT, language)
  let coreCards: CoreEntry[]
  let catalogEntries: CatalogEntry[]
  let enforced: PathEntry[]
  try {
    const here = inScope(view)
    coreCards = (index?.coreCards() ?? []).filter(here)
    catalogEntries = (index?.catalog() ?? []).filter(here)
    enforced = settings.enforceMust
      ? (index?.pathCards() ?? []).filter(c => c.policy === 'must' && c.risk === 'high' && here(c))
      : []
  } finally {
    index?.close()
  }
  const local = await door.local(primary)
  const parts: ContextPart[] = []
  if (enforced.length) parts.push({kind: 'must', text: renderEnforced(enforced, language)})
  const core = fitCore(coreCards, settings.coreBudget, language)
  if (core.text) parts.push({kind: 'core', text: core.text})
  if (core.left.length > 0) {
    const left = someIds(
      core.left.map(c => c.id),
      undefined,
      language,
    )
    parts.push({kind: 'notice', text: t.overBudget(core.total, settings.coreBudget, left)})
    local.writePendingFix({
      ts: ctx.now().toISOString(),
      source: 'session-start',
      reasons: ['core-over-budget'],
      detail: `core text ${core.total} > ${settings.coreBudget} chars; not loaded: ${core.left.map(c => c.id).join(', ')}`,
    })
  }
  const pending = await door.pendingFacts(primary)
  if (pending.count > 0) parts.push({kind: 'notice', text: t.review(pending.count)})
  if (primary.kind === 'project' && (await door.hasBoard(primary))) {
    const brief = await boardBriefText(ctx, language)
    if (brief) parts.push({kind: 'brief', text: `${t.boardHead}\n${brief}`})
  }
  const catalog = renderCatalog(catalogEntries, settings.catalogBudget, language)
  if (catalog) parts.push({kind: 'catalog', text: catalog})
  local.pruneSessions(ctx.now())
  local.recordUsage({event: 'session_start', session: input.session, agent: input.agent}, ctx.now())
  // Past its budget the catalog names categories, not cards: no card is in it then.
  const listed = catalog.startsWith(`${t.catalogHead}\n`) ? catalogEntries : []
  const cards: CardEntry[] = [
    ...enforced.map(c => ({id: c.id, store: c.store, why: 'enforced', text: t.enforcedLine(c)})),
    ...core.shown.map(c => ({id: c.id, store: c.store, why: 'core', text: c.text})),
    ...listed.map(c => ({id: c.id, store: c.store, why: CATALOG_WHY, text: catalogLine(c, language)})),
  ]
  return {context: parts, cards, stores: view.stores, language}
}

export interface FittedCore {
  text: string
  total: number
  shown: CoreEntry[]
  left: CoreEntry[]
}

/** Core cards in index order (project first, then by id), cut as the agents-md export cuts them. */
export function fitCore(cards: readonly CoreEntry[], budget: number, language?: StoreLanguage): FittedCore {
  const {shown, omitted} = selectCore(cards, budget, c => c.text)
  const total = cards.reduce((n, c) => n + charCount(c.text), 0)
  const head = speak(HOOK_TEXT, language).coreHead
  const text = shown.length ? `${head}\n\n${shown.map(c => c.text).join('\n')}` : ''
  return {text, total, shown, left: omitted}
}

/** The enforced must-cards (hooks.enforce_must): the agent learns them before a write is denied. */
export function renderEnforced(cards: readonly PathEntry[], language?: StoreLanguage): string {
  const t = speak(HOOK_TEXT, language)
  return [t.enforcedHead, ...cards.map(t.enforcedLine)].join('\n')
}

/**
 * The brief, or one line saying it cannot be read: a bad record (or a link where the records live)
 * must not cost the session its core cards, which a failed hook would.
 */
async function boardBriefText(ctx: Context, language: StoreLanguage): Promise<string> {
  const {boardBrief} = await import('../board/read.js')
  const t = speak(HOOK_TEXT, language)
  try {
    return (await boardBrief(ctx, {migrate: false, language})).text.trim()
  } catch (error) {
    if (!(error instanceof CairnError)) return t.boardUnreadable
    const first = error.message
      .split('\n')
      .map(l => l.replace(/^\s*-\s*/, '').trim())
      .filter(Boolean)
      .slice(0, 2)
      .join(' ')
    return t.boardUnreadableWhy(first.slice(0, 300))
  }
}
