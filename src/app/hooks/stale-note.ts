import {staleNote} from '../../domain/stale.js'
import type {Store} from '../../store/layout.js'
import type {Stores} from '../../store/stores.js'

/** A recalled card's note, when it may be stale. */
export type StaleNote = (card: {store: 'project' | 'personal'; cited: string[]}) => string | undefined

/**
 * The light index's note for a project card whose cited files or folders are gone from the working tree: a stat per
 * cited path of the few cards shown, no git. A personal card's paths belong to other repositories: never checked.
 */
export function staleNotes(door: Stores, stores: Store[]): StaleNote {
  const project = stores.find(s => s.kind === 'project')
  return card => {
    if (!project || card.store !== 'project' || !card.cited?.length) return undefined
    const gone = door.missing(project, card.cited)
    if (!gone.length) return undefined
    const note = staleNote(gone.map(path => ({kind: 'deleted' as const, path})))
    return `${note[0].toUpperCase()}${note.slice(1)}`
  }
}
