import {distance} from 'fastest-levenshtein'
import {CairnError} from '../domain/errors.js'
import {closest, didYouMean} from '../domain/suggest.js'

/** What a parse error is explained with: the command's id, arguments, flags and examples, as oclif declares them. */
export interface CommandShape {
  id?: string
  args?: Record<string, {description?: string; required?: boolean}>
  flags?: Record<string, {char?: string; required?: boolean}>
  examples?: unknown[]
}

/**
 * oclif's parse errors in cairn's words (src/domain/errors.ts has the rules): what is missing or wrong, the
 * command's usage where that helps, and the fix; every one a usage error, exit 2. A missing argument is named by
 * what it is ("Missing the card id."), a flag as it is typed (--reason), an unknown flag or a value outside the
 * choices with the closest ones. Errors of other kinds pass through unchanged.
 */
export function explainParseError(error: unknown, command: CommandShape): unknown {
  if (!(error instanceof Error) || error instanceof CairnError) return error
  const text = error.message.replace(/\s*See more help with --help\s*$/, '')
  const usage = (problem: string, fix: string) => new CairnError('usage', `${problem} Fix: ${fix}`)
  const missingArgs = /^Missing \d+ required args?:\n([\s\S]*)$/.exec(text)
  if (missingArgs) {
    const names = missingArgs[1].split('\n').map(l => /^(\S+)/.exec(l)?.[1] ?? '')
    const what = names.filter(Boolean).map(n => `the ${noun(n, command.args?.[n]?.description)}`)
    return usage(`Missing ${joinAnd(what)}. Usage: ${usageOf(command)}.`, giveIt(command, what.length))
  }
  const missingFlags = [...text.matchAll(/Missing required flag (?:--)?([\w-]+)/g)].map(m => `--${m[1]}`)
  if (missingFlags.length) {
    const problem = `Missing the required flag${missingFlags.length > 1 ? 's' : ''} ${joinAnd(missingFlags)}.`
    return usage(`${problem} Usage: ${usageOf(command)}.`, giveIt(command, missingFlags.length))
  }
  const together = /--([\w-]+)=\S* cannot also be provided when using --([\w-]+)/.exec(text)
  if (together)
    return usage(`--${together[2]} and --${together[1]} cannot be given together.`, 'give only one of them.')
  const unknown = /^Nonexistent flags?: (\S+)/.exec(text)?.[1]
  if (unknown) {
    const names = Object.entries(command.flags ?? {}).flatMap(([n, f]) => [`--${n}`, ...(f.char ? [`-${f.char}`] : [])])
    const [near] = closest(unknown.split('=')[0], names, 1)
    return usage(
      `Unknown flag ${unknown}.${didYouMean(near ? [near] : [])}`,
      near ? `use ${near}; ${helpOf(command)} lists the flags.` : `see ${helpOf(command)} for the flags.`,
    )
  }
  const choice = /^Expected (--[\w-]+=)?(.*) to be one of: (.*)$/m.exec(text)
  if (choice) {
    const [, flag, value, list] = choice
    const options = list.split(', ')
    const near = options.find(o => distance(o, value) <= Math.floor(value.length / 3))
    const subject = flag ? `${flag.slice(0, -1)} "${value}"` : `"${value}"`
    return usage(`${subject} is not one of ${list}.`, near ? `use ${near}.` : 'use one of them.')
  }
  const needsChoice = /^Flag (--[\w-]+) expects one of these values: (.*)$/m.exec(text)
  if (needsChoice)
    return usage(`${needsChoice[1]} needs a value: one of ${needsChoice[2]}.`, `give one after ${needsChoice[1]}.`)
  const needsValue = /^Flag (--[\w-]+) expects a value$/m.exec(text)
  if (needsValue) return usage(`${needsValue[1]} needs a value.`, `give it as ${needsValue[1]} <value>.`)
  const number =
    /^Parsing (--[\w-]+)\s*\n\s*Expected an integer( greater than or equal to (-?\d+))?.* but received: (.*)$/m.exec(
      text,
    )
  if (number) {
    const [, flag, , min, value] = number
    const want = min === undefined ? 'a whole number' : `a whole number of ${min} or more`
    return usage(`${flag} "${value}" is not ${want}.`, `give ${want}, such as ${flag} ${min ?? 10}.`)
  }
  const extra = /^Unexpected arguments?: (.*)$/m.exec(text)
  if (extra)
    return usage(
      `Unexpected argument "${extra[1]}". Usage: ${usageOf(command)}.`,
      'remove it, or quote text that holds spaces so it is one argument.',
    )
  return error
}

/** "the card id" from the argument's description ("Card id."), else its name. */
function noun(name: string, description?: string): string {
  const first = description
    ?.split(/(?<=\.)\s/)[0]
    .replace(/\.$/, '')
    .replace(/^the /i, '')
  if (!first) return `<${name}> argument`
  return /^[A-Z][a-z]/.test(first) ? first[0].toLowerCase() + first.slice(1) : first
}

const joinAnd = (xs: string[]) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`)

const spaced = (command: CommandShape) => `cairn ${(command.id ?? '').split(':').join(' ')}`.trim()

const helpOf = (command: CommandShape) => `"${spaced(command)} --help"`

/** "cairn review reject <id> --reason <value>": the arguments, required ones in <>, and the required flags. */
function usageOf(command: CommandShape): string {
  const args = Object.entries(command.args ?? {}).map(([n, a]) => (a.required ? `<${n}>` : `[${n}]`))
  const flags = Object.entries(command.flags ?? {})
    .filter(([, f]) => f.required)
    .map(([n]) => `--${n} <value>`)
  return [spaced(command), ...args, ...flags].join(' ')
}

/** The fix for something missing: the command's first example that shows it plainly, else its --help. */
function giveIt(command: CommandShape, count: number): string {
  const prefix = `<%= config.bin %> ${(command.id ?? '').split(':').join(' ')} `
  const example = (command.examples ?? [])
    .map(e => (typeof e === 'string' ? e : ((e as {command?: string}).command ?? '')))
    .find(e => e.startsWith(prefix) && !/["'|$]/.test(e))
  const it = count > 1 ? 'them' : 'it'
  return example
    ? `give ${it}, as in "${example.replace('<%= config.bin %>', 'cairn')}".`
    : `give ${it}; ${helpOf(command)} shows examples.`
}
