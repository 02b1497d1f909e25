import type {DoctorResult} from '../app/doctor.js'
import type {InitResult} from '../app/init.js'
import type {LintResult} from '../app/lint.js'
import type {ListResult} from '../app/list.js'
import type {LogEntry} from '../app/log.js'
import type {ProposeResult} from '../app/propose.js'

/** Human renderers: plain text for a terminal; --json bypasses them. */

export function table(rows: string[][], header: string[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => (r[i] ?? '').length)))
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')
  return [line(header), ...rows.map(line)].join('\n')
}

export const short = (sha: string | null | undefined): string => (sha ? sha.slice(0, 7) : '-')

export function renderInit(r: InitResult): string {
  if (!r.created) return `cairn ${r.store} store already initialised at ${r.root}; nothing changed.`
  const commit = r.commit ? ` (commit ${short(r.commit)})` : ' (not committed)'
  return `Initialised the ${r.store} store at ${r.root}${commit}:\n${r.files.map(f => `  ${f}`).join('\n')}`
}

export function renderPropose(r: ProposeResult): string {
  const rows = r.cards.map(c => [c.outcome, c.id, c.type, c.store, c.path])
  const commits = Object.entries(r.commits).map(([s, c]) => `${s} commit: ${c ? short(c) : 'none'}`)
  return `${table(rows, ['OUTCOME', 'ID', 'TYPE', 'STORE', 'PATH'])}\n${commits.join('\n')}`
}

export function renderList(r: ListResult): string {
  if (r.cards.length === 0) return 'No cards match.'
  const rows = r.cards.map(c => [c.id, c.type, c.status, c.load, c.store, c.title])
  return table(rows, ['ID', 'TYPE', 'STATUS', 'LOAD', 'STORE', 'TITLE'])
}

export function renderLint(r: LintResult): string {
  const lines = r.problems.map(p => `${p.severity === 'error' ? 'error  ' : 'warning'} ${p.file}: ${p.field}: ${p.message}${p.fix ? ` (fix: ${p.fix})` : ''} [${p.rule}]`)
  lines.push(`${r.checked} card file(s) checked: ${r.errors} error(s), ${r.warnings} warning(s).`)
  return lines.join('\n')
}

export function renderLog(entries: LogEntry[]): string {
  if (entries.length === 0) return 'No cairn history.'
  return table(entries.map(e => [short(e.sha), e.at, e.op, e.actor ?? '-', e.cards.join(',') || e.batch || '-', e.subject]), ['COMMIT', 'DATE', 'OP', 'ACTOR', 'CARDS', 'SUBJECT'])
}

export function renderDoctor(r: DoctorResult): string {
  const mark = {ok: 'ok  ', warning: 'warn', error: 'FAIL'}
  const lines = r.fixed.map(f => `fixed: ${f}`)
  lines.push(...r.checks.map(c => `${mark[c.status]}  ${c.store.padEnd(8)} ${c.check.padEnd(12)} ${c.detail}${c.fix && c.status !== 'ok' ? `\n${' '.repeat(30)}fix: ${c.fix}` : ''}`))
  lines.push(r.healthy ? 'The store is healthy.' : 'The store has problems; see FAIL lines above.')
  return lines.join('\n')
}
