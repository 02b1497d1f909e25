import type {Hook} from '@oclif/core'
import {errorOutcome} from '../app/use-case.js'
import {CairnError} from '../domain/errors.js'
import {closest, didYouMean} from '../domain/suggest.js'
import {paletteFor} from './colour.js'

/**
 * A mistyped command: the closest commands, spelt as the user types them (spaces, not oclif's
 * colons), on stderr with exit 2 (a usage error). Never a prompt: agents and scripts run cairn
 * off a terminal, and a command is never run on a guess.
 */
const hook: Hook.CommandNotFound = async function (options) {
  const spaced = (id: string) => id.split(':').join(' ')
  const visible = options.config.commands.filter(c => !c.hidden).map(c => spaced(c.id))
  const typed = spaced(options.id)
  const topic = options.config.findTopic(options.id.split(':')[0]) ? ` ${options.id.split(':')[0]}` : ''
  const json = (options.argv ?? []).includes('--json') || process.argv.includes('--json')
  const message = `"${typed}" is not a cairn command.${didYouMean(closest(typed, visible))} "cairn help${topic}" lists the commands.`
  // The same envelope and exit code as any other usage error.
  const {envelope, exitCode} = errorOutcome(new CairnError('usage', message, {command: typed}))
  if (json) process.stdout.write(`${JSON.stringify(envelope)}\n`)
  else process.stderr.write(`${paletteFor(process.stderr).red('cairn:')} ${message}\n`)
  process.exit(exitCode)
}

export default hook
