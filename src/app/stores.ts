import {isSafeId} from '../domain/card/format.js'
import {CairnError} from '../domain/errors.js'
import type {Context} from '../store/context.js'
import {readConfig} from '../store/config.js'
import {existingPersonalStore, optionalProjectStore, projectStore, type Store} from '../store/layout.js'

export type StoreChoice = 'project' | 'personal' | 'all'

/** The stores a read command looks at; the project copy comes first so it wins on a clash. */
export function readableStores(ctx: Context, choice: StoreChoice = 'all'): Store[] {
  if (choice === 'project') return [projectStore(ctx)]
  const personal = existingPersonalStore(ctx)
  if (choice === 'personal') {
    if (!personal) throw new CairnError('not_initialised', 'the personal store does not exist yet. Run "cairn init --personal", or propose a card with layer personal')
    return [personal]
  }
  const project = optionalProjectStore(ctx)
  if (!project && !personal) projectStore(ctx) // throws the precise not-a-repo / not-initialised error
  return [project, personal].filter((s): s is Store => !!s)
}

/** Ids reach the file system as names: anything but a plain slug is refused before any lookup. */
export function assertSafeId(id: string): void {
  if (!isSafeId(id)) {
    throw new CairnError('validation', `"${id}" is not a valid card id: ids are kebab-case slugs (lowercase letters, digits, single hyphens). Fix: pass the id as "cairn list" shows it`, {
      issues: [{field: 'id', message: 'not a kebab-case slug', fix: 'pass the id as "cairn list" shows it'}],
    })
  }
}

/** Whether a write commits, from config (commit.enabled / commit.verify) and --no-commit. */
export function commitOptions(store: Store, noCommit?: boolean): {commit: boolean; verify: boolean} {
  const config = readConfig(store)
  return {commit: config.commit.enabled && !noCommit, verify: config.commit.verify}
}
