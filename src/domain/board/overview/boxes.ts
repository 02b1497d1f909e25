import type {BoxLabel} from './labels.js'
import type {Box, Frame, Mark} from './model.js'
import {BADGE, badge, esc, geom, hatch, hatchColours, num, type Rect, text} from './draw.js'
import {GONE, INK, MARKS, MUTED, NOT_SHOWN, OVER, swatch} from './palette.js'
import {fitLabel, textWidth} from './text.js'
import {fitParts, wrapText} from './wrap.js'

/**
 * SVG for the boxes of one frame. Geometry rects carry data-box, data-item, data-share and data-layer, and their
 * x, y, width and height are exactly the model's: outlines, badges and labels are separate elements drawn on top.
 */
export function drawFrame(frame: Frame, end: string, dx: number, dy: number): string {
  const out: string[] = []
  for (const box of frame.boxes) drawBox(out, box, {end, dx, dy}, {top: 0, parentKind: null})
  return out.join('\n')
}

const PAD = 5

/** Where a frame is drawn: which end it shows and its offset in the picture. */
interface FramePlace {
  end: string
  dx: number
  dy: number
}

/** `top`: how far a parent's name tag reaches into this box; `parentKind`: the kind of the item this box is nested in. */
interface Nesting {
  top: number
  parentKind: string | null
}

function drawBox(out: string[], box: Box, place: FramePlace, {top, parentKind}: Nesting): void {
  const {end, dx, dy} = place
  const x = box.x + dx
  const y = box.y + dy
  const r = {x, y, w: box.w, h: box.h}
  const attrs = `data-box="${box.kind}" data-end="${end}" data-layer="${esc(box.layer ?? '')}" data-share="${box.share}"`
  const thin = Math.min(box.w, box.h) >= 3 ? ' stroke="#fff" stroke-width="1"' : ''
  if (box.kind === 'free') {
    out.push(`<rect ${attrs} ${geom(r)} fill="${hatchColours(parentKind)[0]}"${thin}/>`)
    out.push(hatch(r, hatchColours(parentKind)[1]))
    centred(
      out,
      r,
      parentKind === null ? [`free budget ${box.share}`, `free ${box.share}`] : [`free ${box.share}`],
      top,
    )
    return
  }
  if (box.kind === 'not_shown') {
    out.push(`<rect ${attrs} data-items="${esc(box.items.join(' '))}" ${geom(r)} fill="${NOT_SHOWN.fill}"${thin}/>`)
    const what = `${box.items.length} item${box.items.length === 1 ? '' : 's'} · share ${box.share}`
    label(out, r, () => ({title: 'not shown', summary: what, meta: [], extra: []}), {top, badges: 0, strike: false})
    return
  }
  const sw = swatch(box.item_kind!)
  const inner = box.inner
  const childAttrs = inner ? ` data-child-budget="${inner.budget}" data-child-used="${inner.used}"` : ''
  const marks = box.marks.length ? ` data-marks="${box.marks.join(' ')}"` : ''
  out.push(`<rect ${attrs} data-item="${esc(box.id!)}"${marks}${childAttrs} ${geom(r)} fill="${sw.fill}"${thin}/>`)
  const gone = box.marks.some(m => GONE.includes(m))
  const badges = badgeList(box, inner)
  if (inner) {
    const kids = inner.boxes.map(b => ({...b, x: b.x + dx, y: b.y + dy}))
    const chip = r.h >= 30 && r.w >= 40 ? chipRect(r, box.label!(), badges.length, kids) : null
    for (const [k, child] of inner.boxes.entries())
      drawBox(out, child, place, {top: chip ? below(kids[k], chip) : 0, parentKind: box.item_kind})
    outline(out, r, inner.used > inner.budget ? OVER : sw.edge, 1.5, inner.used > inner.budget ? '5 3' : null)
    if (gone) out.push(`<rect ${geom(r)} fill="#fff" fill-opacity="0.55"/>`)
    markOutline(out, r, box.marks)
    if (chip) {
      out.push(`<rect ${geom(chip)} rx="3" fill="${sw.edge}"/>`)
      out.push(
        text(chip.x + 5, chip.y + 12.5, {size: 12, fill: '#fff'}, chip.label).replace('<text ', '<text class="chip" '),
      )
      drawBadges(out, chip, badges, 0, 2)
    }
    return
  }
  if (gone) out.push(`<rect ${geom(r)} fill="#fff" fill-opacity="0.55"/>`)
  markOutline(out, r, box.marks)
  label(out, r, box.label!, {top, badges: fitBadges(r, badges), strike: gone})
  drawBadges(out, r, badges, top)
}

type Badge = Mark | 'over' | 'note'

function badgeList(box: Box, inner: Frame | null): Badge[] {
  const badges: Badge[] = box.marks.filter((m, i) => box.marks.indexOf(m) === i)
  if (inner && inner.used > inner.budget) badges.push('over')
  if (box.notes.length) badges.push('note')
  return badges
}

const fitBadges = (r: Rect, badges: Badge[]): number =>
  Math.min(badges.length, Math.max(0, Math.floor((r.w - 8) / (BADGE + 2))))

/** Badges in the top-right corner, `top` below the box's edge (under a parent's name tag), `inset` from its sides. */
function drawBadges(out: string[], r: Rect, badges: Badge[], top = 0, inset = 4): void {
  if (r.h - top < BADGE + 2 * inset) return
  const n = fitBadges(r, badges)
  for (let i = 0; i < n; i++) {
    const style = MARKS[badges[i]]
    const bx = r.x + r.w - inset - (n - i) * (BADGE + 2) + 2
    const by = r.y + top + inset
    out.push(`<g transform="translate(${num(bx)} ${num(by)})">${badge(style)}</g>`)
  }
}

