import {
  LIST_FIELDS,
  type ModifiableField,
  type ModifyIssue,
  MODIFIABLE,
  parseSets,
  planModify,
  splitList,
} from '../domain/card/modify.js'
import {parseCard, patchCard, replaceBody} from '../domain/card/format.js'
import {hasEvidence, repoPathProblem} from '../domain/card/schema.js'

const PATH_FIX = 'give a path relative to the repository root, with forward slashes, e.g. src/app.ts'
import {CairnError, validationError} from '../domain/errors.js'
import {type Context, isoSeconds} from '../context.js'
import {openStores} from './stores.js'
import type {Store} from '../store/layout.js'
import {type Stores, writable} from '../store/stores.js'
import type {LoadedCard} from '../store/cards/cards.js'

export {LIST_FIELDS, MODIFIABLE, parseSets}

export interface ModifyResult {
  id: string
  from: {store: 'project' | 'personal'; path: string}
  to: {store: 'project' | 'personal'; path: string}
  changed: ModifiableField[]
  commits: {project?: string | null; personal?: string | null}
}

/**
 * Changes review-time fields: planModify says what changes (or what is wrong), then one
 * transaction writes it. A slug change renames, a type change moves, a layer flip changes store.
 */
export async function modify(
  ctx: Context,
  input: {id: string; sets: string[]; noCommit?: boolean},
): Promise<ModifyResult> {
  const sets = parseSets(input.sets)
  const stores = openStores(ctx)
  const found = await stores.findCard(input.id)
  const c = {...found, store: writable(found.store)}
  const {patches, issues, to, body} = planModify(c, sets)
  if (issues.length > 0) throw refusal(issues[0])
  const flip = to.layer !== (c.store.kind === 'personal' ? 'personal' : 'team')
  const targetStore = !flip
    ? c.store
    : to.layer === 'personal'
      ? await stores.ensurePersonal()
      : stores.requireProject()
  await checkEvidence(stores, c.store, sets, c.path)
  await checkSuperseded(stores, c, sets)
  // A person who changes what an active team card cites has looked at it against the code: a confirmation (cairn
  // stale). A change of its load or triggers says nothing about the code, and confirms nothing.
  const cites = [...sets.keys()].some(k => (CITING as readonly string[]).includes(k))
  const evidenced = cites && (hasEvidence(c.card.evidence) || sets.has('symbols') || sets.has('evidence_paths'))
  if (c.location === 'cards' && c.card.status === 'active' && !flip && evidenced && c.store.kind === 'project') {
    const head = await stores.headCommit(c.store)
    patches.push({path: ['evidence', 'verified_at'], value: isoSeconds(ctx.now())})
    patches.push({path: ['evidence', 'verified_commit'], value: head})
  }
  const location = c.location === 'archive' ? 'cards' : c.location
  const target = stores.cardPath(targetStore, location, to.type, to.id)
  const renames: [string, string][] = to.id !== c.card.id ? [[c.card.id, to.id]] : []
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
        .find(targetStore, to.id, {archive: true})
        .find(f => (flip || f.path !== c.path) && dest.exists(f.path))
      if (clash)
        throw new CairnError(
          'conflict',
          `Cannot modify "${c.card.id}": id "${to.id}" is already used by ${clash.path}. Fix: choose another slug`,
          {existing: clash.path},
        )
      const patched = patchCard(current, c.path, patches)
      // The body (a new rule) is made from the card as it is now, so a parallel edit of another field is kept.
      const text = body ? replaceBody(patched, c.path, body(parseCard(current, c.path))) : patched
      if (flip) source.remove(c.path)
      else if (target !== c.path) source.move(c.path, target)
      dest.write(target, text)
    },
  )
  const result: ModifyResult = {
    id: to.id,
    from: {store: c.store.kind, path: c.path},
    to: {store: targetStore.kind, path: target},
    changed: [...sets.keys()],
    commits: {},
  }
  result.commits[c.store.kind] = commits[c.store.kind] ?? null
  if (flip) result.commits[targetStore.kind] = commits[targetStore.kind] ?? null
  return result
}

/** The sets that change what a card cites in the code. */
const CITING = ['paths', 'scope', 'evidence_paths', 'symbols'] as const

/**
 * Evidence is what the repository holds: a path to nothing, or a symbol no file has, is a typo (exit 6), never
 * recorded, or cairn stale would watch nothing and the hook would call it deleted.
 */
async function checkEvidence(
  stores: Stores,
  store: Store,
  sets: ReadonlyMap<string, string>,
  file: string,
): Promise<void> {
  const list = (k: string) =>
    (sets.get(k) ?? '')
      .split(',')
      .map(x => x.trim())
      .filter(Boolean)
  const paths = list('evidence_paths')
  const symbols = list('symbols')
  if (!paths.length && !symbols.length) return
  if (store.kind !== 'project') {
    const fix = 'drop the evidence set: a personal card travels between repositories, so no one repository confirms it'
    throw validationError([
      {file, field: paths.length ? 'evidence_paths' : 'symbols', message: 'cannot be set on a personal card', fix},
    ])
  }
  const issues = []
  for (const p of paths) {
    const problem = repoPathProblem(p)
    if (problem) issues.push({file, field: 'evidence_paths', message: `${p} ${problem}`, fix: PATH_FIX})
  }
  if (issues.length) throw validationError(issues)
  for (const p of stores.missing(store, paths))
    issues.push({
      file,
      field: 'evidence_paths',
      message: `${p} is not in the working tree`,
      fix: 'cite a file or folder the repository holds (check the spelling)',
    })
  const found = await (await stores.code(store)).symbolsFound(symbols, null)
  for (const x of symbols.filter(y => !found.has(y)))
    issues.push({
      file,
      field: 'symbols',
      message: `${x} is in none of the repository's files`,
      fix: 'cite a symbol the code holds (check the spelling and case)',
    })
  if (issues.length) throw validationError(issues)
}

/** The first problem, as modify has always refused it: a validation error naming the file, or a refused transition. */
function refusal({code, ...issue}: ModifyIssue): CairnError {
  return code === 'invalid_transition' ? new CairnError('invalid_transition', issue.message) : validationError([issue])
}

/** Each card a modify says this one supersedes is an active card of its store: a typo is refused, not recorded. */
async function checkSuperseded(stores: Stores, c: LoadedCard, sets: ReadonlyMap<ModifiableField, string>) {
  const given = sets.get('supersedes')
  const ids = given === undefined ? [] : splitList(given)
  for (const id of ids) {
    const found = stores.find(c.store, id).find(f => f.location === 'cards')
    const card = found && (await stores.load(found)).card
    if (!card || card.status !== 'active')
      throw refusal({
        file: c.path,
        field: 'supersedes',
        message: `"${id}" is not an active card of this store`,
        fix: 'give the id of an active card (cairn list --status active)',
        code: 'validation',
      })
  }
}
