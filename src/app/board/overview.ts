import path from 'node:path'
import {type BoardDiff, diffStates} from '../../domain/board/diff.js'
import {itemDetails, renderOverviewHtml} from '../../domain/board/overview/html.js'
import {buildPanels, type Omission, type Panel} from '../../domain/board/overview/model.js'
import {selectScope} from '../../domain/board/overview/scope.js'
import {renderPanelSvg} from '../../domain/board/overview/svg.js'
import {DEFAULT_VIEW, type OverviewView, parseView} from '../../domain/board/overview/view.js'
import type {StateView} from '../../domain/board/view.js'
import type {Context} from '../../context.js'
import {renderPng} from '../../domain/board/overview/png.js'
import {parseStructured} from '../input.js'
import type {OpenBoard} from './open.js'
import {pastState} from './past.js'

export interface OverviewInput {
  dir: string
  /** A view file (JSON): items, depth, fields, changes_only. */
  view?: string
  /** An event_seq, a batch id or an RFC 3339 time. */
  diffFrom?: string
  /** Also write overview.html, the interactive page. */
  html?: boolean
}

export interface OverviewImage {
  file: string
  svg: string
  layer: string | null
  /** [now], or [then, now] for a diff: both drawn at px_per_share. */
  ends: {end: 'now' | 'then'; event_seq: number; budget: number; used: number; over_budget: boolean}[]
  px_per_share: number
  width: number
  height: number
}

export interface OverviewJson {
  schema: 'cairn/board-overview@2'
  /** Every file in the directory comes from this one capture of the board. */
  capture: {store: string; event_seq: number; revision: number; now: string}
  scope: {view: OverviewView; diff_from: string | null; layers: (string | null)[]; items: string[]}
  omissions: Omission[]
  images: OverviewImage[]
  files: {state: string; diff: string | null; html: string | null}
  notes: string[]
}

const NOTES = [
  "Within one layer, a box's area is its final share / the layer budget (explicit overrides included; a layer over budget is drawn to its used total). An item's child layer is drawn inside its box by the same rule. Compare areas only within a layer.",
  'The hatched area is free budget (budget minus used); a grey "not shown" area is active share this view left out.',
  'A picture is a pointer, not the state: read state.json (and diff.json) for the items, fields and saved annotations before deciding anything.',
]

/** What `board state` answers (read.ts StateResult), declared here so this module does not import its caller. */
type CapturedState = StateView & {store: string}

/**
 * Writes state.json, diff.json, one SVG and one PNG per layer (rendered without a browser), overview.html with
 * --html, and overview.json last, all from one capture. Items changed on two branches are flagged. Reads only.
 */
export async function writeOverview(
  ctx: Context,
  board: OpenBoard,
  state: CapturedState,
  input: OverviewInput,
): Promise<OverviewJson> {
  const dir = path.resolve(ctx.cwd, input.dir)
  const view = input.view ? await readView(board, input.view) : DEFAULT_VIEW
  let from = null
  let diff: BoardDiff | null = null
  if (input.diffFrom !== undefined) {
    from = pastState(board, input.diffFrom).state
    diff = diffStates(from, board.state, board.now)
  }
  const scope = selectScope(board.state, board.settings, view, diff, input.view ?? '(default view)')
  const panels = buildPanels({state: board.state, from, diff}, board.settings, {
    view,
    now: board.now,
    scope,
    conflicts: new Set(board.state.conflicts.keys()),
  })
  // Old pictures and pages must not pass for this capture.
  const out = await board.stores.output(dir, /^((now|from|diff)-.*\.(png|svg)|overview\.html)$/)
  out.write('state.json', state)
  if (diff) out.write('diff.json', diff)
  const meta = {store: state.store, now: board.now}
  // Each picture goes to resvg's threads as soon as its SVG is drawn: the next one is drawn meanwhile.
  const svgs = panels.map(panel => {
    const {svg} = renderPanelSvg(panel, meta)
    out.write(`${panel.name}.svg`, svg)
    return {panel, svg, png: renderPng(svg, out.font(), out.file(`${panel.name}.png`))}
  })
  const images = await Promise.all(
    svgs.map(async s => {
      const rendered = await s.png
      out.write(`${s.panel.name}.png`, rendered.png)
      return image(s.panel, rendered)
    }),
  )
  if (input.html) {
    const title = `${state.store} board, event ${board.state.event_seq}${from ? ` (diff from event ${from.event_seq})` : ''}, at ${board.now}`
    const details = itemDetails({state: board.state, from}, board.settings, board.now)
    out.write(
      'overview.html',
      renderOverviewHtml(
        svgs.map(s => ({name: s.panel.name, svg: s.svg})),
        {title, notes: NOTES, details},
      ),
    )
  }
  const overview: OverviewJson = {
    schema: 'cairn/board-overview@2',
    capture: {store: state.store, event_seq: board.state.event_seq, revision: board.state.revision, now: board.now},
    scope: {view, diff_from: input.diffFrom ?? null, layers: scope.layers, items: [...scope.shown]},
    omissions: scope.omissions,
    images,
    files: {state: 'state.json', diff: diff ? 'diff.json' : null, html: input.html ? 'overview.html' : null},
    notes: NOTES,
  }
  out.write('overview.json', overview)
  return overview
}

function image(panel: Panel, png: {width: number; height: number}): OverviewImage {
  return {
    file: `${panel.name}.png`,
    svg: `${panel.name}.svg`,
    layer: panel.layer,
    ends: panel.halves.map(h => ({
      end: h.end,
      event_seq: h.event_seq,
      budget: h.frame.budget,
      used: h.frame.used,
      over_budget: h.frame.used > h.frame.budget,
    })),
    px_per_share: panel.px_per_share,
    width: png.width,
    height: png.height,
  }
}

async function readView(board: OpenBoard, file: string): Promise<OverviewView> {
  const {text, label} = await (await board.stores.input()).read(file)
  return parseView(parseStructured(text, label).data, label)
}
