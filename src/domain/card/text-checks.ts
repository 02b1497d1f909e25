/** Checks of a card's text that the hooks use too: plain functions, no schema library (the prompt hook loads no zod). */

/** C0 controls other than tab, LF and CR, DEL, and C1: a NUL or an escape sequence has no place in a card. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

/** Names the first control character in s, or null when there is none. */
export function controlCharProblem(s: string): string | null {
  const m = CONTROL.exec(s)
  if (!m) return null
  const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
  return `contains the control character U+${code} at position ${m.index + 1}`
}

/** Why p is not a repo-relative path (absolute, a ".." segment, a backslash), or null. */
export function repoPathProblem(path: string): string | null {
  // A backslash is a Windows separator or a glob escape; either way it can hide "..\" or "C:\".
  if (path.includes('\\')) return 'contains a backslash'
  const p = path.replace(/^!+/, '') // a negated glob
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return 'is an absolute path'
  // Brace and extglob alternatives count as segments too: "{..,x}/y" expands to "../y".
  if (/(?:^|[/{,(|])\.\.(?:$|[/},)|])/.test(p)) return 'has a ".." segment, which leaves the repository'
  return null
}
