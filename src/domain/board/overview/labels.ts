import {effectiveShare, type BoardSettings} from '../scale.js'
import {formatDuration, secondsBetween} from '../time.js'
import type {Item} from '../types.js'
import {OVERVIEW_FIELDS, type OverviewField} from './view.js'

/** What a box can say about its item, in the order it gives up lines when space runs out (the title last). */
export interface BoxLabel {
  title: string
  /** The summary, wrapped to fit. */
  summary: string | null
  /** Short fields for one line, most telling first: due, stale, weight, share, kind, updated. */
  meta: string[]
  /** Longer fields, one line each: reason, sources. */
  extra: string[]
}

const META: OverviewField[] = ['due_at', 'stale_at', 'weight', 'share', 'kind', 'updated_at']

export function boxLabel(item: Item, fields: OverviewField[], settings: BoardSettings, now: string): BoxLabel {
  const text = (f: OverviewField) => (fields.includes(f) ? fieldText(item, f, settings, now) : null)
  const meta = META.map(text).filter((t): t is string => t !== null)
  return {
    title: item.id,
    summary: text('summary'),
    meta,
    extra: (['reason', 'sources'] as const).map(text).filter((t): t is string => t !== null),
  }
}

/** Every field of an item, one line each, for the HTML page's panel (what a box could not fit). */
export function fieldLines(item: Item, settings: BoardSettings, now: string): string[] {
  return OVERVIEW_FIELDS.map(f => fieldText(item, f, settings, now)).filter((t): t is string => t !== null)
}

function fieldText(item: Item, field: OverviewField, settings: BoardSettings, now: string): string | null {
  switch (field) {
    case 'id':
      return item.id
    case 'kind':
      return item.kind
    case 'weight':
      return `weight ${item.weight}`
    case 'share':
      return `share ${effectiveShare(settings, item)}${item.share === null ? '' : ' (explicit)'}`
    case 'summary':
      return item.summary
    case 'reason':
      return item.reason ? `reason: ${item.reason}` : null
    case 'sources':
      return item.sources.length ? `sources: ${item.sources.join(', ')}` : null
    case 'updated_at':
      return `updated ${formatDuration(secondsBetween(item.updated_at, now))} ago`
    case 'due_at':
      return item.due_at ? relative('due', secondsBetween(now, item.due_at)) : null
    case 'stale_at':
      return item.stale_at ? relative('stale', secondsBetween(now, item.stale_at)) : null
  }
}

const relative = (what: string, seconds: number): string =>
  seconds >= 0 ? `${what} in ${formatDuration(seconds)}` : `${what} ${formatDuration(seconds)} ago`
