import {byId, coreText, selectCore} from '../domain/core.js'
import {
  AGENTS_MD_FILES,
  assertAgentsMdFile,
  type AgentsMdFile,
  type BlockAction,
  placeBlock,
  renderCoreBlock,
} from '../domain/export/agents-md.js'
import type {Context} from '../context.js'
import {openStores} from './stores.js'
import {sharedActiveCards} from './layers.js'

export interface ExportAgentsMdInput {
  /** Repo-relative target, one of AGENTS_MD_FILES; AGENTS.md by default. */
  file?: string
  dryRun?: boolean
}

export interface ExportAgentsMdResult {
  file: AgentsMdFile
  /** What happened to the file (with dryRun, what would): unchanged when it already held this block. */
  action: BlockAction | 'unchanged'
  written: boolean
  /** Ids of the core cards in the block, in block order. */
  cards: string[]
  /** Ids of the active core cards left out over the budget. */
  omitted: string[]
  chars: number
  budget: number
  /** The managed block, markers included. */
  block: string
}

/**
 * Writes the project's active load: core cards (its own and its org layers'), within core_budget, into a managed block
 * of an agent instruction file. Personal cards never reach a file that is shared. Never commits.
 */
export async function exportAgentsMd(ctx: Context, input: ExportAgentsMdInput = {}): Promise<ExportAgentsMdResult> {
  const file = input.file ?? AGENTS_MD_FILES[0]
  assertAgentsMdFile(file)
  const stores = openStores(ctx)
  const store = stores.requireProject()
  stores.noteInterrupted([store])
  const budget = (await stores.config(store)).core_budget
  // The org layers' cards are reviewed for the team too; a project card overrides one of the same id.
  const {cards, unreadable} = await sharedActiveCards(stores)
  warnUnreadable(ctx, unreadable)
  const core = cards.filter(c => c.load === 'core')
  const selection = selectCore(byId(core), budget, coreText)
  const block = renderCoreBlock(file, selection, budget)
  const files = await stores.repoFiles(store)
  const before = files.read(file)
  const placed = placeBlock(before, block, file)
  const unchanged = placed.text === before
  if (!unchanged && !input.dryRun) files.write(file, placed.text)
  return {
    file,
    action: unchanged ? 'unchanged' : placed.action,
    written: !unchanged && !input.dryRun,
    cards: selection.shown.map(c => c.id),
    omitted: selection.omitted.map(c => c.id),
    chars: selection.chars,
    budget,
    block,
  }
}

/** A card that cannot be read is left out of an export; the user hears which, and how to find out why. */
export function warnUnreadable(ctx: Context, paths: string[]): void {
  if (!paths.length) return
  ctx.warn(`left out ${paths.length} card file(s) that could not be read (${paths.join(', ')}); "cairn lint" explains`)
}
