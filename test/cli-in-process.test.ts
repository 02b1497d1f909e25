import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {cliInProcess, oclifColoursHere, oclifWidthHere} from './cli-in-process.js'
import {cli, type CliResult, initRepo, sandboxEnv, tempDir} from './helpers.js'

type Run = [string[], {cwd: string; env?: NodeJS.ProcessEnv; input?: string}]

/** A process warning names the process (node:PID): in process, the test's own. */
const outcome = (r: CliResult) => ({
  code: r.code,
  stdout: r.stdout,
  stderr: r.stderr.replace(/^\(node:\d+\) /gm, '(node:PID) '),
})

/** The runs spawned (three at a time: the cores are shared) and in process, one after another. */
async function bothWays(runs: Run[]): Promise<{spawned: CliResult[]; inProcess: CliResult[]}> {
  const spawned: CliResult[] = []
  for (let i = 0; i < runs.length; i += 3)
    spawned.push(...(await Promise.all(runs.slice(i, i + 3).map(([args, o]) => cli(args, o)))))
  const inProcess: CliResult[] = []
  for (const [args, o] of runs) inProcess.push(await cliInProcess(args, o))
  return {spawned, inProcess}
}

/** test/help.test.ts holds the spawned binary's --help, did-you-mean, usage error and -v to exact text, and the runner to them. */
describe('cairn in process (test/cli-in-process.ts)', () => {
  it('prints what the spawned binary prints, on the same stream, with the same exit code', async () => {
    const cwd = tempDir()
    const repo = await initRepo()
    const here = {cwd}
    const inRepo = {cwd: repo.dir, env: repo.env}
    const runs: Run[] = [
      // Help for a topic, and for the hook (which bin/run.js sends to oclif only for help).
      [['help', 'board'], here],
      [['hook', '--help'], here],
      // Did-you-mean from the help class (process.exit); required and choice flags refused by the parser, text and --json.
      [['help', 'reviw'], here],
      [['review', 'reject', 'x'], here],
      [['show', 'x', '--section', 'bogus', '--json'], inRepo],
      // A command's own refusals (process.exitCode): no store here; bad input read from stdin to its end.
      [['list'], here],
      [['propose', '-', '--json'], {...inRepo, input: '{"slug": 1}'}],
      // The env the call is given: the shell oclif's autocomplete sees. Its progress line (ux.action) and, outside
      // production, Node's warning that the command it runs did not parse its arguments, both on stderr.
      [['autocomplete'], {cwd, env: sandboxEnv(cwd, {SHELL: '/bin/tcsh'})}],
      [['autocomplete', 'bash'], here],
    ]
    // The root's help first, in process only (test/help.test.ts holds it to the binary's): oclif renames the commands
    // it lists in place, and the calls after it must not see that.
    expect((await cliInProcess(['--help'], here)).code).toBe(0)
    const {spawned, inProcess} = await bothWays(runs)
    for (const [i, [args]] of runs.entries()) expect(outcome(inProcess[i]), args.join(' ')).toEqual(outcome(spawned[i]))
    // Not a vacuous match: the runs differ, in their codes and on each stream.
    expect(spawned.map(r => r.code)).toEqual([0, 0, 2, 2, 2, 3, 6, 2, 0])
    expect(spawned.map(r => [r.stdout === '' ? '' : 'out', r.stderr === '' ? '' : 'err'].join(''))).toEqual([
      'out',
      'out',
      'err',
      'err',
      'out',
      'err',
      'out',
      'err',
      'outerr',
    ])
  })

  it('gives the process back as it found it, after an exit, a refusal, or calls under Promise.all', async () => {
    const cwd = tempDir()
    const state = () => ({
      cwd: process.cwd(),
      env: {...process.env},
      exitCode: process.exitCode,
      exit: process.exit,
      out: process.stdout.write,
      err: process.stderr.write,
      console: globalThis.console,
      stdin: process.stdin,
      drain: process.stdout.listenerCount('drain'),
    })
    process.exitCode = 7
    try {
      const before = state()
      const runs = await Promise.all(
        [['reviw'], ['list'], ['-v'], ['list', '--bogus'], ...Array(10).fill(['--help'])].map(args =>
          cliInProcess(args, {cwd}),
        ),
      )
      expect(runs.slice(0, 4).map(r => [r.code, r.stdout === '', r.stderr === ''])).toEqual([
        [2, true, false],
        [3, true, false],
        [0, false, true],
        [2, true, false],
      ])
      expect(runs[0].stderr).toBe(
        'cairn: "reviw" is not a cairn command. Did you mean "review"? Fix: run "cairn review", or see "cairn help" for the commands.\n',
      )
      // Ten calls, ten drain listeners from oclif's flush(): gone, or Node would warn on the eleventh's stderr.
      expect(new Set(runs.slice(4).map(r => r.stdout + r.stderr)).size).toBe(1)
      const after = state()
      expect(after).toEqual(before)
      for (const k of ['exit', 'out', 'err', 'console', 'stdin'] as const) expect(after[k], k).toBe(before[k])
    } finally {
      process.exitCode = undefined
    }
  })

  it("runs with the cwd and env it is given: oclif's config takes HOME from them", async () => {
    const cwd = tempDir()
    const env = sandboxEnv(cwd)
    const r = await cliInProcess(['autocomplete', 'script', 'bash'], {cwd, env})
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      `CAIRN_AC_BASH_SETUP_PATH=${path.join(env.HOME!, '.cache', 'cairn', 'autocomplete', 'bash_setup')}`,
    )
  })

  it("refuses what it cannot run as a process would: the hook's fast path, colour or width oclif fixed when it loaded", () => {
    const cwd = tempDir()
    expect(() => cliInProcess(['hook', 'stop', '--agent', 'claude'], {cwd})).toThrow(/fast path/)
    // The opposite of this process's colour and width, whatever they are (CI=… colours, a terminal is wider).
    const otherColour = {FORCE_COLOR: oclifColoursHere() ? '0' : '1'}
    expect(() => cliInProcess(['init', '--help'], {cwd, env: sandboxEnv(cwd, otherColour)})).toThrow(/colours/)
    const otherWidth = {OCLIF_COLUMNS: String(oclifWidthHere() + 40)}
    expect(() => cliInProcess(['init', '--help'], {cwd, env: sandboxEnv(cwd, otherWidth)})).toThrow(/columns/)
  })
})
