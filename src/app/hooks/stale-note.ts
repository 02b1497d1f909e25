import type {StoreKind} from '../../domain/org.js'
import {HOOK_TEXT} from '../../domain/messages/hooks.js'
import {cardLanguage, speak, type StoreLanguage} from '../../domain/messages/language.js'
import {staleNote} from '../../domain/stale.js'
import type {Store} from '../../store/layout.js'
import type {Stores} from '../../store/stores.js'

/** A recalled card's note, when it may be stale. */
export type StaleNote = (card: {store: StoreKind; cited: string[]}) => string | undefined

/**
 * The light index's note for a project card whose cited files or folders are gone from the working tree: a stat per
 * cited path of the few cards shown, no git. A personal card's paths belong to other repositories: never checked.
 */
export function staleNotes(door: Stores, stores: Store[], language: StoreLanguage): StaleNote {
  const project = stores.find(s => s.kind === 'project')
  return card => {
    if (!project || card.store !== 'project' || !card.cited?.length) return undefined
    const gone = door.missing(project, card.cited)
    if (!gone.length) return undefined
    const note = staleNote(
      gone.map(path => ({kind: 'deleted' as const, path})),
      cardLanguage(language),
    )
    return speak(HOOK_TEXT, language).staleNote(note)
  }
}
