import {validationError} from '../domain/errors.js'
import {
  CURSOR_RULES_DIR,
  cursorRuleName,
  isCairnRule,
  isCursorRuleName,
  renderCursorRule,
} from '../domain/export/cursor-rules.js'
import type {Context} from '../context.js'
import {openStores} from './stores.js'
import {warnUnreadable} from './export-agents-md.js'
import {sharedActiveCards} from './layers.js'

export interface ExportCursorRulesInput {
  dryRun?: boolean
}

export interface ExportedRule {
  id: string
  /** Repo-relative path of the .mdc file. */
  file: string
  action: 'created' | 'updated' | 'unchanged'
}

export interface ExportCursorRulesResult {
  dir: string
  rules: ExportedRule[]
  /** Rule files cairn wrote earlier for cards that are no longer active and narrow, removed (with dryRun, to remove). */
  removed: string[]
  written: boolean
}

/**
 * Writes one Cursor rule per active narrow card of the project store and its org layers (.cursor/rules/cairn-<id>.mdc) and removes the
 * ones cairn wrote for cards that are gone. The user's own rules, even named cairn-*, are never touched. Never commits.
 */
export async function exportCursorRules(
  ctx: Context,
  input: ExportCursorRulesInput = {},
): Promise<ExportCursorRulesResult> {
  const stores = openStores(ctx)
  const store = stores.requireProject()
  stores.noteInterrupted([store])
  // The org layers' cards are reviewed for the team too; a project card overrides one of the same id.
  const {cards, unreadable} = await sharedActiveCards(stores)
  warnUnreadable(ctx, unreadable)
  const narrow = cards.filter(c => c.scope.paths.length > 0).sort((a, b) => (a.id < b.id ? -1 : 1))
  const files = await stores.repoFiles(store)
  const at = (name: string) => `${CURSOR_RULES_DIR}/${name}`
  const wanted = new Map(narrow.map(card => [at(cursorRuleName(card.id)), {card, text: renderCursorRule(card)}]))
  // A rule another run removed between the listing and the read is simply not there.
  const existing = new Map(
    files
      .list(CURSOR_RULES_DIR)
      .filter(isCursorRuleName)
      .flatMap(name => {
        const text = files.read(at(name))
        return text === null ? [] : [[at(name), text] as const]
      }),
  )
  const theirs = [...wanted.keys()].filter(f => existing.has(f) && !isCairnRule(existing.get(f)!))
  if (theirs.length) {
    const fix = 'rename your rule file (cairn owns the cairn-<card id>.mdc names it writes), then run the export again'
    throw validationError(
      theirs.map(file => ({file, field: '(file)', message: 'exists and was not written by cairn', fix})),
      'The export would overwrite rules cairn did not write; nothing was written',
    )
  }
  const rules: ExportedRule[] = [...wanted].map(([file, {card, text}]) => {
    const old = existing.get(file)
    return {id: card.id, file, action: old === undefined ? 'created' : old === text ? 'unchanged' : 'updated'}
  })
  const removed = [...existing].filter(([file, text]) => !wanted.has(file) && isCairnRule(text)).map(([file]) => file)
  const written = !input.dryRun && (removed.length > 0 || rules.some(r => r.action !== 'unchanged'))
  if (!input.dryRun) {
    for (const r of rules) if (r.action !== 'unchanged') files.write(r.file, wanted.get(r.file)!.text)
    for (const file of removed) files.remove(file)
  }
  return {dir: CURSOR_RULES_DIR, rules, removed, written}
}
