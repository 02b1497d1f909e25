import {Console} from 'node:console'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'
import {Readable} from 'node:stream'
import vm from 'node:vm'
import {Config, execute, ux} from '@oclif/core'
import {afterAll} from 'vitest'
import {BIN, type CliResult, sandboxEnv} from './helpers.js'

/**
 * cairn's oclif commands run in this process instead of a child: the entry bin/run.js takes
 * (oclif's execute(): its run, then flush, or its error handler, with the not-found hook, cairn's
 * help class and its parse-error mapping), on the built dist/ as the binary runs it, with the
 * Config loaded once per test file. A spawned cairn boots oclif in about 0.6 s; a call here takes
 * milliseconds. For tests of help, usage, flags, parse errors and did-you-mean;
 * test/cli-in-process.test.ts holds it to the spawned binary's output, and test/help.test.ts keeps
 * a few runs of the binary itself.
 *
 * What a process gives a command, each call gets, and gives back after:
 * - argv, the env (process.env's contents replaced) and the cwd (process.chdir): cairn, and
 *   oclif's Config (HOME, its cache and data dirs), read process.env and process.cwd();
 * - stdin: a stream that ends after `input` ('' by default, as cli() closes the child's);
 * - stdout and stderr: the streams' write() kept, console replaced (oclif prints help and errors
 *   with console.log/error, and vitest's console does not write to the process's streams), and
 *   oclif's progress line and Node's warnings (below);
 * - the exit code: process.exit() (the not-found hook, oclif's error handler) records its code and
 *   ends the run (a sentinel thrown through), and what is written after it is dropped, as a process
 *   that exited prints no more; else process.exitCode, which Node would exit with. process.exitCode
 *   is the test's again after the call.
 * Calls are serialised (one at a time, even under Promise.all). Nothing else in the test may run
 * while one is under way: the process's env, cwd and streams are the call's until it returns.
 *
 * Not here: `cairn hook` without --help (bin/run.js takes it past oclif), and colour or width
 * other than the test process's: oclif fixes both when its modules load (ansis reads the env,
 * screen.js the width); a call whose env would change them is refused, and a colour test spawns.
 */

const require = createRequire(import.meta.url)
const oclifLib = path.dirname(require.resolve('@oclif/core'))
const oclifRequire = createRequire(path.join(oclifLib, 'index.js'))
const ansisSource = fs.readFileSync(oclifRequire.resolve('ansis'), 'utf8')
const oclifAnsis = oclifRequire('ansis') as {isSupported(): boolean}
const screen = require(path.join(oclifLib, 'screen.js')) as {stdtermwidth: number; errtermwidth: number}

/** Whether oclif colours here (ansis read this process's env when it loaded: CI=… or FORCE_COLOR turn it on). */
export const oclifColoursHere = (): boolean => oclifAnsis.isSupported()
/** The width oclif wraps at here. */
export const oclifWidthHere = (): number => screen.stdtermwidth

/** Whether ansis, oclif's colour library, colours a process with this env and argv whose stdout is a pipe. */
function ansisColours(env: NodeJS.ProcessEnv, args: string[]): boolean {
  const module = {exports: {} as {isSupported(): boolean}}
  const proc = {
    env: {...env},
    argv: [process.execPath, BIN, ...args],
    platform: process.platform,
    stdout: {isTTY: false},
  }
  vm.runInNewContext(ansisSource, {module, exports: module.exports, process: proc})
  return module.exports.isSupported()
}

/** bin/run.js sends `cairn hook` (unless it asks for help) to the hook's own fast path, not to oclif. */
const hookFastPath = (args: string[]) => args[0] === 'hook' && !args.some(a => a === '--help' || a === '-h')

class Exited extends Error {
  skipOclifErrorHandling = true
  constructor(readonly code: number) {
    super(`process.exit(${code})`)
  }
}

/** The dir the Config is loaded from, with its sandbox home beside it; removed after the file. */
let sandbox: string | undefined
afterAll(() => {
  if (sandbox) fs.rmSync(sandbox, {recursive: true, force: true})
})

let queue: Promise<unknown> = Promise.resolve()

/** fn once every call queued before it is done: one call at a time holds the process. */
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const result = queue.then(fn, fn)
  queue = result.catch(() => undefined)
  return result
}

