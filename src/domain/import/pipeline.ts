import {createHash} from 'node:crypto'
import {type ImportItem, importSlug, fileWords} from './source.js'

/** One proposal an import would make, with the source it came from. */
export interface PlannedProposal {
  /** `import:<path>#<anchor>`: the first source session, so the idempotency key is path + anchor. */
  key: string
  source: string
  line: number
  proposal: Record<string, unknown>
}

const PAD = ['imported', 'team', 'guidance']

/** The session that names a source piece: the path, and the anchor when the piece is part of a file. */
export const sourceKey = (path: string, anchor: string): string => `import:${path}${anchor ? `#${anchor}` : ''}`

/**
 * Turns mapped items into proposals: a slug from the path and heading (a second piece with the same slug
 * takes its position as a discriminator), the source path and line as provenance, pending in the team store.
 */
export function planProposals(kind: string, items: {path: string; item: ImportItem}[]): PlannedProposal[] {
  const used = new Set<string>()
  const planned = items.map(({path, item}) => {
    const file = fileWords(path)
    let slug = importSlug(file, item.slugWords, PAD)
    // A clash (two files or headings with the same words) takes a discriminator from the key, stable across edits.
    if (used.has(slug)) slug = importSlug(file, [...item.slugWords.slice(0, 2), discriminator(sourceKey(path, item.anchor))], PAD)
    used.add(slug)
    const key = sourceKey(path, item.anchor)
    const proposal: Record<string, unknown> = {
      ...item.fields,
      slug,
      layer: 'team',
      source_sessions: [key],
      recent_paths: [path],
      proposed_reason: `imported from ${path} line ${item.line} (cairn import ${kind})${item.note ? `; ${item.note}` : ''}`,
    }
    return {key, source: path, line: item.line, proposal}
  })
  // A successor is named by its source path; its card is the whole-file one imported from that path.
  items.forEach(({item}, i) => {
    const next = item.supersededBy && planned.find(p => p.key === sourceKey(item.supersededBy!, ''))
    if (next) planned[i].proposal.superseded_by = next.proposal.slug
  })
  return planned
}

/** An anchor for a heading: its ASCII words, or its position among the file's sections when it has none. */
export function headingAnchor(heading: string, position: number, seen: Map<string, number>): string {
  const base = heading
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
  const anchor = /[a-z0-9]/.test(base) ? base : `section-${position}`
  const n = seen.get(anchor) ?? 0
  seen.set(anchor, n + 1)
  return n ? `${anchor}-${n}` : anchor
}

const discriminator = (key: string): string => `k${createHash('sha256').update(key).digest('hex').slice(0, 5)}`
