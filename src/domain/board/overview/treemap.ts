/** Squarified treemap (Bruls, Huizing, van Wijk): areas exact, aspect ratios kept near 1 for legibility. */

export interface Rect {
  x: number
  y: number
  w: number
  h: number
}

export interface Placed<K> extends Rect {
  key: K
  value: number
}

/** Places each entry with area = value / sum(values) × the rect's area; zero values get no rect. */
export function squarify<K>(entries: {key: K; value: number}[], rect: Rect): Placed<K>[] {
  const live = entries.filter(e => e.value > 0)
  const total = live.reduce((n, e) => n + e.value, 0)
  if (!total || rect.w <= 0 || rect.h <= 0) return []
  const scale = (rect.w * rect.h) / total
  const areas = live.map(e => ({key: e.key, value: e.value, area: e.value * scale}))
  const out: Placed<K>[] = []
  let free = {...rect}
  let row: Sized<K>[] = []
  for (let i = 0; i < areas.length;) {
    const side = Math.min(free.w, free.h)
    const candidate = [...row, areas[i]]
    if (!row.length || worst(candidate, side) <= worst(row, side)) {
      row = candidate
      i++
    } else {
      free = layoutRow(row, free, out)
      row = []
    }
  }
  if (row.length) layoutRow(row, free, out, true)
  return out
}

function worst(row: {area: number}[], side: number): number {
  const sum = row.reduce((n, r) => n + r.area, 0)
  const max = Math.max(...row.map(r => r.area))
  const min = Math.min(...row.map(r => r.area))
  return Math.max((side * side * max) / (sum * sum), (sum * sum) / (side * side * min))
}

/** Lays a row along the shorter side and returns the rect left over. The last row fills the rest exactly. */
type Sized<K> = {key: K; value: number; area: number}

function layoutRow<K>(row: Sized<K>[], free: Rect, out: Placed<K>[], last = false): Rect {
  const sum = row.reduce((n, r) => n + r.area, 0)
  if (free.w >= free.h) {
    const width = last ? free.w : sum / free.h
    let y = free.y
    for (const r of row) {
      const h = (r.area / sum) * free.h
      out.push({key: r.key, value: r.value, x: free.x, y, w: width, h})
      y += h
    }
    return {x: free.x + width, y: free.y, w: free.w - width, h: free.h}
  }
  const height = last ? free.h : sum / free.w
  let x = free.x
  for (const r of row) {
    const w = (r.area / sum) * free.w
    out.push({key: r.key, value: r.value, x, y: free.y, w, h: height})
    x += w
  }
  return {x: free.x, y: free.y + height, w: free.w, h: free.h - height}
}

/** Cuts a rect across its longer side: the first part holds `fraction` of the area (left or top), the second the rest. */
export function split(rect: Rect, fraction: number): [Rect, Rect] {
  const f = Math.min(1, Math.max(0, fraction))
  if (rect.w >= rect.h) {
    const w = rect.w * f
    return [
      {...rect, w},
      {x: rect.x + w, y: rect.y, w: rect.w - w, h: rect.h},
    ]
  }
  const h = rect.h * f
  return [
    {...rect, h},
    {x: rect.x, y: rect.y + h, w: rect.w, h: rect.h - h},
  ]
}
