import type {OutsideTile, Panel, Tile} from './model.js'

/**
 * The overview page: one section per panel, each screenshotted to its own PNG. Geometry lives
 * in absolute pixel boxes and marks use outlines drawn inside the box, so what the DOM
 * measures is exactly the area the model computed (share / budget of the rectangle).
 */
export function renderOverviewHtml(panels: Panel[], meta: {title: string; notes: string[]}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(meta.title)}</title>
<style>${CSS}</style></head>
<body>
<header><h1>${esc(meta.title)}</h1>${meta.notes.map(n => `<p class="note">${esc(n)}</p>`).join('')}</header>
${panels.map(section).join('\n')}
</body></html>
`
}

const CSS = `
body{margin:0;padding:16px;font:12px/1.35 "DejaVu Sans","Liberation Sans",Arial,sans-serif;color:#1f2328;background:#fff}
h1{font-size:16px;margin:0 0 4px}h2{font-size:14px;margin:0 0 6px}.note{margin:0 0 2px;color:#57606a}
section.panel{padding:12px;margin:16px 0;border-top:1px solid #d0d7de;display:inline-block;min-width:600px}
.canvas{position:relative}
.budget{position:absolute;left:0;top:0;outline:2px solid #24292f;outline-offset:0}
.tile{position:absolute;overflow:hidden;box-sizing:border-box;padding:3px 5px;box-shadow:inset 0 0 0 1px #fff}
.tile .l{overflow-wrap:anywhere}.tile .l0{font-weight:bold;white-space:nowrap;overflow:hidden}
.tile.not_shown .l0,.tile.blank .l0{white-space:normal}
.tile.not_shown{background:repeating-linear-gradient(45deg,#e1e4e8 0 6px,#eef0f2 6px 12px);color:#57606a}
.tile.blank{background:#fff;color:#8c959f}
.mark-added{outline:4px solid #1a7f37;outline-offset:-4px}
.mark-changed{outline:4px dashed #bf8700;outline-offset:-4px}
.mark-moved_in{outline:4px dotted #0969da;outline-offset:-4px}
.outside{position:absolute;overflow:hidden;box-sizing:border-box;padding:3px 5px;background:#f6f8fa;color:#57606a;outline:2px dashed #8c959f;outline-offset:-2px}
.outside .l0{text-decoration:line-through}
.badge{display:inline-block;background:#24292f;color:#fff;border-radius:3px;padding:0 3px;margin-right:3px;font-size:10px}
dl{margin:10px 0 0;max-width:960px}dt{font-weight:bold;margin-top:4px}dd{margin:0 0 0 12px;color:#424a53}
`

function section(p: Panel): string {
  const outsideWidth = Math.max(0, ...p.outside.map(o => o.x + o.w))
  const outsideHeight = Math.max(0, ...p.outside.map(o => o.y + o.h))
  const title = `${p.layer === null ? 'Root layer' : `Layer under ${p.layer}`} · ${p.end === 'current' ? 'current' : 'diff start'} (event ${p.event_seq}) · used ${p.used} of budget ${p.budget}`
  return `<section class="panel" data-panel="${esc(p.name)}" data-layer="${esc(p.layer ?? '')}" data-end="${p.end}" data-event-seq="${p.event_seq}">
<h2>${esc(title)}</h2>
<div class="canvas" style="width:${px(Math.max(p.width, outsideWidth))};height:${px(Math.max(p.height, outsideHeight))}">
<div class="budget" data-budget="${p.budget}" data-used="${p.used}" style="width:${px(p.width)};height:${px(p.height)}"></div>
${p.tiles.map(tile).join('\n')}
${p.outside.map(outside).join('\n')}
</div>
${p.outside.length ? `<p class="note">Beside the rectangle, at the same scale: items that left this layer since the diff start; they take no current budget.</p>` : ''}
<dl>${p.details.map(d => `<dt>${esc(d.id)}</dt><dd>${d.lines.slice(1).map(esc).join('<br>')}</dd>`).join('')}</dl>
</section>`
}

function tile(t: Tile): string {
  const classes = ['tile', t.kind, ...t.marks.map(m => `mark-${m}`)].join(' ')
  const style = `${box(t)}${t.kind === 'item' ? `;background:${colour(t.item_kind ?? '')}` : ''}`
  const badges = [...t.marks, ...(t.notes.length ? [`notes ${t.notes.join(',')}`] : []), ...(t.hidden_children ? [`${t.hidden_children} ${t.hidden_children === 1 ? 'child' : 'children'}`] : [])]
  const lines = t.lines.map((l, i) => `<div class="l l${i}">${i === 0 && badges.length ? badges.map(b => `<span class="badge">${esc(b)}</span>`).join('') : ''}${esc(l)}</div>`)
  const attrs = `data-tile="${t.kind}" data-share="${t.share}"${t.id ? ` data-item="${esc(t.id)}"` : ''}${t.kind === 'not_shown' ? ` data-items="${esc(t.items.join(' '))}"` : ''}`
  return `<div class="${classes}" ${attrs} style="${style}" title="${esc(t.lines.join(' · '))}">${lines.join('')}</div>`
}

function outside(o: OutsideTile): string {
  const where = o.status === 'merged' ? `merged into ${o.successor}` : o.status === 'moved' ? `moved to ${o.moved_to ?? 'root'}` : o.status
  return `<div class="outside" data-outside="${o.status}" data-item="${esc(o.id)}" data-share="${o.share}" style="${box(o)}"><div class="l l0">${esc(o.id)}</div><div class="l">${esc(where)}</div><div class="l">was share ${o.share}</div></div>`
}

const box = (r: {x: number; y: number; w: number; h: number}): string => `left:${px(r.x)};top:${px(r.y)};width:${px(r.w)};height:${px(r.h)}`
const px = (n: number): string => `${Math.round(n * 1000) / 1000}px`

/** A stable pastel per kind: colour says kind, never importance (area does that). */
function colour(kind: string): string {
  let h = 0
  for (const c of kind) h = (h * 31 + c.charCodeAt(0)) % 360
  return `hsl(${h},55%,80%)`
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]!)
}