/** The first mark's outline, inside the box (the strongest: conflict, added, changed, moved, gone). */
function markOutline(out: string[], r: Rect, marks: Mark[]): void {
  const order: Mark[] = ['conflict', 'added', 'changed', 'moved_in', 'withdrawn', 'merged', 'moved_out']
  const mark = order.find(m => marks.includes(m))
  if (!mark) return
  const width = Math.min(3, r.w / 5, r.h / 5)
  if (width >= 0.6) outline(out, r, MARKS[mark].colour, width, MARKS[mark].dash)
}

function outline(out: string[], r: Rect, colour: string, width: number, dash: string | null): void {
  const h = width / 2
  if (r.w <= width || r.h <= width) return
  out.push(
    `<rect x="${num(r.x + h)}" y="${num(r.y + h)}" width="${num(r.w - width)}" height="${num(r.h - width)}" fill="none" stroke="${colour}" stroke-width="${num(width)}"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
  )
}

/**
 * A parent's name tag, in its top-left corner over its first children (their labels start below it); in the corner
 * of its free child budget instead when the tag would hide most of a small child there.
 */
function chipRect(r: Rect, l: BoxLabel, badges: number, kids: (Rect & {kind: string})[]): Chip | null {
  const extra = 10 + badges * (BADGE + 2)
  const fits = (host: Rect, minHeight: number): Chip | null => {
    const label = chipLabel(l, host.w - 4 - extra)
    return host.h >= minHeight && names(l.title, label.startsWith(l.title) ? l.title : label)
      ? {x: host.x + 2, y: host.y + 2, w: textWidth(label, 12) + extra, h: 18, label}
      : null
  }
  const corner = fits(r, 30)
  const free = kids.find(k => k.kind === 'free')
  const hides = corner && kids.some(k => k.kind !== 'free' && below(k, corner) > k.h / 2)
  return (hides && free && fits(free, 44)) || corner
}

interface Chip extends Rect {
  label: string
}

/** How far the tag reaches down into a box it overlaps (0 when it does not). */
function below(box: Rect, chip: Rect): number {
  const overlaps =
    box.x < chip.x + chip.w && chip.x < box.x + box.w && box.y < chip.y + chip.h && chip.y <= box.y + box.h
  return overlaps ? Math.max(0, chip.y + chip.h - box.y) : 0
}

/** Ids often share a prefix ("release-1", "release-12"): a shortened one names its item only when long enough. */
const names = (id: string, shown: string): boolean => shown === id || [...shown].length > 12

const chipText = (l: BoxLabel): string => (l.summary ? `${l.title} · ${l.summary}` : l.title)

/** The id and as much of the summary as fits; the id alone when hardly any of the summary would. */
function chipLabel(l: BoxLabel, width: number): string {
  const full = fitLabel(chipText(l), width, 12)
  return full.length >= l.title.length + 6 ? full : fitLabel(l.title, width, 12)
}

/**
 * `top`: how far a parent's name tag reaches into the box; `badges`: how many badges share the title's line;
 * `strike`: whether the title is struck through (the item is gone).
 */
interface LabelSpace {
  top: number
  badges: number
  strike: boolean
}

/**
 * Title, summary, meta and extra lines, as many as fit, larger in large boxes. Nothing when the title cannot show
 * the id (or a long start of it): a few letters and an ellipsis name nothing.
 */
function label(out: string[], r: Rect, lazy: () => BoxLabel, {top, badges, strike}: LabelSpace): boolean {
  const k = Math.min(1.3, Math.max(1, Math.min(r.w / 260, r.h / 170)))
  const [big, small, tiny, lh] = [12.5 * k, 11.5 * k, 10.5 * k, 14 * k]
  const width = r.w - 2 * PAD
  const height = r.h - top - PAD
  if (width < 16 || height < big + 2) return false
  const l = lazy()
  const head = fitLabel(l.title, width - badges * (BADGE + 2), big)
  if (!names(l.title, head)) return false
  let y = r.y + top + PAD + big * 0.92
  out.push(text(r.x + PAD, y, {size: big, fill: INK, weight: 600}, head))
  if (strike)
    out.push(
      `<line x1="${num(r.x + PAD)}" x2="${num(r.x + PAD + textWidth(head, big))}" y1="${num(y - big / 3)}" y2="${num(y - big / 3)}" stroke="${INK}" stroke-width="1"/>`,
    )
  let room = Math.floor((height - big * 1.25) / lh)
  const meta = fitParts(l.meta, width, tiny)
  const metaRoom = meta && room >= 2 ? 1 : 0
  const lines = l.summary && room - metaRoom > 0 ? wrapText(l.summary, width, small, room - metaRoom) : []
  for (const line of lines) out.push(text(r.x + PAD, (y += lh), {size: small, fill: INK}, line))
  room -= lines.length
  if (meta && room > 0) (out.push(text(r.x + PAD, (y += lh), {size: tiny, fill: MUTED}, meta)), room--)
  for (const e of l.extra.slice(0, Math.max(0, room)))
    out.push(text(r.x + PAD, (y += lh), {size: tiny, fill: MUTED}, fitLabel(e, width, tiny)))
  return true
}

/** The first of the texts that fits, centred in the part of the box below `top`. */
function centred(out: string[], r: Rect, texts: string[], top: number): void {
  const size = r.w > 200 && r.h > 80 ? 13 : 11
  const s = texts.find(t => textWidth(t, size) <= r.w - 10)
  if (!s || r.h - top < size + 8) return
  out.push(
    `<text x="${num(r.x + r.w / 2)}" y="${num(r.y + top + (r.h - top) / 2 + size * 0.35)}" font-size="${size}" fill="${MUTED}" text-anchor="middle">${esc(s)}</text>`,
  )
}
