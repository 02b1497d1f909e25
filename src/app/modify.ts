import {patchCard} from '../domain/card/format.js'
import {checkSlug} from '../domain/card/slug.js'
import {normalizeType, type CardType} from '../domain/card/types.js'
import {CairnError, validationError} from '../domain/errors.js'
import {deriveRelevancePaths} from '../domain/relevance.js'
import type {LoadedCard} from '../store/cards/cards.js'
import type {Context} from '../context.js'
import {openStores} from './stores.js'

export const MODIFIABLE = [
  'type', 'slug', 'load', 'scope', 'paths', 'category', 'layer', 'triggers', 'derived_triggers',
] as const
type Field = (typeof MODIFIABLE)[number]

export interface ModifyResult {
  id: string
  from: {store: 'project' | 'personal'; path: string}
  to: {store: 'project' | 'personal'; path: string}
  changed: Field[]
  commits: {project?: string | null; personal?: string | null}
}

export function parseSets(sets: string[]): Map<Field, string> {
  const out = new Map<Field, string>()
  for (const s of sets) {
    const eq = s.indexOf('=')
    const field = (eq < 0 ? s : s.slice(0, eq)).trim()
    if (eq < 0) throw new CairnError('usage', `--set "${s}" is not field=value`)
    if (!(MODIFIABLE as readonly string[]).includes(field))
      throw new CairnError('usage', `--set "${s}": "${field}" cannot be modified; use one of ${MODIFIABLE.join(', ')}`)
    out.set(field as Field, s.slice(eq + 1).trim())
  }
  if (out.size === 0) throw new CairnError('usage', 'give at least one --set field=value')
  return out
}

const bad = (file: string, field: string, message: string, fix: string) =>
  validationError([{file, field, message, fix}])

/** Changes review-time fields; a slug change renames, a type change moves, a layer flip changes store. */
export async function modify(
  ctx: Context,
  input: {id: string; sets: string[]; noCommit?: boolean},
): Promise<ModifyResult> {
  const sets = parseSets(input.sets)
  const stores = openStores(ctx)
  const c = await stores.findCard(input.id)
  const file = c.path
  const layer = sets.get('layer') ?? (c.store.kind === 'personal' ? 'personal' : 'team')
  if (layer !== 'team' && layer !== 'personal')
    throw bad(file, 'layer', `"${layer}" is not a layer`, 'use team or personal')
  const newId = sets.get('slug') ?? c.card.id
  const slugProblem = sets.has('slug') ? checkSlug(newId) : undefined
  if (slugProblem)
    throw bad(
      file,
      'slug',
      slugProblem.message,
      slugProblem.suggestion ? `try "${slugProblem.suggestion}"` : 'choose 2–5 words, 20–40 characters',
    )
  const newType = sets.has('type') ? normalizeType(sets.get('type')) : c.card.type
  if (!newType)
    throw bad(
      file,
      'type',
      `"${sets.get('type')}" is not a card type`,
      'use model, decision, guideline, pitfall or process',
    )
  const patches: [string[], unknown][] = []
  if (newId !== c.card.id) patches.push([['id'], newId])
  if (newType !== c.card.type) patches.push([['type'], newType])
  if (sets.has('load')) {
    const load = sets.get('load')
    if (load !== 'core' && load !== 'recall')
      throw bad(file, 'load', `"${load}" is not a load tier`, 'use core or recall')
    patches.push([['load'], load])
  }
  if (sets.has('category')) {
    if (!sets.get('category'))
      throw bad(file, 'category', 'must not be empty', 'give a category such as git, test, build')
    patches.push([['category'], sets.get('category')])
  }
  patches.push(...triggerPatches(sets, file))
  patches.push(...scopePatches(c, sets, layer, file))
  const flip = layer !== (c.store.kind === 'personal' ? 'personal' : 'team')
  const targetStore = !flip ? c.store : layer === 'personal' ? await stores.ensurePersonal() : stores.requireProject()
  const location = c.location === 'archive' ? 'cards' : c.location
  const target = stores.cardPath(targetStore, location, newType as CardType, newId)
  const renames: [string, string][] = newId !== c.card.id ? [[c.card.id, newId]] : []
  const summary = `${c.card.id} (${[...sets.keys()].join(', ')})`
  // One transaction over the card's store (and the other store on a layer flip): the card is
  // read and patched inside the lock, so parallel edits of one card each keep their change.
  const {commits} = await stores.tx(
    {op: 'modify', summary, store: [c.store, targetStore], renames, noCommit: input.noCommit},
    tx => {
      const source = tx.in(c.store)
      const dest = tx.in(targetStore)
      const current = source.readFound(c.path, `card "${c.card.id}"`)
      const clash = stores
        .find(targetStore, newId, {archive: true})
        .find(f => (flip || f.path !== c.path) && dest.exists(f.path))
      if (clash)
        throw new CairnError(
          'conflict',
          `cannot modify "${c.card.id}": id "${newId}" is already used by ${clash.path}`,
          {existing: clash.path},
        )
      const text = patchCard(current, file, patches)
      if (flip) source.remove(c.path)
      else if (target !== c.path) source.move(c.path, target)
      dest.write(target, text)
    },
  )
  const result: ModifyResult = {
    id: newId,
    from: {store: c.store.kind, path: c.path},
    to: {store: targetStore.kind, path: target},
    changed: [...sets.keys()],
    commits: {},
  }
  result.commits[c.store.kind] = commits[c.store.kind] ?? null
  if (flip) result.commits[targetStore.kind] = commits[targetStore.kind] ?? null
  return result
}

