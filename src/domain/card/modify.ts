import {CairnError, type Issue} from '../errors.js'
import {deriveRelevancePaths} from '../relevance.js'
import type {Patch} from './format.js'
import type {Card} from './schema.js'
import {checkSlug} from './slug.js'
import {CONTENT_FIELDS, planContent} from './modify-content.js'
import {type CardType, isSafeId, normalizeType} from './types.js'

/** The review-time fields `cairn review modify --set field=value` changes. */
export const MODIFIABLE = [
  'type',
  'slug',
  'load',
  'scope',
  'paths',
  'category',
  'layer',
  'triggers',
  'derived_triggers',
  'symbols',
  'evidence_paths',
  'supersedes',
  ...CONTENT_FIELDS,
] as const
export type ModifiableField = (typeof MODIFIABLE)[number]

/** The fields whose value is a comma-separated list (a Chinese comma separates phrases too). */
export const LIST_FIELDS: readonly ModifiableField[] = [
  'paths',
  'triggers',
  'derived_triggers',
  'symbols',
  'evidence_paths',
  'supersedes',
  'use_when',
  'ignore_when',
  'aliases',
]

export type Layer = 'team' | 'personal'

/** The card as modify finds it: what it says, its file, and the store it is in. */
export interface CardToModify {
  card: Card
  path: string
  store: {kind: 'project' | 'personal'}
}

/**
 * A problem with one --set. Most are validation errors (exit 6); paths on a personal card is a
 * refused transition (exit 5).
 */
export interface ModifyIssue extends Issue {
  code: 'validation' | 'invalid_transition'
}

export interface ModifyPlan {
  /** The frontmatter changes, in the order they apply. */
  patches: Patch[]
  /** Every problem, in the order modify checks them; the card is changed only when there is none. */
  issues: ModifyIssue[]
  /** Where the card goes: its id, type and layer after the change (the current ones where a --set is refused). */
  to: {id: string; type: CardType; layer: Layer}
  /** The new body, from the card as it is inside the transaction's lock; none when the body does not change. */
  body?: (current: Card) => string
}

/**
 * `--set field=value` pairs by field; a later one for a field wins. A set that is not field=value,
 * or names a field modify does not change, is a usage error.
 */
export function parseSets(sets: string[]): Map<ModifiableField, string> {
  const out = new Map<ModifiableField, string>()
  for (const s of sets) {
    const eq = s.indexOf('=')
    const field = (eq < 0 ? s : s.slice(0, eq)).trim()
    if (eq < 0)
      throw new CairnError(
        'usage',
        `--set "${s}" is not field=value. Fix: write it as --set field=value, such as --set load=core`,
      )
    if (!(MODIFIABLE as readonly string[]).includes(field))
      throw new CairnError(
        'usage',
        `--set "${s}": "${field}" cannot be modified. Fix: use one of ${MODIFIABLE.join(', ')}`,
      )
    out.set(field as ModifiableField, s.slice(eq + 1).trim())
  }
  if (out.size === 0) throw new CairnError('usage', 'Nothing to modify. Fix: give at least one --set field=value')
  return out
}

const layerOf = (c: CardToModify): Layer => (c.store.kind === 'personal' ? 'personal' : 'team')

/**
 * What `review modify` does to a card, from the card and the sets alone: the frontmatter patches
 * and every problem with the sets. A slug change renames, a type change moves, a layer flip
 * changes store; where the file goes is the caller's (it knows the stores).
 */