let config: Promise<Config> | undefined
/** Each command oclif caches (from the manifests), and its properties as loaded. */
let pristine: [Record<string, unknown>, Record<string, unknown>][] = []
/** Loads the Config on the first call; only with the queue held. */
const loadConfig = (): Promise<Config> =>
  (config ??= (async () => {
    sandbox = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-oclif-')))
    const cwd = path.join(sandbox, 'cwd')
    fs.mkdirSync(cwd)
    const loaded = (await inProcess({cwd, env: sandboxEnv(cwd), input: ''}, () => Config.load(BIN))).value as Config
    pristine = loaded
      .getPluginsList()
      .flatMap(p =>
        p.commands.map(
          c => [c as unknown as Record<string, unknown>, {...c}] as [Record<string, unknown>, Record<string, unknown>],
        ),
      )
    return loaded
  })())

/**
 * oclif's help renames the commands it shows in place (board:state becomes "board state", for
 * the topic separator), on the objects the plugins keep, which every reloaded Config shares: a
 * process shows help once and ends, but the next call here would find no board:state. Each
 * command gets back its properties as loaded, before a call (a test may have rendered help with
 * oclifConfig()) and after it.
 */
function restoreCommands(): void {
  for (const [command, saved] of pristine) {
    for (const k of Object.keys(command)) if (!(k in saved)) delete command[k]
    Object.assign(command, saved)
  }
}

/**
 * oclif's Config for cairn, loaded once per test file as bin/run.js loads it (from its own path),
 * under a sandbox HOME: the load reads user plugins from the data dir. Each call hands it to
 * execute(), which reloads it (about a millisecond: the plugins are kept) under the call's env.
 * Its commands are as loaded, whatever help was rendered with it before.
 */
export const oclifConfig = (): Promise<Config> =>
  serial(async () => {
    const loaded = await loadConfig()
    restoreCommands()
    return loaded
  })

/** Runs cairn (bin/run.js's oclif path) in this process: the same code, stdout, stderr and json() as cli(). */
export function cliInProcess(
  args: string[],
  options: {cwd: string; env?: NodeJS.ProcessEnv; input?: string | Buffer},
): Promise<CliResult> {
  if (hookFastPath(args))
    throw new Error("`cairn hook` without --help takes bin/run.js's fast path, not oclif: spawn it with cli()")
  const env = options.env ?? sandboxEnv(options.cwd)
  if (ansisColours(env, args) !== oclifAnsis.isSupported()) {
    throw new Error(
      'this env would change whether oclif colours its help, which oclif fixed when it loaded here: spawn the CLI with cli()',
    )
  }
  const width = Number.parseInt(env.OCLIF_COLUMNS ?? '', 10) || 80
  if (screen.stdtermwidth !== width || screen.errtermwidth !== width) {
    throw new Error(
      `oclif wraps at ${screen.stdtermwidth} columns here and would at ${width} in a process with this env: spawn the CLI with cli()`,
    )
  }
  return serial(async () => {
    const loaded = await loadConfig()
    restoreCommands()
    try {
      const r = await inProcess({cwd: options.cwd, env, input: options.input ?? ''}, () =>
        execute({args, loadOptions: loaded}),
      )
      return {code: r.code, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout)}
    } finally {
      restoreCommands()
    }
  })
}

type Write = typeof process.stdout.write

/**
 * oclif's progress line (ux.action: "Building the autocomplete cache... done" on stderr) writes
 * through the streams' write() as they were when oclif loaded, past any replaced since.
 */
const action = ux.action as unknown as {stdmockOrigs: {stdout: Write; stderr: Write}}
type Listener = (...args: unknown[]) => void

/** The listeners on process.stdout and process.stderr, by event. */
function listenersOf(): Map<NodeJS.EventEmitter, Map<string | symbol, Listener[]>> {
  return new Map(
    [process.stdout, process.stderr].map(e => [e, new Map(e.eventNames().map(n => [n, e.listeners(n) as Listener[]]))]),
  )
}

/**
 * Takes off the listeners a call added, which a process would have taken with it when it ended:
 * oclif's flush() leaves one waiting for a 'drain' that never comes (the writes here are done at
 * once), and after ten of them Node warns of a leak on stderr.
 */
function dropListenersSince(before: ReturnType<typeof listenersOf>): void {
  for (const [emitter, events] of listenersOf()) {
    for (const [name, listeners] of events) {
      const kept = before.get(emitter)?.get(name) ?? []
      for (const l of listeners) if (!kept.includes(l)) emitter.removeListener(name, l)
    }
  }
}

/**
 * Node's report of a process warning on stderr (lib/internal/process/warning.js), as a process
 * just started gives it: the hint on the first one. oclif warns, outside production (NODE_ENV is
 * "test" under vitest, and in the env tests hand the CLI), of a command that parsed no arguments.
 * Node's own reporter gives the hint once in this process, so it is replaced for the call; the
 * pid is this process's, not a child's.
 */