/** Triggers a person gives replace cairn's derived ones: the human took over. */
function triggerPatches(sets: Map<Field, string>, file: string): [string[], unknown][] {
  const out: [string[], unknown][] = []
  const triggers = sets.has('triggers') ? splitList(sets.get('triggers')!, /[,，]/) : []
  if (sets.has('triggers')) out.push([['recall', 'triggers'], triggers])
  if (sets.has('derived_triggers') && sets.get('derived_triggers'))
    throw bad(
      file,
      'derived_triggers',
      'can only be cleared: cairn derives them',
      'give your phrases with --set triggers=<phrase>,<phrase>',
    )
  if (triggers.length || sets.has('derived_triggers')) out.push([['recall', 'derived_triggers'], []])
  return out
}

function scopePatches(c: LoadedCard, sets: Map<Field, string>, layer: string, file: string): [string[], unknown][] {
  if (layer === 'personal') {
    if (sets.has('paths') && sets.get('paths'))
      throw new CairnError('invalid_transition', `cannot set paths on "${c.card.id}": personal cards are always broad`)
    return [[['scope'], {level: 'global', project_key: null, module_path: null, paths: []}]]
  }
  const out: [string[], unknown][] = []
  const scope = sets.get('scope')
  if (scope === 'broad') out.push([['scope', 'paths'], []])
  else if (scope === 'narrow') {
    const paths = sets.has('paths')
      ? splitList(sets.get('paths')!)
      : c.card.scope.paths.length
        ? c.card.scope.paths
        : deriveRelevancePaths(c.card.provenance.recent_paths, {scope: 'narrow'})
    if (paths.length === 0)
      throw bad(
        file,
        'scope',
        'narrow needs paths, and the card has no recent paths to derive them from',
        'add --set paths=<glob>,<glob>',
      )
    out.push([['scope', 'paths'], paths])
  } else if (scope === 'project' || scope === 'project-family' || scope === 'global')
    out.push([['scope', 'level'], scope])
  else if (scope !== undefined)
    throw bad(file, 'scope', `"${scope}" is not a scope`, 'use narrow, broad, project, project-family or global')
  if (sets.has('paths') && scope !== 'narrow') out.push([['scope', 'paths'], splitList(sets.get('paths')!)])
  // A personal card becoming a team card leaves global scope for this project unless told otherwise.
  if (c.store.kind === 'personal' && !out.some(([p]) => p[1] === 'level')) out.push([['scope', 'level'], 'project'])
  return out
}

/** Comma-separated values; between phrases a Chinese comma separates too. */
const splitList = (v: string, sep: RegExp = /,/): string[] =>
  v
    .split(sep)
    .map(p => p.trim())
    .filter(Boolean)
