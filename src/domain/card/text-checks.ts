/** Checks of a card's text that the hooks use too: plain functions, no schema library (the prompt hook loads no zod). */

/** C0 controls other than tab, LF and CR, DEL, and C1: a NUL or an escape sequence has no place in a card. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

/** The first control character in s (its code point, U+ form, and 1-based position), or null when there is none. */
export function controlChar(s: string): {code: string; position: number} | null {
  const m = CONTROL.exec(s)
  if (!m) return null
  return {code: m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'), position: m.index + 1}
}

/** Names the first control character in s, or null when there is none. */
export function controlCharProblem(s: string): string | null {
  const c = controlChar(s)
  return c && `contains the control character U+${c.code} at position ${c.position}`
}

export type RepoPathFault = 'backslash' | 'absolutePath' | 'parentSegment'

/** Why p is not a repo-relative path (absolute, a ".." segment, a backslash), by name, or null. */
export function repoPathFault(path: string): RepoPathFault | null {
  // A backslash is a Windows separator or a glob escape; either way it can hide "..\" or "C:\".
  if (path.includes('\\')) return 'backslash'
  const p = path.replace(/^!+/, '') // a negated glob
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return 'absolutePath'
  // Brace and extglob alternatives count as segments too: "{..,x}/y" expands to "../y".
  if (/(?:^|[/{,(|])\.\.(?:$|[/},)|])/.test(p)) return 'parentSegment'
  return null
}

const PATH_FAULTS: Record<RepoPathFault, string> = {
  backslash: 'contains a backslash',
  absolutePath: 'is an absolute path',
  parentSegment: 'has a ".." segment, which leaves the repository',
}

/** Why p is not a repo-relative path (absolute, a ".." segment, a backslash), or null. */
export function repoPathProblem(path: string): string | null {
  const fault = repoPathFault(path)
  return fault && PATH_FAULTS[fault]
}
