import fs from 'node:fs'
import {patchCard} from '../domain/card/format.js'
import {checkSlug} from '../domain/card/slug.js'
import {normalizeType, type CardType} from '../domain/card/types.js'
import {CairnError, validationError} from '../domain/errors.js'
import {deriveRelevancePaths} from '../domain/relevance.js'
import {findById, type LoadedCard} from '../store/cards.js'
import type {Context} from '../store/context.js'
import {abs, cardRel, projectStore, type Store} from '../store/layout.js'
import {transaction} from '../store/transaction.js'
import {personalStore} from './init.js'
import {findCard} from './locate.js'
import {commitOptions} from './stores.js'

export const MODIFIABLE = ['type', 'slug', 'load', 'scope', 'paths', 'category', 'layer'] as const
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
    if (!(MODIFIABLE as readonly string[]).includes(field)) throw new CairnError('usage', `--set "${s}": "${field}" cannot be modified; use one of ${MODIFIABLE.join(', ')}`)
    out.set(field as Field, s.slice(eq + 1).trim())
  }
  if (out.size === 0) throw new CairnError('usage', 'give at least one --set field=value')
  return out
}

const bad = (file: string, field: string, message: string, fix: string) => validationError([{file, field, message, fix}])

/** Changes review-time fields; a slug change renames, a type change moves, a layer flip changes store. */
export async function modify(ctx: Context, input: {id: string; sets: string[]; noCommit?: boolean}): Promise<ModifyResult> {
  const sets = parseSets(input.sets)
  const c = findCard(ctx, input.id)
  const file = c.path
  const layer = sets.get('layer') ?? (c.store.kind === 'personal' ? 'personal' : 'team')
  if (layer !== 'team' && layer !== 'personal') throw bad(file, 'layer', `"${layer}" is not a layer`, 'use team or personal')
  const newId = sets.get('slug') ?? c.card.id
  const slugProblem = sets.has('slug') ? checkSlug(newId) : undefined
  if (slugProblem) throw bad(file, 'slug', slugProblem.message, slugProblem.suggestion ? `try "${slugProblem.suggestion}"` : 'choose 2–5 words, 20–40 characters')
  const newType = sets.has('type') ? normalizeType(sets.get('type')) : c.card.type
  if (!newType) throw bad(file, 'type', `"${sets.get('type')}" is not a card type`, 'use model, decision, guideline, pitfall or process')
  const patches: [string[], unknown][] = []
  if (newId !== c.card.id) patches.push([['id'], newId])
  if (newType !== c.card.type) patches.push([['type'], newType])
  if (sets.has('load')) {
    const load = sets.get('load')
    if (load !== 'core' && load !== 'recall') throw bad(file, 'load', `"${load}" is not a load tier`, 'use core or recall')
    patches.push([['load'], load])
  }
  if (sets.has('category')) {
    if (!sets.get('category')) throw bad(file, 'category', 'must not be empty', 'give a category such as git, test, build')
    patches.push([['category'], sets.get('category')])
  }
  patches.push(...scopePatches(c, sets, layer, file))
  const targetStore = layer === (c.store.kind === 'personal' ? 'personal' : 'team') ? c.store : layer === 'personal' ? await personalStore(ctx) : projectStore(ctx)
  const location = c.location === 'archive' ? 'cards' : c.location
  const target = cardRel(targetStore, location, newType as CardType, newId)
  const clash = findById(targetStore, newId, {archive: true}).find(f => !(f.store === c.store && f.path === c.path))
  if (clash) throw new CairnError('conflict', `cannot modify "${c.card.id}": id "${newId}" is already used by ${clash.path}`, {existing: clash.path})
  const text = patchCard(fs.readFileSync(abs(c.store, c.path), 'utf8'), file, patches)
  const renames: [string, string][] = newId !== c.card.id ? [[c.card.id, newId]] : []
  const meta = {op: 'modify', summary: `${c.card.id} (${[...sets.keys()].join(', ')})`, cards: [...new Set([c.card.id, newId])], renames}
  const result: ModifyResult = {id: newId, from: {store: c.store.kind, path: c.path}, to: {store: targetStore.kind, path: target}, changed: [...sets.keys()], commits: {}}
  if (targetStore === c.store) {
    const {commit} = await transaction(ctx, c.store, {...meta, ...commitOptions(c.store, input.noCommit)}, tx => {
      if (target !== c.path) tx.move(c.path, target)
      tx.write(target, text)
    })
    result.commits[c.store.kind] = commit
    return result
  }
  return flipLayer(ctx, c, targetStore, target, text, meta, input.noCommit, result)
}

function scopePatches(c: LoadedCard, sets: Map<Field, string>, layer: string, file: string): [string[], unknown][] {
  if (layer === 'personal') {
    if (sets.has('paths') && sets.get('paths')) throw new CairnError('invalid_transition', `cannot set paths on "${c.card.id}": personal cards are always broad`)
    return [[['scope'], {level: 'global', project_key: null, module_path: null, paths: []}]]
  }
  const out: [string[], unknown][] = []
  const scope = sets.get('scope')
  if (scope === 'broad') out.push([['scope', 'paths'], []])
  else if (scope === 'narrow') {
    const paths = sets.has('paths') ? splitPaths(sets.get('paths')!) : c.card.scope.paths.length ? c.card.scope.paths : deriveRelevancePaths(c.card.provenance.recent_paths, {scope: 'narrow'})
    if (paths.length === 0) throw bad(file, 'scope', 'narrow needs paths, and the card has no recent paths to derive them from', 'add --set paths=<glob>,<glob>')
    out.push([['scope', 'paths'], paths])
  } else if (scope === 'project' || scope === 'project-family' || scope === 'global') out.push([['scope', 'level'], scope])
  else if (scope !== undefined) throw bad(file, 'scope', `"${scope}" is not a scope`, 'use narrow, broad, project, project-family or global')
  if (sets.has('paths') && scope !== 'narrow') out.push([['scope', 'paths'], splitPaths(sets.get('paths')!)])
  // A personal card becoming a team card leaves global scope for this project unless told otherwise.
  if (c.store.kind === 'personal' && !out.some(([p]) => p[1] === 'level')) out.push([['scope', 'level'], 'project'])
  return out
}

const splitPaths = (v: string): string[] => v.split(',').map(p => p.trim()).filter(Boolean)

/** Moves a card between stores: write it into the target first, then remove it from the source. */
async function flipLayer(ctx: Context, c: LoadedCard, target: Store, targetPath: string, text: string, meta: {op: string; summary: string; cards: string[]; renames: [string, string][]}, noCommit: boolean | undefined, result: ModifyResult): Promise<ModifyResult> {
  const added = await transaction(ctx, target, {...meta, ...commitOptions(target, noCommit)}, tx => tx.write(targetPath, text))
  try {
    const removed = await transaction(ctx, c.store, {...meta, ...commitOptions(c.store, noCommit)}, tx => tx.remove(c.path))
    result.commits[c.store.kind] = removed.commit
  } catch (error) {
    // Never leave the card in both stores, nor in neither: undo the copy, keep the original.
    await transaction(ctx, target, {...meta, op: 'modify', summary: `undo ${meta.summary}`, ...commitOptions(target, noCommit)}, tx => tx.remove(targetPath))
    throw error
  }
  result.commits[target.kind] = added.commit
  return result
}
