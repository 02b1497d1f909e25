import path from 'node:path'
import {type BoardDiff, diffStates} from '../../domain/board/diff.js'
import {renderOverviewHtml} from '../../domain/board/overview/html.js'
import {buildPanels, type Omission} from '../../domain/board/overview/model.js'
import {selectScope} from '../../domain/board/overview/scope.js'
import {DEFAULT_VIEW, type OverviewView, parseView} from '../../domain/board/overview/view.js'
import type {StateView} from '../../domain/board/view.js'
import {CairnError} from '../../domain/errors.js'
import {screenshotElements} from '../../store/browser.js'
import type {Context} from '../../store/context.js'
import {openOutputDir} from '../../store/output-dir.js'
import {readInput} from '../../store/input.js'
import {parseStructured} from '../input.js'
import type {OpenBoard} from './open.js'
import {pastState} from './past.js'

export interface OverviewInput {
  dir: string
  /** A view file (JSON): items, depth, fields, changes_only. */
  view?: string
  /** An event_seq, a batch id or an RFC 3339 time. */
  diffFrom?: string
}

export interface OverviewJson {
  schema: 'cairn/board-overview@1'
  /** Every file in the directory comes from this one capture of the board. */
  capture: {store: string; event_seq: number; revision: number; now: string}
  scope: {view: OverviewView; diff_from: string | null; layers: (string | null)[]; items: string[]}
  omissions: Omission[]
  images: {file: string; panel: string; layer: string | null; end: 'current' | 'from'; event_seq: number; budget: number; used: number; px_per_share: number; width: number | null; height: number | null}[]
  files: {state: string; diff: string | null; html: string}
  rendered: boolean
  render_error: string | null
  notes: string[]
}

const NOTES = [
  'Within one layer, a card\'s area is its final share / the layer budget (explicit overrides included); compare areas only within a layer.',
  'The hatched "not shown" area is active share this view left out; white "free" area is budget minus used.',
  'A picture is a pointer, not the state: read state.json (and diff.json) for the items, fields and saved annotations before deciding anything.',
]

/** What `board state` answers (read.ts StateResult), declared here so this module does not import its caller. */
type CapturedState = StateView & {store: string}

/** Writes overview.json, state.json, diff.json and overview.html from one capture, then the PNGs. Reads only. */
export async function writeOverview(ctx: Context, board: OpenBoard, state: CapturedState, input: OverviewInput): Promise<OverviewJson> {
  const dir = path.resolve(ctx.cwd, input.dir)
  const view = input.view ? await readView(ctx, input.view) : DEFAULT_VIEW
  let from = null
  let diff: BoardDiff | null = null
  if (input.diffFrom !== undefined) {
    from = pastState(board, input.diffFrom).state
    diff = diffStates(from, board.state, board.now)
  }
  const scope = selectScope(board.state, board.settings, view, diff, input.view ?? '(default view)')
  const panels = buildPanels({state: board.state, from, diff}, board.settings, view, board.now, scope)
  const overview: OverviewJson = {
    schema: 'cairn/board-overview@1',
    capture: {store: state.store, event_seq: board.state.event_seq, revision: board.state.revision, now: board.now},
    scope: {view, diff_from: input.diffFrom ?? null, layers: scope.layers, items: [...scope.shown]},
    omissions: scope.omissions,
    images: panels.map(p => ({file: `${p.name}.png`, panel: p.name, layer: p.layer, end: p.end, event_seq: p.event_seq, budget: p.budget, used: p.used, px_per_share: p.px_per_share, width: null, height: null})),
    files: {state: 'state.json', diff: diff ? 'diff.json' : null, html: 'overview.html'},
    rendered: false,
    render_error: null,
    notes: NOTES,
  }
  // Old pictures must not pass for this capture if rendering fails.
  const out = openOutputDir(dir, /^(now|from)-.*\.png$/)
  const write = out.write
  write('state.json', state)
  if (diff) write('diff.json', diff)
  const title = `${state.store} board, event ${board.state.event_seq}${diff ? ` (diff from event ${input.diffFrom})` : ''}, at ${board.now}`
  write('overview.html', renderOverviewHtml(panels, {title, notes: NOTES}))
  write('overview.json', overview)
  try {
    const shots = panels.map(p => ({selector: `section[data-panel="${p.name}"]`, file: out.file(`${p.name}.png`)}))
    const images = await screenshotElements(ctx.env, out.file('overview.html'), shots)
    images.forEach((img, i) => Object.assign(overview.images[i], {width: img.width, height: img.height}))
    overview.rendered = true
  } catch (error) {
    overview.render_error = (error as Error).message
    write('overview.json', overview)
    const cairn = error instanceof CairnError ? error : new CairnError('browser_unavailable', `cannot render the overview PNGs: ${(error as Error).message}`)
    throw new CairnError(cairn.code, cairn.message, {dir, written: ['overview.json', 'state.json', ...(diff ? ['diff.json'] : []), 'overview.html'], overview})
  }
  write('overview.json', overview)
  return overview
}

async function readView(ctx: Context, file: string): Promise<OverviewView> {
  const {text, label} = await readInput(ctx, file)
  return parseView(parseStructured(text, label).data, label)
}
