import type {Hook, Interfaces} from '@oclif/core'
import {errorOutcome} from '../app/use-case.js'
import {CairnError} from '../domain/errors.js'
import {closest, didYouMean} from '../domain/suggest.js'
import {paletteFor} from './colour.js'

/**
 * What the user meant by the words oclif could not resolve (its id holds every word up to the
 * first flag, arguments too): the known topic they start with, then one or two more words. After a
 * known topic, one word first: it is the mistyped command ("review aprove <id>"), and the id after
 * it is neither quoted as part of it nor in the way of the suggestion. Without one, two words first,
 * for a mistyped topic ("bord state"); else one ("shwo <id>").
 */
export function unknownCommand(
  config: Interfaces.Config,
  id: string,
): {typed: string; suggestions: string[]; topic: string | null; rest: string[]} {
  const words = id.split(':')
  const visible = config.commands.filter(c => !c.hidden).map(c => c.id.split(':').join(' '))
  let known = 0
  while (known < words.length - 1 && config.findTopic(words.slice(0, known + 1).join(':'))) known++
  const topic = known ? words.slice(0, known).join(' ') : null
  for (const extra of known ? [1] : [2, 1]) {
    if (known + extra > words.length) continue
    const typed = words.slice(0, known + extra).join(' ')
    const suggestions = closest(typed, visible)
    if (suggestions.length) return {typed, suggestions, topic, rest: words.slice(known + extra)}
  }
  return {typed: words.slice(0, known + 1).join(' '), suggestions: [], topic, rest: words.slice(known + 1)}
}

/** The refusal of an unknown command or flag: the word as typed, the closest commands, and the fix. */
export function unknownMessage(config: Interfaces.Config, id: string): {message: string; typed: string} {
  const {typed, suggestions, topic, rest} = unknownCommand(config, id)
  if (typed.startsWith('-'))
    return {
      typed,
      message: `"${typed}" is not a cairn flag. Fix: see "cairn --help" for the commands and the flags every command takes.`,
    }
  const list = `"cairn help${topic ? ` ${topic}` : ''}"`
  const word = topic ? typed.slice(topic.length + 1) : typed
  const what = topic ? `"${word}" is not a command of cairn ${topic}.` : `"${typed}" is not a cairn command.`
  const shown = suggestions.map(s => (topic ? s.slice(topic.length + 1) : s))
  const fix =
    suggestions.length === 1
      ? `run "${['cairn', suggestions[0], ...rest].join(' ')}", or see ${list} for the commands.`
      : suggestions.length
        ? `use one of them; ${list} lists the commands.`
        : `see ${list} for the commands.`
  return {typed, message: `${what}${didYouMean(shown)} Fix: ${fix}`}
}

/** Prints the refusal of an unknown command (exit 2, a usage error): text on stderr, or the envelope under --json. */
export function refuseUnknown(config: Interfaces.Config, id: string, argv: string[]): never {
  const {message, typed} = unknownMessage(config, id)
  const {envelope, exitCode} = errorOutcome(new CairnError('usage', message, {command: typed}))
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(envelope)}\n`)
  else process.stderr.write(`${paletteFor(process.stderr).red('cairn:')} ${message}\n`)
  process.exit(exitCode)
}

/**
 * A mistyped command: the closest commands, spelt as the user types them (spaces, not oclif's
 * colons), on stderr with exit 2. Never a prompt: agents and scripts run cairn off a terminal, and a
 * command is never run on a guess.
 */
const hook: Hook.CommandNotFound = async function (options) {
  refuseUnknown(options.config, options.id, [...(options.argv ?? []), ...process.argv])
}

export default hook
