import {createHash} from 'node:crypto'
import {posix} from 'node:path'
import {SLUG_MAX, SLUG_MIN} from '../card/slug.js'
import type {Issue} from '../errors.js'
import {IMPORT_TEXT} from '../messages/import.js'
import {speak, type StoreLanguage} from '../messages/language.js'
import {HAN, type ImportItem, importSlug, fileNumber, fileWords} from './source.js'

/** One proposal an import would make, with the source it came from. */
export interface PlannedProposal {
  /** `import:<path>#<anchor>`: the first source session, so the idempotency key is path + anchor. */
  key: string
  source: string
  line: number
  proposal: Record<string, unknown>
  item: ImportItem
}

/** The store's slugs: every id in use (archive too) with its card's path, and the id each source key made before. */
export interface StoreSlugs {
  paths: ReadonlyMap<string, string>
  byKey: ReadonlyMap<string, string>
}

const PAD = ['imported', 'team', 'guidance']

/** The session that names a source piece: the path, and the anchor when the piece is part of a file. */
export const sourceKey = (path: string, anchor: string): string => `import:${path}${anchor ? `#${anchor}` : ''}`

const NO_SLUGS: StoreSlugs = {paths: new Map(), byKey: new Map()}

/**
 * Turns mapped items into proposals: the slug an earlier import of the same piece made, else one from the path and
 * heading (taking a discriminator from the key when another piece or a card in the store has it), the source path
 * and line as provenance, pending in the team store. A slug the source fixes (an OME id) is kept as it is.
 */
export function planProposals(
  kind: string,
  items: {path: string; item: ImportItem}[],
  store = NO_SLUGS,
  language: StoreLanguage = 'en',
): PlannedProposal[] {
  const t = speak(IMPORT_TEXT, language)
  const used = new Set(store.paths.keys())
  const planned = items.map(({path, item}) => {
    const file = fileWords(path)
    const key = sourceKey(path, item.anchor)
    const before = store.byKey.get(key)
    let slug = item.slug ?? before ?? importSlug(file, item.slugWords, PAD, item.slugFill)
    // A clash (two files or headings with the same words, or a card from elsewhere) takes a discriminator from the
    // key, stable across edits.
    if (item.slug === undefined && before === undefined && used.has(slug)) slug = discriminated(slug, key, used)
    used.add(slug)
    const proposal: Record<string, unknown> = {
      ...item.fields,
      slug,
      layer: 'team',
      source_sessions: [key],
      recent_paths: [path],
      proposed_reason: t.reason(path, item.line, kind, item.note ? t.note(item.note) : ''),
    }
    return {key, source: path, line: item.line, proposal, item}
  })
  // A successor is named by its source path, or by its number in a folder (`docs/adr/#5`); its card is the whole-file
  // one imported from there.
  items.forEach(({item}, i) => {
    const to = item.supersededBy
    const numbered = to && /^(.*?)\/?#(\d+)$/.exec(to)
    const next = !to
      ? undefined
      : numbered
        ? planned.find(
            p =>
              p.item.anchor === '' &&
              posix.dirname(p.source) === (numbered[1] || '.') &&
              fileNumber(p.source) === Number(numbered[2]),
          )
        : planned.find(p => p.key === sourceKey(to, ''))
    if (next && next !== planned[i]) planned[i].proposal.superseded_by = next.proposal.slug
  })
  return planned
}

/** A piece left out, with the source it came from. */
export interface Clash {
  source: string
  issue: Issue
}

/**
 * The pieces whose fixed slug (an OME id) cannot be used: a card from elsewhere in the store holds it, or an earlier
 * piece of this import does. Each is reported with its source and what to do; a derived slug never clashes.
 */
export function fixedSlugClashes(
  planned: PlannedProposal[],
  store: StoreSlugs,
): {kept: PlannedProposal[]; clashes: Clash[]} {
  const seen = new Map<string, PlannedProposal>()
  const clashes: Clash[] = []
  const kept = planned.filter(p => {
    const id = p.item.slug
    if (id === undefined || store.byKey.get(p.key) === id) return true
    const file = `${p.source}:${p.line}`
    const held = store.paths.get(id)
    const first = seen.get(id)
    seen.set(id, first ?? p)
    if (held) {
      const fix = 'rename the id in the source, or archive the existing card'
      const message = `"${id}" is already used by ${held}, a card from elsewhere`
      clashes.push({source: p.source, issue: {file, field: 'id', message, fix}})
    } else if (first) {
      const message = `"${id}" appears more than once (first at ${first.source}:${first.line})`
      clashes.push({source: p.source, issue: {file, field: 'id', message, fix: 'keep one card per id'}})
    }
    return !held && !first
  })
  return {kept, clashes}
}

/**
 * An anchor for a heading, from its text alone so that moving or adding sections never shifts it: its ASCII words;
 * a heading with Chinese (or none of those words, an emoji), its ASCII words and a hash of its normalised text, which
 * no runtime's word splitting or reading of a character changes. A heading the file repeats takes -1, -2 in order.
 * `former` gives the anchor cairn gave before 2026-12 (a heading without ASCII words by its position), so an older
 * import's cards are still found.
 */
export function headingAnchor(heading: string, position: number, seen: Map<string, number>, former = false): string {
  const ascii = heading
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
  const words = /[a-z0-9]/.test(ascii) ? ascii : ''
  const hash = () => `h${createHash('sha256').update(heading.trim().normalize('NFC')).digest('hex').slice(0, 6)}`
  const base = former
    ? words || `section-${position}`
    : HAN.test(heading) || !words
      ? [words, hash()].filter(Boolean).join('-')
      : words
  const n = seen.get(base) ?? 0
  seen.set(base, n + 1)
  return n ? `${base}-${n}` : base
}

/**
 * A slug made distinct by a discriminator from the source key: `k` and the key's hash, in place of the slug's last
 * words when they would overflow 40 characters or five words, longer when the slug would be under 20, and one hex
 * digit longer again while the result is taken.
 */
export function discriminated(slug: string, key: string, used: ReadonlySet<string>): string {
  const hex = createHash('sha256').update(key).digest('hex')
  for (let n = 5; n < hex.length; n++) {
    let words = slug.split('-').slice(0, 4)
    const d = `k${hex.slice(0, n)}`
    while (words.length > 1 && [...words, d].join('-').length > SLUG_MAX) words.pop()
    if ([...words, d].join('-').length > SLUG_MAX) words = [words[0].slice(0, SLUG_MAX - d.length - 1)]
    const short = SLUG_MIN - [...words, d].join('-').length
    const named = [...words, short > 0 ? `k${hex.slice(0, n + short)}` : d].join('-')
    if (!used.has(named)) return named
  }
  throw new Error(`no free slug for ${key}`)
}
