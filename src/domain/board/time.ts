/** Timestamps are RFC 3339; the board stores them normalised to UTC ("Z"), seconds precision. */

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i

/** The normalised UTC form, or undefined when the text is not an RFC 3339 timestamp. */
export function normalizeTimestamp(text: string): string | undefined {
  if (!RFC3339.test(text)) return undefined
  const date = new Date(text)
  if (Number.isNaN(date.getTime())) return undefined
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** Whole seconds from `from` to `to` (negative when `to` is earlier). */
export function secondsBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 1000)
}

/** "2d 3h", "5h 20m", "45m": the two largest units, enough to compare and plan. */
export function formatDuration(seconds: number): string {
  const s = Math.abs(seconds)
  const d = Math.floor(s / 86400)
  const h = Math.floor((s % 86400) / 3600)
  const m = Math.floor((s % 3600) / 60)
  if (d > 0) return h ? `${d}d ${h}h` : `${d}d`
  if (h > 0) return m ? `${h}h ${m}m` : `${h}h`
  return `${m}m`
}
