import type {ArchiveListing, ArchiveResult, RestoreResult} from '../app/archive.js'
import type {MaintainResult} from '../app/maintain.js'
import type {ModifyResult} from '../app/modify.js'
import type {LifecycleResult} from '../app/review.js'
import type {Injections} from '../app/maintain-usage.js'
import {short, table} from './render.js'
import {cardTable} from './render-receipts.js'

const commits = (c: {project?: string | null; personal?: string | null}): string =>
  Object.entries(c)
    .map(([s, sha]) => `${s} commit: ${sha ? short(sha) : 'none'}`)
    .join('\n')

export function renderLifecycle(r: LifecycleResult): string {
  if (r.cards.length === 0) return `Nothing to ${r.op}.`
  const verb = {approve: 'approved', reject: 'rejected', defer: 'deferred'}[r.op] ?? r.op
  const rows = r.cards.map(c => [
    verb,
    c.id,
    c.store,
    c.to ? (c.from === c.to ? c.to : `${c.from} -> ${c.to}`) : `${c.from} (removed)`,
  ])
  return `${table(rows, ['DONE', 'ID', 'STORE', 'PATH'])}\n${commits(r.commits)}`
}

export function renderModify(r: ModifyResult): string {
  const moved =
    r.from.path !== r.to.path || r.from.store !== r.to.store
      ? `\nmoved: ${r.from.store}:${r.from.path} -> ${r.to.store}:${r.to.path}`
      : ''
  return `modified ${r.id} (${r.changed.join(', ')})${moved}\n${commits(r.commits)}`
}

export function renderArchive(r: ArchiveResult): string {
  const lines = r.archived.length
    ? [
        table(
          r.archived.map(a => [a.id, a.to]),
          ['ARCHIVED', 'TO'],
        ),
      ]
    : ['Nothing to archive.']
  for (const s of r.skipped) lines.push(`skipped ${s.id}: ${s.reason}`)
  if (r.ts)
    lines.push(`archive: ${r.ts} (restore with "cairn restore ${r.ts}")`, `${r.store} commit: ${short(r.commit)}`)
  return lines.join('\n')
}

export function renderRestore(r: RestoreResult): string {
  const rows = r.restored.map(x => [x.id, x.to, x.renamed ? 'renamed: the id was taken' : ''])
  return `${table(rows, ['RESTORED', 'TO', 'NOTE'])}\n${r.store} commit: ${short(r.commit)}`
}

export function renderArchiveList(r: ArchiveListing): string {
  if (r.archives.length === 0) return `No archives in the ${r.store} store.`
  return table(
    r.archives.map(a => [a.ts, String(a.cards.length), a.cards.map(c => c.id).join(', ')]),
    ['ARCHIVE', 'CARDS', 'IDS'],
  )
}

export function renderMaintain(r: MaintainResult): string {
  const lines: string[] = []
  if (r.actions.length)
    lines.push(
      table(
        r.actions.map(a => [a.action, a.id, a.reasons.join(','), a.detail]),
        ['ACTION', 'CARD', 'REASON', 'DETAIL'],
      ),
    )
  for (const p of r.reports) lines.push(`report  ${p.problem}  ${p.id ?? '-'}  ${p.detail}`)
  for (const s of r.skipped) lines.push(`skip    ${s.id}  ${s.reasons.join(',')}  (${s.detail})`)
  lines.push(`core: ${r.core.before} -> ${r.core.after} of ${r.core.budget} chars`)
  if (r.stale.length)
    lines.push(
      `stale: ${r.stale.length} card(s) may be stale (${r.stale
        .slice(0, 5)
        .map(s => s.id)
        .join(', ')}${r.stale.length > 5 ? ', ...' : ''}); "cairn stale" lists why, "cairn verify ID" confirms one`,
    )
  for (const s of r.suggestions) lines.push(`${s.action}  ${s.id}  ${s.detail}`)
  lines.push(...renderInjections(r.injections))
  if (!r.actions.length && !r.reports.length) lines.unshift('Nothing to maintain.')
  if (r.applied) lines.push(`applied in one commit: ${short(r.commit)}${r.archive ? ` (archive ${r.archive})` : ''}`)
  else if (r.marker === 'written')
    lines.push('Run "cairn maintain --apply" to carry out this plan (.local/.pending-fix written).')
  return lines.join('\n')
}

/**
 * How to carry out the plan, when this run did not and the plan does not say it already (a written marker does): a
 * dry run says it wrote nothing. For stderr, so that the plan on stdout stays the plan (the weekly workflow puts it
 * in its pull request, which applies it).
 */
export function maintainHint(r: MaintainResult, dryRun: boolean): string | undefined {
  if (r.applied || r.marker === 'written') return undefined
  const apply = `"cairn maintain --apply${r.store === 'personal' ? ' --store personal' : ''}"`
  const dry = dryRun ? 'Dry run: nothing was written. ' : ''
  if (!r.actions.length) return `${dry}Nothing to apply: ${apply} carries out a plan when there is one.`
  return `${dry}Run ${apply} to carry out this plan.`
}

/** The receipts maintain judged use by, and its short table of the most injected cards. */
function renderInjections(i: Injections): string[] {
  if (i.receipts === 0)
    return [
      'injections: no receipts in this store on this machine (the hooks write .local/receipts.jsonl where they run), ' +
        'so no card is judged unused.',
    ]
  const days = `${i.days} day(s)`
  const judged =
    i.unused_days > 0 && i.days < i.unused_days
      ? `; cards no hook matched are judged once they cover maintain.unused_days (${i.unused_days})`
      : ''
  const shown = i.top.length < i.cards ? `the ${i.top.length} most injected of ${i.cards} cards` : 'per card'
  return [
    `injections: ${i.receipts} receipt(s) from ${i.from!.slice(0, 10)} to ${i.to!.slice(0, 10)} (${days}${judged}); ${shown}:`,
    cardTable(i.top),
  ]
}
