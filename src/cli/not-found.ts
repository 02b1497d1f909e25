import type {Hook} from '@oclif/core'
import {closest, didYouMean} from '../domain/suggest.js'

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
  if (json) process.stdout.write(`${JSON.stringify({ok: false, error: {code: 'usage', message, data: {command: typed}}})}\n`)
  else process.stderr.write(`cairn: ${message}\n`)
  process.exit(2)
}

export default hook
