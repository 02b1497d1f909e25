/** Timestamps are RFC 3339; the board stores them normalised to UTC ("Z"), seconds precision. */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/i
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

const isLeap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)

function daysIn(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/**
 * Why the text is not a real RFC 3339 instant, or undefined when it is. `Date` alone would
 * roll 2026-02-30 over to March 2 and 24:00 over to the next day, so each field is checked.
 */
export function timestampProblem(text: string): string | undefined {
  const m = RFC3339.exec(text)
  if (!m) return 'not in the form YYYY-MM-DDTHH:MM:SSZ (or with an offset such as +02:00)'
  const [year, month, day, hour, minute, second = 0, offHour = 0, offMinute = 0] = m
    .slice(1)
    .map(part => (part === undefined ? undefined : Number(part))) as number[]
  if (month < 1 || month > 12) return `month ${m[2]} does not exist`
  if (day < 1 || day > daysIn(year, month)) {
    return `day ${m[3]} does not exist: ${MONTHS[month - 1]} ${m[1]} has ${daysIn(year, month)} days`
  }
  if (hour > 23) return `hour ${m[4]} does not exist (00 to 23)`
  if (minute > 59) return `minute ${m[5]} does not exist (00 to 59)`
  if (second > 59) return `second ${m[6]} is not supported (00 to 59)`
  if (offHour > 23 || offMinute > 59) return `offset ${text.slice(-6)} does not exist`
  return undefined
}

/** The normalised UTC form, or undefined when the text is not a real RFC 3339 instant. */
export function normalizeTimestamp(text: string): string | undefined {
  if (timestampProblem(text)) return undefined
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