export function planModify(c: CardToModify, sets: ReadonlyMap<ModifiableField, string>): ModifyPlan {
  const file = c.path
  const issues: ModifyIssue[] = []
  const refuse = (field: string, message: string, fix: string) =>
    issues.push({file, field, message, fix, code: 'validation'})
  const layer = sets.get('layer') ?? layerOf(c)
  if (layer !== 'team' && layer !== 'personal') refuse('layer', `"${layer}" is not a layer`, 'use team or personal')
  const id = sets.get('slug') ?? c.card.id
  const slugProblem = sets.has('slug') ? checkSlug(id, c.card.title) : undefined
  if (slugProblem) {
    const fix = slugProblem.suggestion
      ? `try "${slugProblem.suggestion}"`
      : 'choose 2–5 lowercase words joined by hyphens, 20–40 characters'
    refuse('slug', slugProblem.message, fix)
  }
  const type = sets.has('type') ? normalizeType(sets.get('type')) : c.card.type
  if (!type) {
    refuse('type', `"${sets.get('type')}" is not a card type`, 'use model, decision, guideline, pitfall or process')
  }
  const patches: Patch[] = []
  if (id !== c.card.id) patches.push({path: ['id'], value: id})
  if (type && type !== c.card.type) patches.push({path: ['type'], value: type})
  const load = sets.get('load')
  if (load !== undefined) {
    if (load !== 'core' && load !== 'recall') refuse('load', `"${load}" is not a load tier`, 'use core or recall')
    else patches.push({path: ['load'], value: load})
  }
  const category = sets.get('category')
  if (category !== undefined) {
    if (!category) refuse('category', 'must not be empty', 'give a category such as git, test, build')
    else patches.push({path: ['category'], value: category})
  }
  const to = {id, type: type ?? c.card.type, layer: layer === 'team' || layer === 'personal' ? layer : layerOf(c)}
  for (const [field, key] of [
    ['symbols', 'symbols'],
    ['evidence_paths', 'paths'],
  ] as const) {
    const given = sets.get(field)
    if (given !== undefined) patches.push({path: ['evidence', key], value: splitList(given)})
  }
  const supersedes = sets.get('supersedes')
  if (supersedes !== undefined) {
    const ids = splitList(supersedes)
    const bad = ids.find(s => !isSafeId(s) || s === c.card.id)
    if (bad !== undefined)
      refuse('supersedes', `"${bad}" is not another card's id`, 'give the ids of the active cards this one replaces')
    else patches.push({path: ['supersedes'], value: ids})
  }
  const triggers = triggerPatches(sets, file)
  const scope = scopePatches(c, sets, to.layer, file)
  const content = planContent(c.card, sets, file)
  return {
    patches: [...patches, ...triggers.patches, ...scope.patches, ...content.patches],
    issues: [
      ...issues,
      ...triggers.issues,
      ...scope.issues,
      ...content.issues.map(i => ({...i, code: 'validation' as const})),
    ],
    to,
    ...(content.body ? {body: content.body} : {}),
  }
}

interface Planned {
  patches: Patch[]
  issues: ModifyIssue[]
}

/** Triggers a person gives replace cairn's derived ones: the human took over. */
function triggerPatches(sets: ReadonlyMap<ModifiableField, string>, file: string): Planned {
  const patches: Patch[] = []
  const issues: ModifyIssue[] = []
  const given = sets.get('triggers')
  const triggers = given !== undefined ? splitList(given, /[,，]/) : []
  if (given !== undefined) patches.push({path: ['recall', 'triggers'], value: triggers})
  if (sets.get('derived_triggers')) {
    const fix = 'give your phrases with --set triggers=<phrase>,<phrase>'
    const message = 'can only be cleared: cairn derives them'
    issues.push({file, field: 'derived_triggers', message, fix, code: 'validation'})
  } else if (triggers.length || sets.has('derived_triggers')) {
    patches.push({path: ['recall', 'derived_triggers'], value: []})
  }
  return {patches, issues}
}

/** A personal card is always broad and global; a team card's scope is what the sets say. */
function scopePatches(
  c: CardToModify,
  sets: ReadonlyMap<ModifiableField, string>,
  layer: Layer,
  file: string,
): Planned {
  if (layer === 'personal') {
    if (sets.get('paths')) {
      const message = `cannot set paths on "${c.card.id}": personal cards are always broad`
      return {patches: [], issues: [{file, field: 'paths', message, code: 'invalid_transition'}]}
    }
    const broad = {level: 'global', project_key: null, module_path: null, paths: []}
    return {patches: [{path: ['scope'], value: broad}], issues: []}
  }
  const patches: Patch[] = []
  const issues: ModifyIssue[] = []
  const refuse = (message: string, fix: string) => issues.push({file, field: 'scope', message, fix, code: 'validation'})
  const scope = sets.get('scope')
  const paths = sets.get('paths')
  if (scope === 'broad') patches.push({path: ['scope', 'paths'], value: []})
  else if (scope === 'narrow') {
    const narrow =
      paths !== undefined
        ? splitList(paths)
        : c.card.scope.paths.length
          ? c.card.scope.paths
          : deriveRelevancePaths(c.card.provenance.recent_paths, {scope: 'narrow'})
    if (narrow.length === 0) {
      const message = 'narrow needs paths, and the card has no recent paths to derive them from'
      refuse(message, 'add --set paths=<glob>,<glob>')
    } else patches.push({path: ['scope', 'paths'], value: narrow})
  } else if (scope === 'project' || scope === 'project-family' || scope === 'global') {
    patches.push({path: ['scope', 'level'], value: scope})
  } else if (scope !== undefined) {
    refuse(`"${scope}" is not a scope`, 'use narrow, broad, project, project-family or global')
  }
  if (paths !== undefined && scope !== 'narrow') patches.push({path: ['scope', 'paths'], value: splitList(paths)})
  // A personal card becoming a team card leaves global scope for this project unless told otherwise.
  if (c.store.kind === 'personal' && !patches.some(p => p.path[1] === 'level')) {
    patches.push({path: ['scope', 'level'], value: 'project'})
  }
  return {patches, issues}
}

/** Comma-separated values; between phrases a Chinese comma separates too. */
/** A --set list: comma-separated, trimmed, blanks dropped. */
export const splitList = (v: string, sep: RegExp = /,/): string[] =>
  v
    .split(sep)
    .map(p => p.trim())
    .filter(Boolean)
