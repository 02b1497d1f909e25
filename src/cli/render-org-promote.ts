import type {OrgPromoteResult} from '../app/org-promote.js'
import {short} from './render.js'

export function renderOrgPromote(r: OrgPromoteResult): string {
  const out: string[] = []
  if (r.outcome === 'in-org')
    out.push(
      `The org layer ${r.layer} already has ${r.id} (${r.file} on ${r.branch} at ${short(r.commit)}); nothing to propose.`,
    )
  else {
    const what = r.outcome === 'proposed' ? 'Proposed' : 'Already proposed'
    out.push(`${what} ${r.id} to the org layer ${r.layer}: ${r.file} on the branch ${r.branch} (${short(r.commit)}).`)
    if (r.pushed)
      out.push(`Pushed to ${r.url}; open a pull request from ${r.branch} there, and the org's review decides.`)
    else
      out.push(
        `Not pushed: ${r.pushError}`,
        'The branch is kept in the cache. Push it by hand:',
        `  ${r.pushCommand}`,
        `or run "cairn org promote ${r.id}" again.`,
      )
  }
  out.push(
    r.projectCommit
      ? `The project card records it: commit ${short(r.projectCommit)}`
      : 'The project card records it already, or --no-commit left it unstaged.',
  )
  return out.join('\n')
}
