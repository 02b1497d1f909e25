import {createHash} from 'node:crypto'
import {CairnError, type Issue, validationError} from './errors.js'

/**
 * The org layer (DESIGN: The org layer): a project subscribes to another repository's cairn store at a
 * pinned commit. What is pure about it lives here: the pin's fields and their rules, the cache's name
 * for a URL, and the cards a pin change brings.
 */

/** Which store a card comes from: the project's, an org layer (read-only, pinned) or the personal one. */
export type StoreKind = 'project' | 'org' | 'personal'

/** One subscription, as config.yaml's `org:` list holds it. */
export interface OrgPin {
  /** How the project names the layer: a kebab-case slug, unique in the list. */
  name: string
  /** Where git fetches it from: any URL git takes, or an absolute local path. */
  url: string
  /** The branch or tag `cairn org update` follows. */
  ref: string
  /** The commit the project reads, full hex. */
  commit: string
}

export const ORG_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
export const ORG_NAME_MAX = 40
export const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/** What is wrong with a layer's name, or null. */
export function orgNameProblem(name: string): string | null {
  if (!ORG_NAME.test(name)) return 'must be a kebab-case name of lowercase letters, digits and single hyphens'
  if (name.length > ORG_NAME_MAX) return `must be at most ${ORG_NAME_MAX} characters`
  return null
}

/**
 * What is wrong with a URL cairn would hand to git, or null. A URL is given to git as an argument, so one that
 * starts with "-" (an option) is refused; so are the transports that run a command (ext::, fd::) and anything
 * with whitespace or control characters.
 */
export function orgUrlProblem(url: string): string | null {
  if (url.trim() === '') return 'must not be empty'
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return 'must not hold whitespace or control characters'
  if (url.startsWith('-')) return 'must not start with "-"'
  if (/^(?:ext|fd)::/i.test(url)) return 'must not use the ext:: or fd:: transport, which runs a command'
  if (url.length > 2000) return 'must be at most 2000 characters'
  return null
}

/** What is wrong with a branch or tag name (git's check-ref-format rules, as they apply to a short name), or null. */
export function orgRefProblem(ref: string): string | null {
  const rule = 'must be a branch or tag name such as main or v2'
  if (ref === '' || ref.length > 250) return rule
  if (ref.startsWith('-') || ref.startsWith('/') || ref.endsWith('/') || ref.endsWith('.') || ref.endsWith('.lock'))
    return rule
  if (/[\s\u0000-\u001f\u007f~^:?*[\\]|\.\.|@\{|\/\/|\/\.|^\./.test(ref) || ref === '@') return rule
  return null
}

/** The layer name a URL suggests: its last path segment without ".git", as a slug; "org" when nothing is left. */
export function orgNameFromUrl(url: string): string {
  const last =
    url
      .replace(/[/\\]+$/, '')
      .split(/[/\\:]/)
      .pop() ?? ''
  const slug = last
    .replace(/\.git$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, ORG_NAME_MAX)
    .replace(/-+$/, '')
  return slug || 'org'
}

/** The cache's folder name for a URL: readable, and unique per URL (every project on the machine shares it). */
export function orgCacheKey(url: string): string {
  const digest = createHash('sha256').update(url).digest('hex').slice(0, 16)
  return `${orgNameFromUrl(url).slice(0, 24)}-${digest}`
}

/** The issues of one pin, each naming its field in config.yaml's org list. */
export function pinIssues(pin: OrgPin, at: number, file: string): Issue[] {
  const issues: Issue[] = []
  const field = (f: string) => `org[${at}].${f}`
  const name = orgNameProblem(pin.name)
  if (name) issues.push({file, field: field('name'), message: name, fix: 'rename it, e.g. "acme-platform"'})
  const url = orgUrlProblem(pin.url)
  if (url) issues.push({file, field: field('url'), message: url, fix: 'give the URL you would pass to "git clone"'})
  const ref = orgRefProblem(pin.ref)
  if (ref) issues.push({file, field: field('ref'), message: ref, fix: 'name the branch the org store is reviewed on'})
  if (!COMMIT.test(pin.commit))
    issues.push({
      file,
      field: field('commit'),
      message: 'must be a full commit id (40 hex digits)',
      fix: 'run "cairn org update" to set it',
    })
  return issues
}

/** Refuses a list of pins that name a layer twice. */
export function checkPinList(pins: readonly OrgPin[], file: string): void {
  const seen = new Map<string, number>()
  const issues: Issue[] = []
  pins.forEach((p, i) => {
    const before = seen.get(p.name)
    if (before !== undefined)
      issues.push({
        file,
        field: `org[${i}].name`,
        message: `names the layer "${p.name}" again (org[${before}] has it)`,
        fix: 'give each layer its own name',
      })
    seen.set(p.name, i)
  })
  if (issues.length) throw validationError(issues, `Invalid config in ${file}`)
}

/** The pin a name selects, or a not-found error listing the names there are. */
export function pinNamed(pins: readonly OrgPin[], name: string): OrgPin {
  const pin = pins.find(p => p.name === name)
  if (pin) return pin
  const known = pins.map(p => `"${p.name}"`).join(', ')
  throw new CairnError(
    'not_found',
    `No org layer named "${name}". Fix: ${known ? `name one of ${known}` : 'subscribe first with "cairn org add <url>"'}`,
    {name, known: pins.map(p => p.name)},
  )
}

/** The active cards a pin change brings, by id: what `cairn org update` lists. */
export interface CardChanges {
  added: string[]
  changed: string[]
  removed: string[]
}

/** The changes between two listings of active cards (id → blob id), each list sorted. */
export function cardChanges(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): CardChanges {
  const added: string[] = []
  const changed: string[] = []
  const removed: string[] = []
  for (const [id, blob] of after) {
    const old = before.get(id)
    if (old === undefined) added.push(id)
    else if (old !== blob) changed.push(id)
  }
  for (const id of before.keys()) if (!after.has(id)) removed.push(id)
  return {added: added.sort(), changed: changed.sort(), removed: removed.sort()}
}

export const noChanges = (c: CardChanges): boolean => !c.added.length && !c.changed.length && !c.removed.length

/** The commit-message body of a pin change: one line per card, "+" added, "~" changed, "-" removed. */
export function changesBody(layers: {pin: OrgPin; from: string | null; changes: CardChanges}[]): string {
  return layers
    .map(({pin, from, changes}) => {
      const head = from
        ? `${pin.name}: ${from.slice(0, 12)}..${pin.commit.slice(0, 12)} (${pin.ref})`
        : `${pin.name}: ${pin.commit.slice(0, 12)} (${pin.ref})`
      const lines = [
        ...changes.added.map(id => `+ ${id}`),
        ...changes.changed.map(id => `~ ${id}`),
        ...changes.removed.map(id => `- ${id}`),
      ]
      return [head, ...(lines.length ? lines : ['(no active card changed)'])].join('\n')
    })
    .join('\n\n')
}
