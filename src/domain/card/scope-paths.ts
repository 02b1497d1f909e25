/**
 * How a narrow card's scope (module_path, paths) meets repository paths, for every floor that asks: recall's path
 * gate, the write hook's pre-filter, and who owns a card under CODEOWNERS. Pure, and imports nothing, so the hooks'
 * fast path pays for no more than these lines.
 */

/** Whether a repo-relative path is in a card's module path (a card without one is anywhere). */
export function inModule(modulePath: string | null, p: string): boolean {
  const mod = modulePath?.replace(/\/+$/, '')
  return !mod || p === mod || p.startsWith(`${mod}/`)
}

/**
 * The directory part of a glob before its first special character, with its slash ('' for a negated glob, or one
 * that starts with a wildcard); a glob without special characters is a path, and is returned whole.
 */
export function literalHead(glob: string): string {
  const at = glob.search(/[*?[\]{}()!+@\\]/)
  if (at < 0) return glob
  const head = glob.slice(0, at)
  return head.slice(0, head.lastIndexOf('/') + 1)
}
