import type {OrgAddResult, OrgLayer, OrgUpdateResult} from '../app/org.js'
import type {OrgPin} from '../domain/org.js'
import {short, table} from './render.js'

const committed = (commit: string | null): string =>
  commit ? `commit: ${short(commit)}` : 'not committed (--no-commit)'

export function renderOrgLayers(layers: readonly OrgLayer[]): string {
  if (layers.length === 0) return 'No org layer. Subscribe with "cairn org add <url>".'
  const rows = layers.map(l => [l.name, l.ref, short(l.commit), l.cached ? String(l.cards) : 'missing', l.url])
  return table(rows, ['NAME', 'REF', 'PIN', 'CARDS', 'URL'])
}

export function renderOrgAdd(r: OrgAddResult): string {
  const l = r.layer
  const cards = l.cards ?? 0
  return [
    `Subscribed to the org layer ${l.name}: ${l.url} at ${short(l.commit)} (${l.ref}), ${cards} active card${cards === 1 ? '' : 's'}.`,
    committed(r.commit),
  ].join('\n')
}

export function renderOrgRemove(r: {removed: OrgPin; commit: string | null}): string {
  return [
    `Removed the org layer ${r.removed.name} (${r.removed.url}); its cards are no longer read here. The shared cache under $CAIRN_HOME is kept.`,
    committed(r.commit),
  ].join('\n')
}

export function renderOrgUpdate(r: OrgUpdateResult): string {
  const out: string[] = []
  for (const l of r.layers) {
    if (l.from === l.to) {
      out.push(`${l.name}: already at the head of ${l.ref} (${short(l.to)}).`)
      continue
    }
    const {added, changed, removed} = l.changes
    out.push(
      `${l.name}: ${short(l.from)} -> ${short(l.to)} (${l.ref}): ${added.length} added, ${changed.length} changed, ${removed.length} removed`,
      ...added.map(id => `  + ${id}`),
      ...changed.map(id => `  ~ ${id}`),
      ...removed.map(id => `  - ${id}`),
    )
  }
  if (r.layers.some(l => l.from !== l.to)) out.push(committed(r.commit))
  return out.join('\n')
}
