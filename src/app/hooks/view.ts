import path from 'node:path'
import {normalizeEditPath} from '../../domain/relevance.js'
import type {Context} from '../../context.js'
import {interruptedNotice, type Store, storesToRead} from '../../store/layout.js'
import {recordUsage} from '../../store/agents/local.js'
import {type CardPlace, type HookSettings, hookSettings, openIndex, type RecallIndex, scopeGate} from '../../recall/index.js'
import {projectKeyOf} from '../../store/repo.js'
import type {HookInput} from './types.js'

/**
 * What every hook event starts from: the stores around the payload's cwd and the recall index in
 * hook mode, which never rebuilds a cold index inside the deadline (it starts one background
 * rebuild and answers from what it has, or with nothing).
 */
export interface HookView {
  stores: Store[]
  /** The primary store: the project's, else the personal one. */
  primary: Store
  /** Null while a cold index is being rebuilt in the background. */
  index: RecallIndex | null
  settings: HookSettings
}

/** Null when there is no store: the hook then says nothing. */
export async function openHookView(ctx: Context, input: HookInput): Promise<HookView | null> {
  const stores = storesToRead(ctx)
  if (stores.length === 0) return null
  for (const notice of stores.map(interruptedNotice)) if (notice) ctx.warn(notice)
  const index = await openIndex(stores, {mode: 'hook', coldBuild: true})
  const settings = index?.settings.hooks ?? (await coldSettings(stores[0]))
  input.setDeadline?.(settings.deadlineMs)
  return {stores, primary: stores[0], index, settings}
}

/** Without an index the settings come from config.yaml itself (the slow parser, but only while cold). */
async function coldSettings(store: Store): Promise<HookSettings> {
  const {readConfig} = await import('../../store/settings/config.js')
  return hookSettings(readConfig(store))
}

/**
 * The scope gate the prompt path applies, for the session hooks' entries: a personal card scoped
 * to another project stays out of this one's session start, catalog and path cards.
 */
export function inScope(view: HookView): (card: CardPlace) => boolean {
  const project = view.stores.find(s => s.kind === 'project')
  const projectKey = projectKeyOf(project?.root, view.index?.settings.projectKey ?? null)
  return card => scopeGate(card, {projectKey}).pass
}

/** A path the payload names (absolute, or relative to cwd), relative to the repository root; null outside it. */
export function repoRelative(root: string, cwd: string, file: string): string | null {
  return normalizeEditPath(path.posix.resolve(cwd, file), root) ?? null
}

/**
 * Records that cards were shown, each in its own store's ledger: maintain counts a personal
 * card's use in the personal store.
 */
export function recordShown(ctx: Context, view: HookView, input: HookInput, cards: readonly {id: string; store: string}[], extra: Record<string, unknown> = {}): void {
  for (const store of view.stores) {
    const ids = cards.filter(c => c.store === store.kind).map(c => c.id)
    if (ids.length) recordUsage(store, {event: 'card_shown', session: input.session, agent: input.agent, cards: ids, ...extra}, ctx.now())
  }
}
