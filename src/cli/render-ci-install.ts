import type {CiInstallResult} from '../app/ci-install.js'
import type {WorkflowAction} from '../domain/ci/workflows.js'
import {padEnd} from './width.js'

/** Text for `cairn ci install`: what was (or would be) written, the diffs of a dry run. */

const VERB: Record<WorkflowAction, [string, string]> = {
  created: ['create', 'created'],
  pinned: ['re-pin', 're-pinned'],
  edited: ['re-pin', 're-pinned'],
  replaced: ['replace', 'replaced'],
  kept: ['keep', 'kept'],
  unchanged: ['leave', 'unchanged'],
}

export function renderCiInstall(r: CiInstallResult): string {
  const out: string[] = []
  if (!r.changed) out.push(`cairn's workflows are in place (${r.package}); nothing changed.`)
  else out.push(`${r.dryRun ? 'Would write' : 'Wrote'} cairn's workflows, installing ${r.package}:`)
  for (const f of r.files.filter(f => f.action !== 'unchanged')) {
    out.push(`  ${padEnd(VERB[f.action][r.dryRun ? 0 : 1], 10)}${f.file}`)
  }
  if (r.packageFrom === 'workflows')
    out.push('The pin is the one the workflows had; "cairn ci install --package <spec>" changes it.')
  if (r.dryRun) {
    for (const f of r.files) if (f.diff) out.push('', f.diff.trimEnd())
    out.push('Dry run: nothing was written.')
  } else if (r.changed) {
    out.push('Nothing was committed: review the change with "git status", then commit it and push.')
  }
  return out.join('\n')
}
