import {type ModifiableField, type ModifyIssue, MODIFIABLE, parseSets, planModify} from '../domain/card/modify.js'
import {patchCard} from '../domain/card/format.js'
import {hasEvidence} from '../domain/card/schema.js'
import {CairnError, validationError} from '../domain/errors.js'
import {type Context, isoSeconds} from '../context.js'
import {openStores} from './stores.js'

export {MODIFIABLE, parseSets}

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
  const c = await stores.findCard(input.id)
  const {patches, issues, to} = planModify(c, sets)
  if (issues.length > 0) throw refusal(issues[0])
  const flip = to.layer !== (c.store.kind === 'personal' ? 'personal' : 'team')
  const targetStore = !flip
    ? c.store
    : to.layer === 'personal'
      ? await stores.ensurePersonal()
      : stores.requireProject()
  // A person changing an active team card has looked at it against the code: a confirmation (cairn stale). A card
  // without evidence needs no record (the commit that last wrote it is its confirmation), and keeps its format.
  const evidenced = hasEvidence(c.card.evidence) && c.store.kind === 'project'
  if (c.location === 'cards' && c.card.status === 'active' && !flip && evidenced) {
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
          `cannot modify "${c.card.id}": id "${to.id}" is already used by ${clash.path}`,
          {existing: clash.path},
        )
      const text = patchCard(current, c.path, patches)
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

/** The first problem, as modify has always refused it: a validation error naming the file, or a refused transition. */
function refusal({code, ...issue}: ModifyIssue): CairnError {
  return code === 'invalid_transition' ? new CairnError('invalid_transition', issue.message) : validationError([issue])
}
