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
    // cairn's own commands; help and autocomplete are oclif's plugins, with help of their own.
    for (const [id, c] of config.commands.filter(c => c.pluginName === config.pjson.name).map(c => [c.id, c] as const)) {
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

describe('help and errors, the way oclif users expect', () => {
  it('help, help <topic>, -h and -v work', async () => {
    const cwd = tempDir()
    const help = await cli(['help'], {cwd})
    const dashH = await cli(['-h'], {cwd})
    expect([help.code, dashH.code, dashH.stdout]).toEqual([0, 0, help.stdout])
    expect(help.stdout).toMatch(/^ {2}board {4}The board: the folded current state of ongoing work/m)
    const topic = await cli(['help', 'board'], {cwd})
    expect(topic.stdout).toMatch(/^The board: the folded current state of ongoing work/)
    expect(topic.stdout).toContain('board state')
    const commandHelp = await cli(['board', 'state', '-h'], {cwd})
    expect([commandHelp.code, commandHelp.stdout]).toEqual([0, expect.stringContaining('$ cairn board state')])
    const version = await cli(['-v'], {cwd})
    expect([version.code, version.stdout]).toEqual([0, expect.stringMatching(/^cairn-memory\/\d+\.\d+\.\d+ /)])
  })

  it('every topic has a description of its own, not the text of its first command', async () => {
    const config = await Config.load(ROOT)
    const topics = [...new Set(config.commands.map(c => c.id.split(':')).filter(p => p.length > 1).map(p => p[0]))]
    for (const t of topics) {
      const first = config.commands.find(c => c.id.startsWith(`${t}:`))!
      expect(config.findTopic(t)?.description, t).toBeTruthy()
      expect(config.findTopic(t)?.description, t).not.toBe(first.summary)
    }
  })

  it('a mistyped command suggests the closest one, spelt with spaces, and exits 2', async () => {
    const cwd = tempDir()
    const r = await cli(['reviw'], {cwd})
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'cairn: "reviw" is not a cairn command. Did you mean "review"? "cairn help" lists the commands.\n'])
    const board = await cli(['bord', 'state'], {cwd})
    expect(board.stderr).toBe('cairn: "bord state" is not a cairn command. Did you mean "board state"? "cairn help" lists the commands.\n')
    const json = await cli(['reviw', '--json'], {cwd})
    expect([json.code, json.json()]).toEqual([2, {ok: false, error: {code: 'usage', message: '"reviw" is not a cairn command. Did you mean "review"? "cairn help" lists the commands.', data: {command: 'reviw'}}}])
    const far = await cli(['xyzzy-quux'], {cwd})
    expect(far.stderr).toBe('cairn: "xyzzy-quux" is not a cairn command. "cairn help" lists the commands.\n')
  })

  it('a usage error ends with one footer', async () => {
    const r = await cli(['list', '--bogus'], {cwd: tempDir()})
    expect([r.code, r.stderr]).toEqual([2, 'cairn: Nonexistent flag: --bogus\nSee --help for usage.\n'])
  })

  it('shell completion for bash and zsh comes from oclif\'s autocomplete, built in the user\'s cache', async () => {
    const cwd = tempDir()
    const bash = await cli(['autocomplete', 'script', 'bash'], {cwd})
    expect([bash.code, bash.stdout]).toEqual([0, expect.stringContaining('CAIRN_AC_BASH_SETUP_PATH=')])
    const zsh = await cli(['autocomplete', 'zsh'], {cwd})
    expect([zsh.code, zsh.stdout]).toEqual([0, expect.stringContaining('cairn <TAB>')])
    const setup = await cli(['autocomplete', 'script', 'zsh'], {cwd})
    const home = setup.stdout.match(/CAIRN_AC_ZSH_SETUP_PATH=(\S+)\/zsh_setup/)![1]
    const fs = await import('node:fs')
    const script = fs.readFileSync(`${home}/functions/zsh/_cairn`, 'utf8')
    expect(script).toContain('board')
    expect(script).toContain('--overview')
  })
})
