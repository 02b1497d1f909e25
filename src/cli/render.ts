import type {DoctorResult} from '../app/doctor.js'
import type {InitResult} from '../app/init.js'
import type {LintResult} from '../app/lint.js'
import type {ListedCard, ListResult} from '../app/list.js'
import type {LogEntry} from '../app/log.js'
import type {ProposeResult} from '../app/propose.js'
import {AGENT_CLIENTS} from '../domain/agents/types.js'
import {speak} from '../domain/messages/language.js'
import {LINT_TEXT} from '../domain/messages/lint.js'
import {DOCTOR_TEXT} from '../domain/messages/doctor.js'
import {PROPOSE_TEXT} from '../domain/messages/propose.js'
import {type Palette, PLAIN} from './colour.js'
import {renderTextOutcome} from './render-text-changes.js'
import {clip, displayWidth, padEnd} from './width.js'

/** Human renderers: plain text for a terminal; --json bypasses them. */

/** Columns two spaces apart, aligned by display width; the last column is never padded. */
export function table(rows: string[][], header: string[]): string {
  const widths = header
    .slice(0, -1)
    .map((h, i) => Math.max(displayWidth(h), ...rows.map(r => displayWidth(r[i] ?? ''))))
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : padEnd(c, widths[i]))).join('  ')
  return [line(header), ...rows.map(line)].join('\n')
}

export const short = (sha: string | null | undefined): string => (sha ? sha.slice(0, 7) : '-')

export function renderInit(r: InitResult, next: NextStep[] = []): string {
  const width = Math.max(0, ...next.map(s => displayWidth(s.command)))
  const steps = next.length
    ? `\n\nNext steps:\n${next.map(s => `  ${padEnd(s.command, width)}  ${s.purpose}`).join('\n')}`
    : ''
  if (!r.created) return `cairn ${r.store} store already initialised at ${r.root}; nothing changed.${steps}`
  const commit = r.commit ? ` (commit ${short(r.commit)})` : ' (not committed)'
  return `Initialised the ${r.store} store at ${r.root}${commit}:\n${r.files.map(f => `  ${f}`).join('\n')}${steps}`
}

export interface NextStep {
  command: string
  purpose: string
}

/** What to run after `cairn init`; each line is a real command (a test runs them all). */
export function nextSteps(store: InitResult['store']): NextStep[] {
  const agents = `${AGENT_CLIENTS.slice(0, -1).join(', ')} or ${AGENT_CLIENTS.at(-1)}`
  if (store === 'personal') {
    return [
      {command: 'cairn install --agent claude --scope user', purpose: `connect an agent in every project (${agents})`},
      {
        command: 'cairn propose --edit --layer personal',
        purpose: 'propose a first personal card, written in your editor',
      },
    ]
  }
  return [
    {command: 'cairn install --agent claude', purpose: `connect an agent to this repository (${agents})`},
    {command: 'cairn ci install', purpose: 'add the GitHub workflows: review in pull requests, weekly maintain'},
    {command: 'cairn propose --edit', purpose: 'propose a first card, written in your editor'},
  ]
}

export function renderPropose(r: ProposeResult): string {
  const rows = r.cards.map(c => [c.outcome, c.id, c.type, c.store, c.path])
  const t = speak(PROPOSE_TEXT, r.language)
  const commits = Object.entries(r.commits).map(([s, c]) => t.commit(s, c ? short(c) : null))
  const text = r.cards.flatMap(c => {
    const lines = renderTextOutcome(c, r.language)
    return lines.length ? ['', ...lines] : []
  })
  return [table(rows, ['OUTCOME', 'ID', 'TYPE', 'STORE', 'PATH']), ...commits, ...text].join('\n')
}

export function renderList(r: ListResult): string {
  if (r.cards.length === 0) return 'No cards match.'
  const rows = r.cards.map(c => [c.id, c.type, listedStatus(c), c.load, c.layer ?? c.store, c.title])
  return table(rows, ['ID', 'TYPE', 'STATUS', 'LOAD', 'STORE', 'TITLE'])
}

/** A deferred pending card says until when: the day alone when the deferral ends at midnight UTC, as --until DATE sets. */
const listedStatus = (c: ListedCard): string =>
  c.deferred_until ? `${c.status} (deferred until ${c.deferred_until.replace(/T00:00(:00(\.0+)?)?Z$/, '')})` : c.status

export function renderLint(r: LintResult): string {
  const t = speak(LINT_TEXT, r.language)
  const lines = r.problems.map(p => `${t.severity[p.severity]} ${t.problem(p.file, p.field, p.message, p.fix, p.rule)}`)
  lines.push(t.total(r.checked, r.errors, r.warnings))
  return lines.join('\n')
}

/**
 * One line per commit, each cut to width columns (the terminal's): a commit of many cards names the first and
 * counts the rest. --json keeps every id and the whole subject.
 */
export function renderLog(entries: LogEntry[], width = Infinity): string {
  if (entries.length === 0) return 'No cairn history.'
  return table(
    entries.map(e => [
      short(e.sha),
      e.at,
      e.op,
      e.actor ?? '-',
      cardsCell(e.cards, width) || e.batch || '-',
      e.subject,
    ]),
    ['COMMIT', 'DATE', 'OP', 'ACTOR', 'CARDS', 'SUBJECT'],
  )
    .split('\n')
    .map(line => clip(line, width))
    .join('\n')
}

/** Within a width, the ids that fit in 40 columns, and "+N" for the others. */
function cardsCell(ids: string[], width: number): string {
  const all = ids.join(',')
  if (width === Infinity || displayWidth(all) <= 40) return all
  const shown: string[] = []
  for (const id of ids) {
    const more = ` +${ids.length - shown.length - 1}`
    if (shown.length && displayWidth([...shown, id].join(',') + more) > 40) break
    shown.push(id)
  }
  return `${clip(shown.join(','), 40)} +${ids.length - shown.length}`
}

/** With a palette from paletteFor(process.stdout), the status marks are green, yellow and red. */
export function renderDoctor(r: DoctorResult, paint: Palette = PLAIN): string {
  const mark = {ok: paint.green('ok  '), warning: paint.yellow('warn'), error: paint.red('FAIL')}
  const storeWidth = Math.max(0, ...r.checks.map(c => displayWidth(c.store)))
  const checkWidth = Math.max(0, ...r.checks.map(c => displayWidth(c.check)))
  // A fix sits under its check's detail, two columns in.
  const indent = ' '.repeat(4 + 2 + storeWidth + 1 + checkWidth + 1 + 2)
  const t = speak(DOCTOR_TEXT, r.language)
  const lines = r.fixed.map(t.fixed)
  for (const c of r.checks) {
    lines.push(`${mark[c.status]}  ${padEnd(c.store, storeWidth)} ${padEnd(c.check, checkWidth)} ${c.detail}`)
    if (c.fix && c.status !== 'ok') lines.push(`${indent}${t.fix(c.fix)}`)
  }
  lines.push(r.healthy ? t.healthy : t.unhealthy)
  return lines.join('\n')
}
