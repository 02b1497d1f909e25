import {formatDuration} from './time.js'
import type {ReplayProblem} from './types.js'
import type {ItemView, StateView} from './view.js'

export interface Brief {
  text: string
  shown: string[]
  folded: string[]
}

/**
 * The text summary: active items by rank, layer by layer. Items below the fold weight are
 * folded into one line per layer. Every shown summary is printed whole: a brief is never cut
 * to fit a line count, because a cut summary can drop the one fact that changes the next action.
 */
export function renderBrief(view: StateView, foldBelow: number): Brief {
  const shown: string[] = []
  const folded: string[] = []
  const checked = view.last_checked_at ? `last checked ${view.last_checked_at}` : 'never checked'
  const lines = [`Board at ${view.now}: event ${view.event_seq}, revision ${view.revision}, ${checked}.`]
  if (!view.items.length) lines.push('No active items.')
  const byParent = new Map<string | null, ItemView[]>()
  for (const item of view.items) byParent.set(item.parent, [...(byParent.get(item.parent) ?? []), item])
  const layer = (parent: string | null, prefix: string, indent: string) => {
    const info = view.layers.find(l => l.parent === parent)!
    const items = byParent.get(parent) ?? []
    const over = info.over_budget
      ? ` OVER BUDGET by ${round(info.used - info.budget)}: branches merged batches that each fitted; lower weights or shares, or withdraw items.`
      : ''
    if (parent === null)
      lines.push(
        `Root layer: ${info.used} of ${info.budget} used by ${items.length} active item${items.length === 1 ? '' : 's'}.${over}`,
      )
    else
      lines.push(
        `${indent}Under ${parent}: ${info.used} of ${info.budget} used by ${items.length} item${items.length === 1 ? '' : 's'}.${over}`,
      )
    // A flagged item is never folded: someone has to choose between its versions.
    const low = items.filter(i => i.weight < foldBelow && !i.conflict)
    for (const item of items.filter(i => i.weight >= foldBelow || i.conflict)) {
      const label = `${prefix}${item.rank}.`
      shown.push(item.id)
      lines.push(
        `${indent}${label} ${item.id} · ${item.kind} · weight ${item.weight} · share ${item.share}${timing(item)}`,
      )
      lines.push(`${indent}${' '.repeat(label.length + 1)}${item.summary}`)
      if (item.conflict) lines.push(`${indent}${' '.repeat(label.length + 1)}${conflictLine(view, item.id)}`)
      if (byParent.has(item.id)) layer(item.id, `${label}`, `${indent}${' '.repeat(label.length + 1)}`)
    }
    if (low.length) {
      folded.push(...low.map(i => i.id))
      const share = Math.round(low.reduce((n, i) => n + i.share, 0) * 1e6) / 1e6
      const list = low.map(
        i =>
          `${i.id} (${i.kind}, weight ${i.weight}, updated ${ago(i.projections.since_update)}${byParent.has(i.id) ? `, ${byParent.get(i.id)!.length} children` : ''})`,
      )
      lines.push(
        `${indent}Folded, weight below ${foldBelow}: ${low.length} item${low.length === 1 ? '' : 's'}, share ${share}: ${list.join('; ')}.`,
      )
    }
  }
  if (view.items.length) layer(null, '', '')
  if (view.annotations.length) {
    lines.push(`Saved annotations (no acknowledgement yet): ${view.annotations.length}.`)
    for (const a of view.annotations) {
      const where =
        a.item_status === 'active' ? a.item : `${a.item} (${a.item_status}${a.successor ? `, now ${a.successor}` : ''})`
      lines.push(
        `  ${a.id} on ${where}, ${ago(Date.parse(view.now) / 1000 - Date.parse(a.created_at) / 1000)}: ${a.text}`,
      )
    }
  }
  const flaggedInactive = view.conflicts.filter(c => !view.items.some(i => i.id === c.item))
  for (const c of flaggedInactive) lines.push(`${c.item} (not active): ${conflictLine(view, c.item)}`)
  for (const p of view.problems) {
    lines.push(describeProblem(p))
  }
  return {text: lines.join('\n'), shown, folded}
}

/** One line for what replay could not apply as committed; `board state` and `brief` say it the same way. */
export function describeProblem(p: ReplayProblem): string {
  return p.code === 'batch_id_conflict'
    ? `batch_id_conflict: ${p.batch_id} was committed on two branches with different content (${p.records.join(', ')}; differing: ${p.differing_fields.join(', ')}). Both were applied, in the order shown by "cairn board history --batch ${p.batch_id}".`
    : p.error === 'too_many_declarations'
      ? `not applied: ${p.batch_id} (${p.error}): ${p.message}`
      : `not applied after the merge: ${p.batch_id} ${p.path} (${p.error}): ${p.message}`
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6

function conflictLine(view: StateView, id: string): string {
  const c = view.conflicts.find(x => x.item === id)!
  const versions = c.versions.map(
    v => `${v.batch_id} by ${v.actor} (weight ${v.item.weight}, ${v.item.status}: ${v.item.summary})`,
  )
  return `CONFLICT: changed on two branches; versions: ${versions.join(' | ')}. Declare it in a batch to resolve.`
}

const ago = (seconds: number): string =>
  seconds >= 0 ? `${formatDuration(seconds)} ago` : `in ${formatDuration(seconds)}`

function timing(item: ItemView): string {
  const p = item.projections
  const parts: string[] = []
  if (p.until_due !== null)
    parts.push(p.until_due >= 0 ? `due in ${formatDuration(p.until_due)}` : `overdue by ${formatDuration(p.until_due)}`)
  if (p.until_stale !== null)
    parts.push(
      p.until_stale >= 0 ? `stale in ${formatDuration(p.until_stale)}` : `stale for ${formatDuration(p.until_stale)}`,
    )
  parts.push(`updated ${ago(p.since_update)}`)
  return ` · ${parts.join(' · ')}`
}
