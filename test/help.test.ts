import {Config, Help} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import {cli, ROOT, tempDir} from './helpers.js'

const squash = (s: string) => s.replace(/\s+/g, ' ')

/** oclif's own help renderer, as `cairn ... --help` runs it, with its output kept instead of printed. */
class CapturedHelp extends Help {
  text = ''
  protected override log(...args: string[]): void {
    this.text += `${args.join('\n')}\n`
  }
}

describe('help', () => {
  it('cairn --help lists every command with its summary', async () => {
    const config = await Config.load(ROOT)
    const r = await cli(['--help'], {cwd: tempDir()})
    expect(r.code).toBe(0)
    for (const c of config.commands) {
      expect(r.stdout).toContain(c.id.split(':')[0])
    }
    expect(config.commands.map(c => c.id).sort()).toEqual(expect.arrayContaining(['demo', 'doctor', 'init', 'lint', 'list', 'log', 'propose', 'show']))
  })

  it('every command\'s --help describes each of its flags and arguments accurately', async () => {
    const config = await Config.load(ROOT)
    // oclif's renderer rewrites the ids of the commands it shows to their spaced form; keep the real ones.
    for (const [id, c] of config.commands.map(c => [c.id, c] as const)) {
      const help = new CapturedHelp(config, config.pjson.oclif.helpOptions)
      await help.showHelp([...id.split(':'), '--help'])
      const out = squash(help.text)
      expect(out, id).toContain(`USAGE $ cairn ${id.split(':').join(' ')}`)
      if (c.summary) expect(out, id).toContain(squash(c.summary))
      for (const [name, flag] of Object.entries(c.flags)) {
        expect(out, `${id} --${name}`).toContain(`--${name}`)
        if (flag.description) expect(out, `${id} --${name}`).toContain(squash(flag.description))
        if (flag.type === 'option' && flag.options) expect(out, `${id} --${name}`).toContain(`<option>`)
      }
      for (const [name, arg] of Object.entries(c.args)) {
        expect(out, `${id} ${name}`).toContain(name.toUpperCase())
        if (arg.description) expect(out, `${id} ${name}`).toContain(squash(arg.description))
      }
    }
  })
})
