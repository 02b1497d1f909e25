/**
 * The project key ("host/owner/repo") names a project in card scope. There is one spelling of
 * it: lowercase, without ".git" or trailing slashes, whether it comes from config or a remote.
 */
export function normalizeProjectKey(key: string): string | null {
  const k = key
    .trim()
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '')
    .toLowerCase()
  return k || null
}

/** The key of a remote URL (https, ssh or scp-like); null for a local path or file: URL. */
export function projectKeyFromUrl(url: string): string | null {
  const trimmed = url
    .trim()
    .replace(/\.git$/, '')
    .replace(/\/+$/, '')
  const scp = /^[\w.-]+@([\w.-]+):(.+)$/.exec(trimmed)
  if (scp) return normalizeProjectKey(`${scp[1]}/${scp[2]}`)
  try {
    const u = new URL(trimmed)
    if (u.protocol === 'file:') return null
    return normalizeProjectKey(`${u.hostname}${u.pathname}`)
  } catch {
    return null
  }
}
