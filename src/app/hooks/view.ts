import path from 'node:path'
import {normalizeEditPath} from '../../domain/relevance.js'
import type {Context} from '../../context.js'
import type {Store} from '../../store/layout.js'
import {
  type CardPlace,
  type HookSettings,
  hookSettings,
  openIndex,
  type RecallIndex,
  scopeGate,
} from '../../recall/index.js'
import {projectKeyOf, type Stores} from '../../store/stores.js'
import {openStores} from '../stores.js'
import type {HookInput} from './types.js'

/**
 * What every hook event starts from: the stores around the payload's cwd and the recall index in
 * hook mode, which never rebuilds a cold index inside the deadline (it starts one background
 * rebuild and answers from what it has, or with nothing).
 */
export interface HookView {
  /** The door the stores were opened through, for the ports the events use. */
  door: Stores
  stores: Store[]
  /** The primary store: the project's, else the personal one. */
  primary: Store
  /** Null while a cold index is being rebuilt in the background. */
  index: RecallIndex | null
  settings: HookSettings
}

/** Null when there is no store: the hook then says nothing. */
export async function openHookView(ctx: Context, input: HookInput): Promise<HookView | null> {
  const door = openStores(ctx)
  const stores = door.layers()
  if (stores.length === 0) return null
  door.noteInterrupted(stores)
  const index = await openIndex(stores, {mode: 'hook', coldBuild: true})
  // Without an index the settings come from config.yaml itself (the slow parser, loaded only while cold).
  const settings = index?.settings.hooks ?? hookSettings(await door.config(stores[0]))
  input.setDeadline?.(settings)
  return {door, stores, primary: stores[0], index, settings}
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
export async function recordShown(
  view: HookView,
  input: HookInput,
  cards: readonly {id: string; store: string}[],
  extra: Record<string, unknown> = {},
): Promise<void> {
  for (const store of view.stores) {
    // An org layer's tree is shared and read-only: its cards' use is the project's to count.
    if (store.kind === 'org') continue
    const ids = cards
      .filter(c => c.store === store.kind || (store.kind === 'project' && c.store === 'org'))
      .map(c => c.id)
    if (!ids.length) continue
    const local = await view.door.local(store)
    local.recordUsage(
      {event: 'card_shown', session: input.session, agent: input.agent, cards: ids, ...extra},
      view.door.ctx.now(),
    )
  }
}
