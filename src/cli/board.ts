import {Flags} from '@oclif/core'
import type {HistoryEntry} from '../app/board/history.js'
import type {OverviewJson} from '../app/board/overview.js'
import type {StateResult} from '../app/board/read.js'
import type {WriteResult} from '../app/board/write.js'
import {describeProblem} from '../domain/board/brief.js'
import type {Metrics} from '../domain/board/metrics.js'
import {formatDuration} from '../domain/board/time.js'
import {short, table} from './render.js'

/** Flags every board command takes: the clock is only ever read through --now's default. */
export const boardFlags = {
  now: Flags.string({
    description:
      'Time to act at, RFC 3339 such as 2026-10-09T12:00:00Z (default: the clock). Durations and receipts use it.',
  }),
  store: Flags.option({
    description: 'Board to use: project (.cairn/ in this repo) or personal ($CAIRN_HOME).',
    options: ['project', 'personal'] as const,
    default: 'project',
  })(),
}

/** Who writes to the board (board commit, board annotate): part of the request a retry repeats. */
export const actorFlag = Flags.string({
  description:
    "Who writes: an agent's or a person's name (default: CAIRN_ACTOR, else git's user.name, else $USER). A retry repeats it.",
})

export function renderReceipt(r: WriteResult): string {
  const rc = r.receipt
  const head = `${rc.status}: ${rc.batch_id} → event ${rc.event_seq} (${rc.event}), revision ${rc.revision}, at ${rc.now} by ${rc.actor}${r.commit ? `, commit ${short(r.commit)}` : ''}`
  const lines = [head]
  for (const [k, ids] of Object.entries(rc.changes)) if (ids.length) lines.push(`  ${k}: ${ids.join(', ')}`)
  if (rc.acknowledged.length) lines.push(`  acknowledged: ${rc.acknowledged.join(', ')}`)
  if (rc.already_acknowledged.length)
    lines.push(`  already acknowledged (first binding kept): ${rc.already_acknowledged.join(', ')}`)
  if (rc.annotation) lines.push(`  annotation ${rc.annotation.id} on ${rc.annotation.item}: saved`)
  if (rc.checked) lines.push('  checked: no business change, nothing acknowledged')
  return lines.join('\n')
}

const dur = (s: number | null, future: string, past: string): string =>
  s === null ? '-' : s >= 0 ? `${future}${formatDuration(s)}` : `${past}${formatDuration(s)}`

export function renderState(s: StateResult): string {
  const lines = [
    `${s.store} board at ${s.now}: event ${s.event_seq}, revision ${s.revision}, last checked ${s.last_checked_at ?? 'never'}; last seen: not tracked.`,
  ]
  const byParent = new Map<string | null, StateResult['items']>()
  for (const i of s.items) byParent.get(i.parent)?.push(i) ?? byParent.set(i.parent, [i])
  for (const layer of s.layers) {
    const items = byParent.get(layer.parent) ?? []
    const over = layer.over_budget
      ? ` OVER BUDGET by ${-layer.free} (a merge brought together batches that each fitted; a batch that lowers weights or withdraws items clears it).`
      : ''
    lines.push(
      '',
      `${layer.parent === null ? 'Root layer' : `Under ${layer.parent}`}: ${layer.used} of ${layer.budget} used, ${layer.over_budget ? 0 : layer.free} free.${over}`,
    )
    if (!items.length) continue
    lines.push(
      table(
        items.map(i => [
          String(i.rank),
          `${i.id}${i.conflict ? '!' : ''}`,
          i.kind,
          String(i.weight),
          `${i.share}${i.share_override === null ? '' : '*'}`,
          dur(-i.projections.since_update, '', '') + ' ago',
          dur(i.projections.until_due, 'in ', 'overdue '),
          i.summary,
        ]),
        ['RANK', 'ID', 'KIND', 'W', 'SHARE', 'UPDATED', 'DUE', 'SUMMARY'],
      ),
    )
  }
  if (s.annotations.length) {
    lines.push('', 'Saved annotations (no acknowledgement yet):')
    for (const a of s.annotations)
      lines.push(
        `  ${a.id} on ${a.item}${a.item_status === 'active' ? '' : ` (${a.item_status}${a.successor ? `, now ${a.successor}` : ''})`}: ${a.text}`,
      )
  }
  if (s.inactive.length)
    lines.push(
      '',
      `Not active: ${s.inactive.map(i => `${i.id} (${i.status}${i.merged_into ? ` into ${i.merged_into}` : ''})`).join(', ')}`,
    )
  if (s.conflicts.length) {
    lines.push('', 'Changed on two branches (! above); both versions are kept until a batch declares the item:')
    for (const c of s.conflicts) {
      lines.push(`  ${c.item}:`)
      for (const v of c.versions)
        lines.push(
          `    ${v.batch_id} by ${v.actor} at ${v.now}: ${v.item.status}, ${v.item.kind}, weight ${v.item.weight}, "${v.item.summary}"`,
        )
    }
  }
  for (const p of s.problems) {
    lines.push('', describeProblem(p))
  }
  lines.push('', '* explicit share override. "cairn board state --json" gives everything, with durations in seconds.')
  return lines.join('\n')
}

export function renderHistory(entries: HistoryEntry[]): string {
  if (!entries.length) return 'No board history.'
  return table(
    entries.map(e => [
      e.seq === null ? `(= ${e.duplicate_of})` : String(e.seq),
      e.batch_id,
      e.kind,
      e.event ?? '-',
      e.actor,
      e.now,
      short(e.commit),
      e.items.join(',') || (e.request.kind === 'annotate' ? e.request.item : '-'),
    ]),
    ['SEQ', 'BATCH', 'KIND', 'EVENT', 'ACTOR', 'NOW', 'COMMIT', 'ITEMS'],
  )
}

export function renderMetrics(m: Metrics): string {
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`)
  const rows = m.batches.map(b => [String(b.seq), b.batch_id, String(b.allocatable), String(b.overrides), pct(b.rate)])
  const total = `All batches: ${m.total.overrides} override(s) in ${m.total.allocatable} allocatable declaration(s) over ${m.total.applicable} applicable batch(es) of ${m.total.batches}: ${pct(m.total.rate)}.`
  return rows.length
    ? `${table(rows, ['SEQ', 'BATCH', 'ALLOCATABLE', 'OVERRIDES', 'RATE'])}\n${total}`
    : 'No committed batches.'
}

export function renderOverviewNote(dir: string, o: OverviewJson): string {
  const omitted = o.omissions
    .map(x => `${x.reason}${x.items ? ` (${x.items.length} item${x.items.length === 1 ? '' : 's'})` : ''}`)
    .join(', ')
  return [
    `Overview written to ${dir}: overview.json, state.json${o.files.diff ? ', diff.json' : ''}${o.files.html ? ', overview.html' : ''}, ${o.images.map(i => i.file).join(', ')}`,
    `Omitted from the pictures: ${omitted || 'nothing'}. Check state.json before deciding anything.`,
  ].join('\n')
}
