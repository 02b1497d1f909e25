import type {Card} from './card/schema.js'
import {checkSlug, distinctSlug} from './card/slug.js'
import {type CairnError, type Issue, quietSay} from './errors.js'
import {isSteering, secretIssue, type SecretHit} from './secrets.js'
import type {Say} from './messages/issues.js'

export type Severity = 'error' | 'warning'

export interface Problem {
  file: string
  field: string
  rule: string
  severity: Severity
  message: string
  fix?: string
  /** What it says by a stable key, for a store that speaks another language (domain/messages/issues.ts). */
  say?: Say
}

export interface LintEntry {
  path: string
  /** The file it was read from, for checks that need the raw text. */
  source?: string
  location: 'pending' | 'cards' | 'archive' | 'other'
  dir?: string
  name?: string
  card?: Card
  error?: CairnError
}

const WIKI_LINK = /\[\[([^\]|#\s]+)(?:[|#][^\]]*)?\]\]/g

/** A wiki link to a file, not a card: a scheme (Kiro's `#[[file:CONTRIBUTING.md]]`, `mdc:`) or a file name. */
const FILE_LINK = /^[a-z][a-z0-9+.-]*:|\.[a-z0-9]{1,5}$/i

export function bodyLinks(body: string): string[] {
  return [...body.matchAll(WIKI_LINK)].map(m => m[1].trim()).filter(l => !FILE_LINK.test(l))
}

type Report = (p: Problem) => void

/**
 * Lints card files. `all` is every card file of the stores (for uniqueness and links);
 * `targets` are the paths to report on (all of them when linting a whole store).
 */
export function lintEntries(
  all: LintEntry[],
  targets: Set<string> | null,
  knownSignals?: ReadonlySet<string>,
  secrets: SecretHit[] = [],
): Problem[] {
  const problems: Problem[] = []
  const report: Report = p => {
    if (!targets || targets.has(p.file)) problems.push(quietSay(p))
  }
  const byId = entriesById(all)
  for (const e of all) lintEntry(e, byId, report, knownSignals)
  for (const hit of secrets)
    report({
      ...secretIssue(hit, "the store's config.yaml"),
      file: hit.file,
      rule: isSteering(hit) ? 'steering' : 'secret',
      severity: 'error',
    })
  return problems
}

/** Every entry under its card id (or file name when it did not parse), for uniqueness and link checks. */
function entriesById(all: LintEntry[]): Map<string, LintEntry[]> {
  const byId = new Map<string, LintEntry[]>()
  for (const e of all) {
    const id = e.card?.id ?? e.name
    if (id) byId.set(id, [...(byId.get(id) ?? []), e])
  }
  return byId
}

function lintEntry(
  e: LintEntry,
  byId: Map<string, LintEntry[]>,
  report: Report,
  knownSignals?: ReadonlySet<string>,
): void {
  if (e.error) {
    reportSchemaIssues(e, e.error, report)
    return
  }
  const card = e.card
  if (!card) return
  checkPlacement(e, card, report)
  checkId(e, card, byId, report)
  if (e.location === 'archive') return
  if (knownSignals) checkSignals(e, card, knownSignals, report)
  checkLinks(e, card, byId, report)
  checkSuccession(e, card, byId, report)
}

function reportSchemaIssues(e: LintEntry, error: CairnError, report: Report): void {
  const issues = ((error.data as {issues?: Issue[]} | undefined)?.issues ?? [
    {field: '(file)', message: error.message},
  ]) as Issue[]
  for (const i of issues)
    report({
      file: e.path,
      field: i.field,
      rule: 'schema',
      severity: 'error',
      message: i.message,
      fix: i.fix,
      say: i.say,
    })
}

/** The card agrees with where it lives: its file name, its type directory and its review state. */
function checkPlacement(e: LintEntry, card: Card, report: Report): void {
  if (e.name !== undefined && card.id !== e.name)
    report({
      file: e.path,
      field: 'id',
      rule: 'file-name',
      severity: 'error',
      message: `id "${card.id}" does not match the file name "${e.name}.md"`,
      fix: `rename the file to ${card.id}.md`,
      say: {key: 'fileName', id: card.id, name: e.name},
    })
  if (e.dir !== undefined && card.type !== e.dir)
    report({
      file: e.path,
      field: 'type',
      rule: 'type-dir',
      severity: 'error',
      message: `type "${card.type}" does not match its directory "${e.dir}/"`,
      fix: `move it under ${card.type}/`,
      say: {key: 'typeDir', type: card.type, dir: e.dir},
    })
  if (e.location === 'pending' && card.status === 'active')
    report({
      file: e.path,
      field: 'status',
      rule: 'lifecycle',
      severity: 'error',
      message: 'a pending card cannot be active: it has not been reviewed',
      fix: 'approve it with "cairn review approve", or set status: pending',
      say: {key: 'pendingActive'},
    })
  if (e.location === 'cards' && card.status === 'pending')
    report({
      file: e.path,
      field: 'status',
      rule: 'lifecycle',
      severity: 'error',
      message: 'a reviewed card cannot be pending',
      fix: 'set status: active, or move it back to pending/',
      say: {key: 'reviewedPending'},
    })
}

/** The id is a good slug and no other card uses it (archived copies of one another only warn). */
function checkId(e: LintEntry, card: Card, byId: Map<string, LintEntry[]>, report: Report): void {
  const slug = checkSlug(card.id, card.title)
  if (slug)
    report({
      file: e.path,
      field: 'id',
      rule: `slug-${slug.rule}`,
      severity: e.location === 'pending' ? 'error' : 'warning',
      message: slug.message,
      fix: slug.suggestion
        ? `rename it to "${slug.suggestion}"`
        : 'rename it to 2–5 lowercase words joined by hyphens, 20–40 characters',
      say: {key: 'slug', rule: slug.rule, slug: card.id, suggestion: slug.suggestion, fix: 'rename'},
    })
  const same = (byId.get(card.id) ?? []).filter(o => o !== e)
  const liveClash = same.filter(o => e.location !== 'archive' || o.location !== 'archive')
  const free = liveClash.length ? distinctSlug(card.id, card.title, id => byId.has(id)) : undefined
  if (liveClash.length)
    report({
      file: e.path,
      field: 'id',
      rule: 'unique-id',
      severity: 'error',
      message: `id "${card.id}" is also used by ${liveClash.map(o => o.path).join(', ')}`,
      fix: free
        ? `rename this one to "${free}", or the other to a slug of its own`
        : 'give one of them a distinct slug with a discriminating word',
      say: {key: 'uniqueId', id: card.id, paths: liveClash.map(o => o.path).join(', ')},
    })
  else if (same.length)
    report({
      file: e.path,
      field: 'id',
      rule: 'unique-id',
      severity: 'warning',
      message: `id "${card.id}" was archived more than once: ${same.map(o => o.path).join(', ')}`,
      say: {key: 'archivedTwice', id: card.id, paths: same.map(o => o.path).join(', ')},
    })
}

function checkSignals(e: LintEntry, card: Card, knownSignals: ReadonlySet<string>, report: Report): void {
  for (const group of ['positive', 'required_all', 'negative'] as const) {
    for (const id of card.engine_hints[group]) {
      if (!knownSignals.has(id))
        report({
          file: e.path,
          field: `engine_hints.${group}`,
          rule: 'unknown-signal',
          severity: 'error',
          message: `"${id}" is not a registered signal; it is ignored at match time`,
          fix: 'use an id that "cairn signals list" shows, or define it in .cairn/signals.yaml',
          say: {key: 'unknownSignal', id},
        })
    }
  }
}

/** Links (front matter and body wiki links) resolve, and not only to archived cards. */
function checkLinks(e: LintEntry, card: Card, byId: Map<string, LintEntry[]>, report: Report): void {
  const links = [...card.links.map(l => ({l, field: 'links'})), ...bodyLinks(card.body).map(l => ({l, field: 'body'}))]
  for (const {l, field} of links) {
    const targetsOf = (byId.get(l) ?? []).filter(t => t.card || t.name)
    if (targetsOf.length === 0)
      report({
        file: e.path,
        field,
        rule: 'broken-link',
        severity: 'error',
        message: `link to "${l}" does not resolve to any card`,
        fix: `fix the id, or remove the link`,
        say: {key: 'brokenLink', link: l},
      })
    else if (targetsOf.every(t => t.location === 'archive'))
      report({
        file: e.path,
        field,
        rule: 'archived-link',
        severity: 'warning',
        message: `link to "${l}" points to an archived card`,
        fix: `restore "${l}" or drop the link`,
        say: {key: 'archivedLink', link: l},
      })
  }
}

/** supersedes / superseded_by name known cards, and a superseded card names its successor. */
function checkSuccession(e: LintEntry, card: Card, byId: Map<string, LintEntry[]>, report: Report): void {
  for (const s of [...card.supersedes, ...(card.superseded_by ? [card.superseded_by] : [])]) {
    if (!byId.has(s))
      report({
        file: e.path,
        field: card.supersedes.includes(s) ? 'supersedes' : 'superseded_by',
        rule: 'broken-link',
        severity: 'warning',
        message: `"${s}" is not a known card`,
        say: {key: 'unknownCard', id: s},
      })
  }
  if (card.status === 'superseded' && !card.superseded_by)
    report({
      file: e.path,
      field: 'superseded_by',
      rule: 'lifecycle',
      severity: 'warning',
      message: 'a superseded card should name its successor',
      fix: 'set superseded_by to the id of the card that replaces it',
      say: {key: 'noSuccessor'},
    })
}
