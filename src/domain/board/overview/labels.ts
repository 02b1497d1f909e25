import {effectiveShare, type BoardSettings} from '../scale.js'
import {formatDuration, secondsBetween} from '../time.js'
import type {Item} from '../types.js'
import type {OverviewField} from './view.js'

/** Text for a tile (what fits is shown) and for the details list beside it (always whole). */
export function fieldLines(item: Item, fields: OverviewField[], settings: BoardSettings, now: string): string[] {
  const lines: string[] = []
  for (const f of fields) {
    const line = fieldText(item, f, settings, now)
    if (line !== null) lines.push(line)
  }
  return lines
}

function fieldText(item: Item, field: OverviewField, settings: BoardSettings, now: string): string | null {
  switch (field) {
    case 'id': return item.id
    case 'kind': return item.kind
    case 'weight': return `weight ${item.weight}`
    case 'share': return `share ${effectiveShare(settings, item)}${item.share === null ? '' : ' (explicit)'}`
    case 'summary': return item.summary
    case 'reason': return item.reason ? `reason: ${item.reason}` : null
    case 'sources': return item.sources.length ? `sources: ${item.sources.join(', ')}` : null
    case 'updated_at': return `updated ${formatDuration(secondsBetween(item.updated_at, now))} ago`
    case 'due_at': return item.due_at ? relative('due', secondsBetween(now, item.due_at)) : null
    case 'stale_at': return item.stale_at ? relative('stale', secondsBetween(now, item.stale_at)) : null
  }
}

const relative = (what: string, seconds: number): string => (seconds >= 0 ? `${what} in ${formatDuration(seconds)}` : `${what} ${formatDuration(seconds)} ago`)
