import {execFile, execFileSync} from 'node:child_process'
import {describe, expect, it} from 'vitest'
import {colourEnabled, paletteFor} from '../src/cli/colour.js'
import {hookRepo} from './hook-helpers.js'
import {BIN, cli, initRepo, tempDir, sandboxEnv} from './helpers.js'

const ESC = '\x1b['
const RED_PREFIX = '\x1b[31mcairn:\x1b[39m '
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
})()

/** cairn on a real pseudo-terminal (util-linux `script`): stdout and stderr are both the terminal. */
function onTerminal(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ')
  return new Promise(resolve => {
    execFile(
      'script',
      ['-qec', command, '/dev/null'],
      {cwd, env: {...env, TERM: 'xterm'}, encoding: 'utf8'},
      (_error, stdout) => resolve(stdout),
    )
  })
}

describe('when cairn colours', () => {
  it('follows ansis: NO_COLOR (not empty) wins, then FORCE_COLOR (off when 0 or false), then the terminal', () => {
    const tty = {isTTY: true}
    const pipe = {isTTY: false}
    const cases: [{isTTY: boolean}, Record<string, string>, boolean][] = [
      [tty, {}, true],
      [pipe, {}, false],
      [tty, {TERM: 'dumb'}, false],
      [tty, {NO_COLOR: '1'}, false],
      [tty, {NO_COLOR: ''}, true],
      [pipe, {FORCE_COLOR: '1'}, true],
      [pipe, {FORCE_COLOR: '3'}, true],
      [pipe, {FORCE_COLOR: ''}, true],
      [tty, {FORCE_COLOR: '0'}, false],
      [tty, {FORCE_COLOR: 'false'}, false],
      [pipe, {NO_COLOR: '1', FORCE_COLOR: '1'}, false],
      // CI and COLORTERM never colour a log: ansis would, cairn keeps to the terminal.
      [pipe, {CI: 'true', GITHUB_ACTIONS: 'true', COLORTERM: 'truecolor'}, false],
    ]
    expect(cases.map(([stream, env]) => colourEnabled(stream, env))).toEqual(cases.map(c => c[2]))
    expect(paletteFor(pipe, {FORCE_COLOR: '1'}).red('x')).toBe('\x1b[31mx\x1b[39m')
    expect(paletteFor(pipe, {}).red('x')).toBe('x')
  })

  it("FORCE_COLOR colours the error and warning prefixes and doctor's marks, even piped; never --json", async () => {
    const repo = await initRepo()
    const env = {...repo.env, FORCE_COLOR: '1'}
    const missing = await cli(['show', 'no-such-card-anywhere-here'], {cwd: repo.dir, env})
    expect([missing.code, missing.stderr]).toEqual([
      4,
      `${RED_PREFIX}No card with id "no-such-card-anywhere-here". Fix: give an id as "cairn list" shows it.\n`,
    ])
    repo.write('.cairn/pending/pitfall/broken-card-file-here.md', 'not a card\n')
    const listed = await cli(['list'], {cwd: repo.dir, env})
    expect(listed.stderr).toBe('\x1b[33mwarning:\x1b[39m 1 card file(s) could not be read; run "cairn lint"\n')
    const doctor = await cli(['doctor'], {cwd: repo.dir, env})
    expect(doctor.stdout.split('\n')[0]).toBe(
      '\x1b[32mok  \x1b[39m  project  config        .cairn/config.yaml is valid',
    )
    const json = await cli(['doctor', '--json'], {cwd: repo.dir, env})
    const jsonError = await cli(['show', 'no-such-card-anywhere-here', '--json'], {cwd: repo.dir, env})
    expect([json.stdout + json.stderr, jsonError.stdout + jsonError.stderr].filter(s => s.includes(ESC))).toEqual([])
    expect(jsonError.json().error.code).toBe('not_found')
  })

  it('prints no escape piped, with FORCE_COLOR=0, or with NO_COLOR beside FORCE_COLOR', async () => {
    const repo = await initRepo()
    repo.write('.cairn/pending/pitfall/broken-card-file-here.md', 'not a card\n')
    for (const extra of [{}, {FORCE_COLOR: '0'}, {NO_COLOR: '1', FORCE_COLOR: '1'}]) {
      const env = {...repo.env, ...extra}
      const runs = await Promise.all(
        [['show', 'no-such-card-anywhere-here'], ['list'], ['doctor']].map(args => cli(args, {cwd: repo.dir, env})),
      )
      expect(
        runs.map(r => r.stdout + r.stderr).filter(s => s.includes(ESC)),
        JSON.stringify(extra),
      ).toEqual([])
      expect(runs[0].stderr, JSON.stringify(extra)).toContain(
        'cairn: No card with id "no-such-card-anywhere-here". Fix: give an id as "cairn list" shows it.',
      )
      expect(runs[1].stderr, JSON.stringify(extra)).toContain('warning: 1 card file(s) could not be read')
    }
  })

  it("oclif's help is bold under FORCE_COLOR, and plain with NO_COLOR or piped", async () => {
    const cwd = tempDir()
    const env = sandboxEnv(cwd)
    const forced = await cli(['init', '--help'], {cwd, env: {...env, FORCE_COLOR: '1'}})
    const both = await cli(['init', '--help'], {cwd, env: {...env, FORCE_COLOR: '1', NO_COLOR: '1'}})
    const piped = await cli(['init', '--help'], {cwd, env})
    expect(forced.stdout).toContain('\x1b[1mUSAGE\x1b[22m')
    expect([both.stdout.includes(ESC), piped.stdout.includes(ESC)]).toEqual([false, false])
    expect(both.stdout).toBe(piped.stdout)
  })

  it('a hook prints plain JSON whatever FORCE_COLOR says', async () => {
    const repo = await hookRepo()
    const payload = JSON.stringify({session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart'})
    const r = await cli(['hook', 'session-start', '--agent', 'claude'], {
      cwd: repo.dir,
      env: {...repo.env, FORCE_COLOR: '3'},
      input: payload,
    })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('run-tests-before-push')
    expect((r.stdout + r.stderr).includes(ESC)).toBe(false)
  })

  it.skipIf(!hasScript)('colours on a real terminal, and not there when NO_COLOR is set', async () => {
    const repo = await initRepo()
    const shown = await onTerminal(['show', 'no-such-card-anywhere-here'], repo.dir, repo.env)
    const doctor = await onTerminal(['doctor'], repo.dir, repo.env)
    const plain = await onTerminal(['show', 'no-such-card-anywhere-here'], repo.dir, {...repo.env, NO_COLOR: '1'})
    expect(shown).toContain(RED_PREFIX)
    expect(doctor).toContain('\x1b[32mok  \x1b[39m  project  config')
    expect(plain).toContain(
      'cairn: No card with id "no-such-card-anywhere-here". Fix: give an id as "cairn list" shows it.',
    )
    expect(plain.includes(ESC)).toBe(false)
  })
})