function warningPrinter(env: NodeJS.ProcessEnv): (warning: Error) => void {
  let hinted = false
  return (warning: Error & {code?: string; detail?: string}) => {
    if (env.NODE_NO_WARNINGS === '1' || !(warning instanceof Error)) return
    const deprecation = warning.name === 'DeprecationWarning'
    let message = `(${process.release.name}:${process.pid}) ${warning.code ? `[${warning.code}] ` : ''}${warning.toString()}`
    if (typeof warning.detail === 'string') message += `\n${warning.detail}`
    if (!hinted) {
      const argv0 = path.basename(process.execPath, '.exe')
      message += `\n(Use \`${argv0} ${deprecation ? '--trace-deprecation' : '--trace-warnings'} ...\` to show where the warning was created)`
      hinted = true
    }
    process.stderr.write(`${message}\n`)
  }
}

/** Runs fn as a process with this cwd, env and stdin would run, and returns what it printed and its exit code. */
async function inProcess(
  options: {cwd: string; env: NodeJS.ProcessEnv; input: string | Buffer},
  fn: () => Promise<unknown>,
): Promise<{code: number; stdout: string; stderr: string; value: unknown}> {
  const out: Buffer[] = []
  const err: Buffer[] = []
  let exited: number | undefined
  const capture = (chunks: Buffer[]): Write =>
    ((
      chunk: string | Uint8Array,
      encoding?: BufferEncoding | ((e?: Error | null) => void),
      cb?: (e?: Error | null) => void,
    ) => {
      if (typeof encoding === 'function') [cb, encoding] = [encoding, undefined]
      if (exited === undefined)
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk))
      if (cb) process.nextTick(cb)
      return true
    }) as Write

  const saved = {
    cwd: process.cwd(),
    env: {...process.env},
    exitCode: process.exitCode,
    exit: process.exit,
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
    console: Object.getOwnPropertyDescriptor(globalThis, 'console')!,
    stdin: Object.getOwnPropertyDescriptor(process, 'stdin')!,
    listeners: listenersOf(),
    actionWrites: action.stdmockOrigs,
    warning: process.listeners('warning'),
  }
  const replaceEnv = (env: NodeJS.ProcessEnv) => {
    for (const k of Object.keys(process.env)) delete process.env[k]
    for (const [k, v] of Object.entries(env)) if (v !== undefined) process.env[k] = v
  }
  try {
    process.chdir(options.cwd)
    replaceEnv(options.env)
    process.exitCode = undefined
    process.exit = ((code?: number | string | null) => {
      exited ??= Number(code ?? process.exitCode ?? 0)
      throw new Exited(exited)
    }) as typeof process.exit
    process.stdout.write = capture(out)
    process.stderr.write = capture(err)
    action.stdmockOrigs = {stdout: process.stdout.write, stderr: process.stderr.write}
    process.removeAllListeners('warning')
    process.on('warning', warningPrinter(options.env))
    const console = new Console({stdout: process.stdout, stderr: process.stderr})
    Object.defineProperty(globalThis, 'console', {
      configurable: true,
      enumerable: saved.console.enumerable,
      writable: true,
      value: console,
    })
    const input = Buffer.from(options.input)
    const stdin = Object.assign(Readable.from(input.length ? [input] : [], {objectMode: false}), {isTTY: undefined})
    Object.defineProperty(process, 'stdin', {configurable: true, enumerable: saved.stdin.enumerable, get: () => stdin})

    let value: unknown
    try {
      value = await fn()
      // What the process would still print before it ends: a warning is emitted on the next tick.
      await new Promise(resolve => setImmediate(resolve))
    } catch (error) {
      if (!(error instanceof Exited)) throw error
    }
    const code = exited ?? Number(process.exitCode ?? 0)
    return {code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), value}
  } finally {
    dropListenersSince(saved.listeners)
    process.removeAllListeners('warning')
    for (const l of saved.warning) process.on('warning', l)
    action.stdmockOrigs = saved.actionWrites
    Object.defineProperty(process, 'stdin', saved.stdin)
    Object.defineProperty(globalThis, 'console', saved.console)
    process.stdout.write = saved.stdoutWrite
    process.stderr.write = saved.stderrWrite
    process.exit = saved.exit
    process.exitCode = saved.exitCode
    replaceEnv(saved.env)
    process.chdir(saved.cwd)
  }
}
