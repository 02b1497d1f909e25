import {closest, didYouMean} from '../domain/suggest.js'

/**
 * oclif's parse errors in cairn's words: a missing required flag spelt as it is typed (--reason, not
 * "reason" under "The following error occurred"), and an unknown flag with the command's closest
 * flags. Other errors pass through unchanged.
 */
export function explainParseError(error: unknown, flags: Record<string, {char?: string}>): unknown {
  if (!(error instanceof Error)) return error
  const missing = [...error.message.matchAll(/^\s*Missing required flag (\S+)\s*$/gm)].map(m => `--${m[1]}`)
  if (missing.length && /^The following errors? occurred/.test(error.message)) {
    return Object.assign(new Error(`missing required flag ${missing.join(', ')}`), {oclif: {exit: 2}})
  }
  const unknown = /^Nonexistent flag: (\S+)/.exec(error.message)?.[1]
  if (unknown) {
    const names = Object.entries(flags).flatMap(([name, f]) => [`--${name}`, ...(f.char ? [`-${f.char}`] : [])])
    const hint = didYouMean(closest(unknown.split('=')[0], names))
    if (hint) return Object.assign(new Error(`Nonexistent flag: ${unknown}.${hint}`), {oclif: {exit: 2}})
  }
  return error
}
