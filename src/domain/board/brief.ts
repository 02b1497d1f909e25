import {BOARD_TEXT} from '../messages/board.js'
import {speak, type StoreLanguage} from '../messages/language.js'
import {formatDuration} from './time.js'
import type {ReplayProblem} from './types.js'
import type {ItemView, StateView} from './view.js'

export interface Brief {
  text: string
  shown: string[]
  folded: string[]
}

type BoardText = (typeof BOARD_TEXT)['en']

/**
 * The text summary: active items by rank, layer by layer. Items below the fold weight are
 * folded into one line per layer. Every shown summary is printed whole: a brief is never cut
 * to fit a line count, because a cut summary can drop the one fact that changes the next action.
 * It is said in the store's language (domain/messages/board.ts).
 */
export function renderBrief(view: StateView, foldBelow: number, language?: StoreLanguage): Brief {
  const t = speak(BOARD_TEXT, language)
  const shown: string[] = []
  const folded: string[] = []
  const lines = [t.head(view.now, view.event_seq, view.revision, view.last_checked_at)]
  if (!view.items.length) lines.push(t.empty)
  const byParent = new Map<string | null, ItemView[]>()
  for (const item of view.items) byParent.set(item.parent, [...(byParent.get(item.parent) ?? []), item])
  const layer = (parent: string | null, prefix: string, indent: string) => {
    const info = view.layers.find(l => l.parent === parent)!
    const items = byParent.get(parent) ?? []
    const over = info.over_budget ? t.overBudget(round(info.used - info.budget)) : ''
    if (parent === null) lines.push(t.root(info.used, info.budget, items.length, over))
    else lines.push(`${indent}${t.under(parent, info.used, info.budget, items.length, over)}`)
    // A flagged item is never folded: someone has to choose between its versions.
    const low = items.filter(i => i.weight < foldBelow && !i.conflict)
    for (const item of items.filter(i => i.weight >= foldBelow || i.conflict)) {
      const label = `${prefix}${item.rank}.`
      shown.push(item.id)
      lines.push(`${indent}${label} ${t.item(item.id, item.kind, item.weight, item.share)}${timing(item, t)}`)
      lines.push(`${indent}${' '.repeat(label.length + 1)}${item.summary}`)
      if (item.conflict) lines.push(`${indent}${' '.repeat(label.length + 1)}${conflictLine(view, item.id, t)}`)
      if (byParent.has(item.id)) layer(item.id, `${label}`, `${indent}${' '.repeat(label.length + 1)}`)
    }
    if (low.length) {
      folded.push(...low.map(i => i.id))
      const share = Math.round(low.reduce((n, i) => n + i.share, 0) * 1e6) / 1e6
      const list = low.map(i =>
        t.foldedItem(i.id, i.kind, i.weight, ago(i.projections.since_update, t), byParent.get(i.id)?.length ?? 0),
      )
      lines.push(`${indent}${t.folded(foldBelow, low.length, share, list.join(t.listSep))}`)
    }
  }
  if (view.items.length) layer(null, '', '')
  if (view.annotations.length) {
    lines.push(t.annotations(view.annotations.length))
    for (const a of view.annotations) {
      const where = a.item_status === 'active' ? a.item : t.retiredItem(a.item, a.item_status, a.successor ?? null)
      const when = ago(Date.parse(view.now) / 1000 - Date.parse(a.created_at) / 1000, t)
      lines.push(t.annotation(a.id, where, when, a.text))
    }
  }
  const flaggedInactive = view.conflicts.filter(c => !view.items.some(i => i.id === c.item))
  for (const c of flaggedInactive) lines.push(t.notActive(c.item, conflictLine(view, c.item, t)))
  for (const p of view.problems) {
    lines.push(describeProblem(p, language))
  }
  return {text: lines.join('\n'), shown, folded}
}

/** One line for what replay could not apply as committed; `board state` and `brief` say it the same way. */
export function describeProblem(p: ReplayProblem, language?: StoreLanguage): string {
  const t = speak(BOARD_TEXT, language)
  return p.code === 'batch_id_conflict'
    ? t.batchConflict(p.batch_id, p.records.join(', '), p.differing_fields.join(', '))
    : p.error === 'too_many_declarations'
      ? t.notApplied(p.batch_id, p.error, p.message)
      : t.notMerged(p.batch_id, p.path, p.error, p.message)
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6

function conflictLine(view: StateView, id: string, t: BoardText): string {
  const c = view.conflicts.find(x => x.item === id)!
  const versions = c.versions.map(v => t.version(v.batch_id, v.actor, v.item.weight, v.item.status, v.item.summary))
  return t.conflict(versions.join(' | '))
}

const ago = (seconds: number, t: BoardText): string =>
  seconds >= 0 ? t.ago(formatDuration(seconds)) : t.in(formatDuration(seconds))

function timing(item: ItemView, t: BoardText): string {
  const p = item.projections
  const parts: string[] = []
  if (p.until_due !== null)
    parts.push(p.until_due >= 0 ? t.dueIn(formatDuration(p.until_due)) : t.overdue(formatDuration(p.until_due)))
  if (p.until_stale !== null)
    parts.push(
      p.until_stale >= 0 ? t.staleIn(formatDuration(p.until_stale)) : t.staleFor(formatDuration(p.until_stale)),
    )
  parts.push(t.updated(ago(p.since_update, t)))
  return ` · ${parts.join(' · ')}`
}
