import type {ExportAgentsMdResult} from '../app/export-agents-md.js'
import type {ExportCursorRulesResult} from '../app/export-cursor-rules.js'
import {table} from './render.js'

const NOT_COMMITTED = 'Not committed: review the change, then commit it with your work.'

export function renderExportAgentsMd(r: ExportAgentsMdResult, dryRun: boolean): string {
  const cards = `${r.cards.length} core card(s), ${r.chars} of ${r.budget} characters`
  const left = r.omitted.length ? `; left out over the budget: ${r.omitted.join(', ')}` : ''
  if (dryRun) return `${r.block}\n\n--dry-run: ${r.file} would be ${r.action} (${cards}${left}); nothing written.`
  if (r.action === 'unchanged') return `${r.file} is up to date (${cards}${left}).`
  return `${r.file}: ${r.action} the cairn block (${cards}${left}).\n${NOT_COMMITTED}`
}

export function renderExportCursorRules(r: ExportCursorRulesResult, dryRun: boolean): string {
  const rows = [
    ...r.rules.map(x => [dryRun && x.action !== 'unchanged' ? `would be ${x.action}` : x.action, x.file]),
    ...r.removed.map(file => [dryRun ? 'would be removed' : 'removed', file]),
  ]
  const head = rows.length ? table(rows, ['ACTION', 'FILE']) : `No active narrow cards, and no cairn rules in ${r.dir}.`
  const tail = dryRun ? '--dry-run: nothing written.' : r.written ? NOT_COMMITTED : 'Everything was up to date.'
  return `${head}\n${tail}`
}
