import type {FileChange, InstallResult, McpChange} from '../app/install.js'
import type {UninstallResult} from '../app/uninstall.js'
import type {HookEntry} from '../domain/agents/settings.js'
import {padEnd} from './width.js'

/** Text for `cairn install` and `cairn uninstall`: what changed, the check, the trust step. */

export function renderInstall(r: InstallResult): string {
  const where = `${r.scope} scope, ${r.root}`
  const out: string[] = []
  if (!r.changed) out.push(`cairn is already installed for ${r.client} (${where}); nothing changed.`)
  else out.push(`${r.dryRun ? 'Would connect' : 'Connected'} ${r.client} to cairn (${where}, skills in ${r.lang}):`)
  if (r.changed) out.push(...fileLines(r.files, r.hooks, r.mcp, r.dryRun))
  if (r.dryRun) {
    out.push(...diffs(r.files))
    out.push('Dry run: nothing was written, and the hook command was not run.')
    return out.join('\n')
  }
  if (r.check?.ok) out.push(`Hook check: "${r.check.command}" ran (exit 0).`)
  else if (r.check) out.push(`Hook check FAILED: "${r.check.command}" (${r.check.reason}).`)
  out.push(`Next: ${r.trust}`)
  if (r.changed && r.scope === 'project') out.push(UNCOMMITTED)
  return out.join('\n')
}

export function renderUninstall(r: UninstallResult): string {
  const where = `${r.scope} scope, ${r.root}`
  if (!r.changed && r.files.every(f => f.action !== 'kept')) {
    return `cairn is not installed for ${r.client} (${where}); nothing changed.`
  }
  const head = `${r.dryRun ? 'Would disconnect' : 'Disconnected'} ${r.client} from cairn (${where}):`
  const out = [head, ...fileLines(r.files, r.hooks, r.mcp, r.dryRun)]
  if (r.dryRun) out.push(...diffs(r.files), 'Dry run: nothing was written.')
  else if (r.changed && r.scope === 'project') out.push(UNCOMMITTED)
  return out.join('\n')
}

const UNCOMMITTED = 'Nothing was committed: review the change with "git status", then commit it like any config change.'

const VERB: Record<FileChange['action'], [string, string]> = {
  created: ['create', 'created'],
  modified: ['modify', 'modified'],
  restored: ['restore', 'restored'],
  deleted: ['delete', 'deleted'],
  kept: ['keep', 'kept'],
  unchanged: ['leave', 'unchanged'],
}

function fileLines(files: FileChange[], hooks: HookEntry[], mcp: McpChange | null, dryRun: boolean): string[] {
  return files
    .filter(f => f.action !== 'unchanged')
    .map(f => {
      const verb = padEnd(VERB[f.action][dryRun ? 0 : 1], 9)
      const parts = [
        ...(f.kind === 'settings' ? [hookSummary(hooks)] : []),
        ...(mcp && mcp.file === f.file && mcp.action !== 'kept' && mcp.action !== 'present'
          ? [`MCP server "${mcp.server}" ${mcp.action}`]
          : []),
        ...(f.kind === 'skill' && f.note ? [f.note] : []),
      ].filter(Boolean)
      return `  ${verb}${f.file}${parts.length ? `: ${parts.join('; ')}` : ''}`
    })
}

function hookSummary(hooks: HookEntry[]): string {
  const count = (action: HookEntry['action']) => hooks.filter(h => h.action === action)
  const parts = (['added', 'updated', 'removed'] as const)
    .map(a => [a, count(a)] as const)
    .filter(([, list]) => list.length > 0)
    .map(([a, list]) => {
      const events = list.map(h => h.clientEvent).join(', ')
      return `${list.length} hook entr${list.length === 1 ? 'y' : 'ies'} ${a} (${events})`
    })
  return parts.join('; ')
}

/** Settings diffs in full; a new skill file as one line, since its text is the template's. */
function diffs(files: FileChange[]): string[] {
  return files.flatMap(f => {
    if (!f.diff) return []
    if (f.kind === 'skill' && (f.action === 'created' || f.action === 'deleted')) return []
    return ['', f.diff]
  })
}
