import type {BoardSettings} from '../scale.js'
import type {BoardState} from '../types.js'
import {esc} from './draw.js'
import {fieldLines} from './labels.js'

/**
 * The interactive page (--html): the same SVGs the PNGs come from, inline, and a panel giving every field of the
 * box under the pointer (pinned by a click). It needs no network and no other file.
 */
export function renderOverviewHtml(
  svgs: {name: string; svg: string}[],
  meta: {title: string; notes: string[]; details: Record<string, string[]>},
): string {
  const json = JSON.stringify(meta.details).replace(/</g, '\\u003c')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(meta.title)}</title>
<style>${CSS}</style></head>
<body>
<main>
<header><h1>${esc(meta.title)}</h1>${meta.notes.map(n => `<p class="note">${esc(n)}</p>`).join('')}</header>
${svgs.map(s => `<figure data-panel="${esc(s.name)}">${s.svg.replace(/^<\?xml[^>]*>\s*/, '')}<figcaption>${esc(s.name)}.png</figcaption></figure>`).join('\n')}
</main>
<aside id="panel"><p class="hint">Point at a box to see its fields; click to keep them here.</p></aside>
<div id="tip" hidden></div>
<script type="application/json" id="details">${json}</script>
<script>${SCRIPT}</script>
</body></html>
`
}

/** Every field of every active item at each end, keyed "now/<id>" and "then/<id>", with its saved annotations. */
export function itemDetails(
  ends: {state: BoardState; from: BoardState | null},
  settings: BoardSettings,
  now: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  const add = (end: string, state: BoardState) => {
    const notes = new Map<string, string[]>()
    for (const a of state.annotations.values())
      if (a.status === 'saved')
        notes.set(a.item, [...(notes.get(a.item) ?? []), `annotation ${a.id} (saved): ${a.text}`])
    for (const item of state.items.values()) {
      out[`${end}/${item.id}`] = [
        ...fieldLines(item, settings, now),
        `status ${item.status}${item.merged_into ? `, merged into ${item.merged_into}` : ''}`,
        `layer: ${item.parent ?? 'root'}`,
        ...(notes.get(item.id) ?? []),
      ]
    }
  }
  add('now', ends.state)
  if (ends.from) add('then', ends.from)
  return out
}

const CSS = `
body{margin:0;font:14px/1.45 system-ui,"Noto Sans SC","Noto Sans",sans-serif;color:#1f2328;background:#f6f8fa}
main{margin-right:340px;padding:20px}
h1{font-size:18px;margin:0 0 6px}.note{margin:0 0 2px;color:#57606a;font-size:13px}
figure{margin:20px 0;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px;max-width:100%;box-sizing:border-box;overflow-x:auto;width:max-content}
figure svg{display:block}
figure svg text{font-family:"Noto Sans SC","Noto Sans",system-ui,sans-serif}
figcaption{color:#57606a;font-size:12px;padding:4px 0 0}
svg *{pointer-events:none}svg [data-box]{pointer-events:all;cursor:pointer}
svg [data-box]:hover{filter:brightness(0.93)}
aside{position:fixed;top:0;right:0;bottom:0;width:320px;overflow:auto;background:#fff;border-left:1px solid #d0d7de;padding:16px;box-sizing:border-box}
aside h2{font-size:16px;margin:0 0 8px;word-break:break-all}aside p{margin:0 0 6px}.hint{color:#57606a}
aside .marks span{display:inline-block;background:#24292f;color:#fff;border-radius:3px;padding:0 5px;margin:0 4px 6px 0;font-size:12px}
#tip{position:fixed;z-index:2;max-width:360px;background:#24292f;color:#fff;padding:6px 8px;border-radius:4px;font-size:12px;pointer-events:none}
#tip h2{font-size:13px;margin:0 0 2px}#tip p{margin:0}#tip .marks span{background:#fff;color:#24292f;border-radius:3px;padding:0 4px;margin-right:4px}
`

/** Reads the hovered box's data attributes and the details table; no framework, no network. */
const SCRIPT = `
const details = JSON.parse(document.getElementById('details').textContent);
const tip = document.getElementById('tip'), panel = document.getElementById('panel');
let pinned = null;
function describe(box) {
  const kind = box.dataset.box, end = box.dataset.end, layer = box.dataset.layer || 'root';
  if (kind === 'item') {
    const lines = details[end + '/' + box.dataset.item] || [box.dataset.item];
    return {title: box.dataset.item, marks: (box.dataset.marks || '').split(' ').filter(Boolean), lines: [end === 'then' ? 'as at the diff start' : 'now'].concat(lines.slice(1))};
  }
  if (kind === 'free') return {title: 'free budget', marks: [], lines: ['share ' + box.dataset.share + ' left in layer ' + layer + ' (' + end + ')']};
  const items = (box.dataset.items || '').split(' ').filter(Boolean);
  return {title: 'not shown', marks: [], lines: ['share ' + box.dataset.share + ' in layer ' + layer + ', left out by the view: ' + items.join(', ')]};
}
function show(target, d) {
  target.replaceChildren();
  const h = document.createElement('h2'); h.textContent = d.title; target.append(h);
  if (d.marks.length) { const m = document.createElement('p'); m.className = 'marks'; for (const k of d.marks) { const s = document.createElement('span'); s.textContent = k.replace('_', ' '); m.append(s); } target.append(m); }
  for (const line of d.lines) { const p = document.createElement('p'); p.textContent = line; target.append(p); }
}
document.addEventListener('mousemove', e => {
  const box = e.target.closest && e.target.closest('[data-box]');
  if (!box) { tip.hidden = true; return; }
  const d = describe(box);
  show(tip, {title: d.title, marks: d.marks, lines: d.lines.slice(0, 4)});
  tip.hidden = false;
  tip.style.left = Math.min(e.clientX + 14, innerWidth - 380) + 'px';
  tip.style.top = (e.clientY + 14) + 'px';
  if (!pinned) show(panel, d);
});
document.addEventListener('click', e => {
  const box = e.target.closest && e.target.closest('[data-box]');
  pinned = box || null;
  if (box) show(panel, describe(box));
});
`
