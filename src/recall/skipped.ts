import {logHookError} from '../store/agents/hook-session.js'
import type {Store} from '../store/layout.js'
import {localRel} from '../store/agents/local.js'
import {cannotLoad, type SkippedCard} from './format.js'
import {readTextIn, writeFileIn} from '../store/files/store-files.js'

/** The file that remembers which problems the hook log already holds, one "size mtime path" line each. */
const LOGGED = 'hook-skipped-logged'
const keyOf = (s: SkippedCard) => `${s.size} ${s.mtime} ${s.path}`

/**
 * Appends each skipped card file to hook-errors.log once per version of the file: every hook opens
 * the index, and a broken card would otherwise add a line per prompt. Whoever built the index (the
 * CLI, a hook, the background rebuild), the first hook to see a problem logs it. Two hooks at the
 * same moment may both log it; that costs a duplicate line, never a lost one.
 */
export function logSkippedOnce(primary: Store, skipped: readonly SkippedCard[]): void {
  if (skipped.length === 0) return
  const file = localRel(primary, LOGGED)
  let logged: Set<string>
  try {
    logged = new Set((readTextIn(primary.root, file, 1024 * 1024) ?? '').split('\n'))
  } catch {
    logged = new Set()
  }
  const fresh = skipped.filter(s => !logged.has(keyOf(s)))
  if (fresh.length === 0) return
  const at = new Date().toISOString()
  let written = false
  for (const s of fresh) written = logHookError(primary, `${at} ${cannotLoad(s)}`) || written
  try {
    // Replaced whole (never written through a link); only the current problems are kept.
    if (written) writeFileIn(primary.root, file, `${skipped.map(keyOf).join('\n')}\n`)
  } catch {
    // Unwritable: the lines are logged again next time, which is better than never.
  }
}
