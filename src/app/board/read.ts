import {renderBrief, type Brief} from '../../domain/board/brief.js'
import {type Metrics, shareOverrideRate} from '../../domain/board/metrics.js'
import {type StateView, viewState} from '../../domain/board/view.js'
import type {Context} from '../../context.js'
import type {StoreLanguage} from '../../domain/messages/language.js'
import {primaryLanguage} from '../stores.js'
import {type BoardInput, openBoard} from './open.js'
import {type OverviewInput, type OverviewJson, writeOverview} from './overview.js'

export interface StateResult extends StateView {
  store: 'project' | 'personal'
}

/**
 * `board state`: layers, items with share, rank and projections, saved annotations. With an
 * overview, the same capture is also written to a directory and rendered. Reads only.
 */
export async function boardState(
  ctx: Context,
  input: BoardInput & {overview?: OverviewInput} = {},
): Promise<StateResult & {overview?: OverviewJson}> {
  const board = await openBoard(ctx, input, {write: false})
  const state: StateResult = {store: input.store ?? 'project', ...viewState(board.state, board.settings, board.now)}
  if (!input.overview) return state
  return {...state, overview: await writeOverview(ctx, board, state, input.overview)}
}

/**
 * `board brief`: the text summary by rank, low weights folded, durations from now, in the store's language (the
 * session hook gives it, read from its index; else the store's config.yaml is read).
 */
export async function boardBrief(
  ctx: Context,
  input: BoardInput & {language?: StoreLanguage} = {},
): Promise<Brief & {now: string; event_seq: number}> {
  const board = await openBoard(ctx, input, {write: false})
  const view = viewState(board.state, board.settings, board.now)
  const language = input.language ?? (await primaryLanguage(ctx))
  return {now: board.now, event_seq: board.state.event_seq, ...renderBrief(view, board.settings.fold_below, language)}
}

/** `board metrics`: the share override rate per committed batch. */
export async function boardMetrics(ctx: Context, input: BoardInput = {}): Promise<Metrics> {
  const board = await openBoard(ctx, input, {write: false})
  const files = board.files
  if (!files) return shareOverrideRate([])
  return shareOverrideRate(
    board
      .events()
      .filter(e => e.event_seq !== null)
      .map(e => ({seq: e.event_seq!, record: files.readRecord(e.key)})),
  )
}
