import {drawFrame} from './boxes.js'
import {badge, esc, geom, hatch, hatchColours, num, text} from './draw.js'
import type {Box, Frame, Panel} from './model.js'
import {INK, MARKS, MUTED, NOT_SHOWN, OVER, swatch} from './palette.js'
import {FONT_FAMILY, fitLabel, textWidth} from './text.js'

export interface SvgMeta {
  store: string
  now: string
}

const M = 24
const GAP = 48
const MIN_WIDTH = 720

/** One panel as a standalone SVG: a title line, the layer's rectangle (then and now side by side for a diff), a legend. */
export function renderPanelSvg(panel: Panel, meta: SvgMeta): {svg: string; width: number; height: number} {
  const content = panel.halves.reduce((n, h) => n + h.frame.w, 0) + GAP * (panel.halves.length - 1)
  const width = Math.ceil(Math.max(content, MIN_WIDTH) + 2 * M)
  const inner = width - 2 * M
  const out: string[] = []
  const now = panel.halves[panel.halves.length - 1]
  const over = (f: Frame) => f.used > f.budget
  const title = panel.parent ? `Under ${panel.parent.id}: ${panel.parent.summary}` : 'Root layer'
  out.push(text(M, M + 16, {size: 18, fill: INK, weight: 600}, fitLabel(title, inner, 18)))
  const then = panel.halves.length > 1 ? panel.halves[0] : null
  const sub = `${meta.store} board · event ${now.event_seq}${then ? ` (diff from event ${then.event_seq})` : ''} · ${when(meta.now)} · area = share ÷ budget, within this layer only`
  out.push(text(M, M + 38, {size: 12, fill: MUTED}, fitLabel(sub, inner, 12)))
  let top = M + 52
  if (over(now.frame)) {
    out.push(
      text(
        M,
        M + 58,
        {size: 13, fill: OVER},
        `over budget: used ${now.frame.used} of ${now.frame.budget}; boxes are drawn to the used total`,
      ),
    )
    top += 18
  }
  const rectTop = top + 22
  let x = M
  const bottom = Math.max(...panel.halves.map(h => h.frame.h)) + rectTop
  for (const half of panel.halves) {
    const f = half.frame
    const name = then ? `${half.end} · event ${half.event_seq} · ` : ''
    const heading = `${name}used ${f.used} of ${f.budget} · ${over(f) ? `over by ${round(f.used - f.budget)}` : `free ${round(f.budget - f.used)}`}`
    out.push(text(x, top + 14, {size: 13, fill: over(f) ? OVER : INK}, fitLabel(heading, Math.max(f.w, 200), 13)))
    out.push(
      `<rect data-frame="${esc(panel.name)}" data-end="${half.end}" data-layer="${esc(panel.layer ?? '')}" data-budget="${f.budget}" data-used="${f.used}" ${geom({x, y: rectTop, w: f.w, h: f.h})} fill="none"/>`,
    )
    out.push(drawFrame(f, half.end, x, rectTop))
    out.push(
      `<rect ${geom({x: x - 0.5, y: rectTop - 0.5, w: f.w + 1, h: f.h + 1})} fill="none" stroke="${over(f) ? OVER : '#6e7781'}" stroke-width="1"${over(f) ? ' stroke-dasharray="5 3"' : ''}/>`,
    )
    x += f.w + GAP
  }
  const legend = legendOf(panel)
  const {svg: legendSvg, height: legendHeight} = drawLegend(legend, M, bottom + 20, inner)
  out.push(legendSvg)
  const height = Math.ceil(bottom + 20 + legendHeight + M)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${esc(FONT_FAMILY)}" data-panel="${esc(panel.name)}">
<rect width="${width}" height="${height}" fill="#fff"/>
${out.join('\n')}
</svg>
`
  return {svg, width, height}
}

interface Legend {
  kinds: string[]
  free: boolean
  notShown: boolean
  badges: (keyof typeof MARKS)[]
}

function legendOf(panel: Panel): Legend {
  const kinds = new Set<string>()
  const badges = new Set<keyof typeof MARKS>()
  let free = false
  let notShown = false
  const visit = (boxes: Box[]) => {
    for (const b of boxes) {
      if (b.kind === 'free') free = true
      if (b.kind === 'not_shown') notShown = true
      if (b.kind !== 'item') continue
      kinds.add(b.item_kind!)
      for (const m of b.marks) badges.add(m === 'merged' ? 'withdrawn' : m)
      if (b.notes.length) badges.add('note')
      if (b.inner) {
        if (b.inner.used > b.inner.budget) badges.add('over')
        visit(b.inner.boxes)
      }
    }
  }
  for (const h of panel.halves) {
    visit(h.frame.boxes)
    if (h.frame.used > h.frame.budget) badges.add('over')
  }
  const order = Object.keys(MARKS) as (keyof typeof MARKS)[]
  return {kinds: [...kinds].sort(), free, notShown, badges: order.filter(b => badges.has(b))}
}

function drawLegend(legend: Legend, x0: number, y0: number, width: number): {svg: string; height: number} {
  const entries: {swatch: string; label: string}[] = []
  const square = (fill: string, stroke: string) =>
    `<rect width="14" height="14" rx="2" fill="${fill}" stroke="${stroke}" stroke-width="1"/>`
  for (const k of legend.kinds) entries.push({swatch: square(swatch(k).fill, swatch(k).edge), label: k})
  if (legend.free)
    entries.push({
      swatch: `${square(hatchColours(null)[0], '#8c959f')}${hatch({x: 0.5, y: 0.5, w: 13, h: 13}, hatchColours(null)[1])}`,
      label: 'free budget',
    })
  if (legend.notShown)
    entries.push({swatch: square(NOT_SHOWN.fill, '#8c959f'), label: 'not shown (left out by the view)'})
  for (const b of legend.badges) {
    const s = MARKS[b]
    entries.push({label: s.legend, swatch: badge(s)})
  }
  const out: string[] = []
  let x = x0
  let y = y0
  for (const e of entries) {
    const w = 14 + 6 + textWidth(e.label, 12) + 20
    if (x > x0 && x + w > x0 + width) ((x = x0), (y += 22))
    out.push(
      `<g transform="translate(${num(x)} ${num(y)})">${e.swatch}${text(20, 11.5, {size: 12, fill: INK}, e.label)}</g>`,
    )
    x += w
  }
  return {svg: out.join('\n'), height: entries.length ? y - y0 + 16 : 0}
}

const round = (n: number): number => Math.round(n * 1e6) / 1e6

/** 2026-10-09T15:00:00Z → 2026-10-09 15:00 UTC. */
const when = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d(:00)?Z$/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso
