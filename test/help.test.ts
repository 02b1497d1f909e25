import {Config} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import {cli, ROOT, tempDir} from './helpers.js'

const squash = (s: string) => s.replace(/\s+/g, ' ')

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
    const dir = tempDir()
    for (const c of config.commands) {
      const r = await cli([...c.id.split(':'), '--help'], {cwd: dir})
      expect(r.code, c.id).toBe(0)
      const out = squash(r.stdout)
      if (c.summary) expect(out, c.id).toContain(squash(c.summary))
      for (const [name, flag] of Object.entries(c.flags)) {
        expect(out, `${c.id} --${name}`).toContain(`--${name}`)
        if (flag.description) expect(out, `${c.id} --${name}`).toContain(squash(flag.description))
        if (flag.type === 'option' && flag.options) expect(out, `${c.id} --${name}`).toContain(`<option>`)
      }
      for (const [name, arg] of Object.entries(c.args)) {
        expect(out, `${c.id} ${name}`).toContain(name.toUpperCase())
        if (arg.description) expect(out, `${c.id} ${name}`).toContain(squash(arg.description))
      }
    }
  })
})
