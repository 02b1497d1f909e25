import {isRetired} from './card/types.js'
import {CairnError} from './errors.js'

/**
 * The card lifecycle: candidate → pending (pending/) → active (cards/) → deprecated /
 * superseded → archived (archive/<ts>/). These helpers decide what a move may do.
 */

export type Place = 'pending' | 'cards' | 'archive'

/** Archive directory names sort by time and are safe on every file system. */
export function archiveStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '')
}

export const ARCHIVE_STAMP = /^\d{8}T\d{6}Z(?:-\d+)?$/

export function assertStamp(ts: string): void {
  if (!ARCHIVE_STAMP.test(ts)) {
    throw new CairnError(
      'validation',
      `"${ts}" is not an archive timestamp, like 20261129T100000Z. Fix: pick one from "cairn restore --list"`,
      {
        issues: [{field: 'ts', message: 'not an archive timestamp', fix: 'pick one from "cairn restore --list"'}],
      },
    )
  }
}

/** Oldest first: by the time, then by the -N a second archive in the same second gets (-10 after -9). */
export function compareStamps(a: string, b: string): number {
  const [ta, na = '1'] = a.split('-')
  const [tb, nb = '1'] = b.split('-')
  return ta < tb ? -1 : ta > tb ? 1 : Number(na) - Number(nb)
}

/** First free name for a restored card: never overwrite, never reuse a live id. */
export function restoredId(id: string, taken: (candidate: string) => boolean): string {
  if (!taken(id)) return id
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `restored-${id}` : `restored-${n}-${id}`
    if (!taken(candidate)) return candidate
  }
}

/** Whether a deferral (cairn review defer) still holds at now: review leaves the card out until its date. */
export const isDeferred = (until: string | null, now: Date): until is string =>
  !!until && new Date(until).getTime() > now.getTime()

export function assertApprovable(id: string, place: Place, status: string, path: string): void {
  if (place !== 'pending' || !(status === 'pending' || isRetired(status))) {
    const where = place === 'archive' ? 'archived' : status
    throw new CairnError(
      'invalid_transition',
      `Cannot approve "${id}": it is ${where}, at ${path}; only cards in pending/ can be approved. Fix: give the id of a pending card, as "cairn review list" shows it`,
      {id, path, status},
    )
  }
}

export function assertPending(verb: string, id: string, place: Place, path: string): void {
  if (place !== 'pending') {
    throw new CairnError(
      'invalid_transition',
      `Cannot ${verb} "${id}": it is not pending, at ${path}; "${verb}" applies to cards in pending/ only. Fix: give the id of a pending card, as "cairn review list" shows it`,
      {id, path},
    )
  }
}
