/**
 * The GitHub workflow templates cairn ships: the one template value (the pinned package) and
 * what `cairn ci install` does with a file already in .github/workflows/.
 */

export const PACKAGE_PLACEHOLDER = '{{cairn_package}}'

/** The first line of every cairn workflow; a file without it is the user's own. */
export const WORKFLOW_HEADER = '# cairn:workflow '

const PIN_LINE = /^(\s*CAIRN_PACKAGE:\s*).*$/m

/** edited: a cairn workflow someone changed, kept but for its pin, which is updated. */
export type WorkflowAction = 'created' | 'unchanged' | 'pinned' | 'edited' | 'replaced' | 'kept'

/** The template with the package spec (`cairn-memory@0.1.0`) in place of its placeholder. */
export function renderWorkflow(template: string, pkg: string): string {
  return template.split(PACKAGE_PLACEHOLDER).join(pkg)
}

export const isCairnWorkflow = (text: string): boolean => text.startsWith(WORKFLOW_HEADER)

/** The CAIRN_PACKAGE value a workflow pins, or null when it has no such line. */
export function pinnedPackage(text: string): string | null {
  const m = PIN_LINE.exec(text)
  return m
    ? m[0]
        .slice(m[1].length)
        .trim()
        .replace(/^"(.*)"$/, '$1')
    : null
}

const unpinned = (text: string) => text.replace(PIN_LINE, '$1')

/**
 * What to do with one workflow file, and the text to write: write it when missing; leave it
 * when it is already the rendered template; update the pin of a cairn workflow that differs in
 * nothing else. A cairn workflow someone edited keeps the edits, but its pin is updated too (an
 * old cairn would run against new cards); a file of the user's own is kept. Forced, the
 * template replaces either.
 */
export function planWorkflow(
  existing: string | null,
  rendered: string,
  force: boolean,
): {action: WorkflowAction; text: string} {
  if (existing === null) return {action: 'created', text: rendered}
  if (existing === rendered) return {action: 'unchanged', text: existing}
  if (force) return {action: 'replaced', text: rendered}
  const pin = pinnedPackage(rendered)
  if (!isCairnWorkflow(existing) || pinnedPackage(existing) === null || pin === null)
    return {action: 'kept', text: existing}
  const repinned = existing.replace(PIN_LINE, `$1"${pin}"`)
  if (unpinned(existing) === unpinned(rendered)) return {action: 'pinned', text: rendered}
  return repinned === existing ? {action: 'kept', text: existing} : {action: 'edited', text: repinned}
}
