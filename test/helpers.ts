import {execFileSync, spawn} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, afterEach} from 'vitest'
import {init} from '../src/app/init.js'
import {CairnError} from '../src/domain/errors.js'
import {createContext, type Context} from '../src/context.js'
import {gitUserName} from '../src/store/git.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BIN = path.join(ROOT, 'bin', 'run.js')
export const FIXED_NOW = '2026-11-29T10:00:00Z'

const temps: string[] = []
afterEach(() => {
  while (temps.length) fs.rmSync(temps.pop()!, {recursive: true, force: true})
})

/** A temp dir removed after the current test. */
/** xorshift32: a seeded generator, so a randomised test sees the same inputs on every run. */
export function prng(seed: number): () => number {
  let x = seed >>> 0
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 4294967296
  }
}

export function tempDir(prefix = 'cairn-test-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  temps.push(dir)
  return dir
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {cwd, encoding: 'utf8', env: sandboxEnv(cwd)})
}

/** What tells cairn which client and session a card comes from (context.ts originFromEnv). */
const ORIGIN_ENV = ['CAIRN_CLIENT', 'CAIRN_SESSION_ID', 'CLAUDECODE', 'CODEX_THREAD_ID', 'GEMINI_CLI', 'CURSOR_AGENT']

/** HOME and CAIRN_HOME inside the sandbox; never the real home directory. */
export function sandboxEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = path.join(path.dirname(dir), `${path.basename(dir)}-home`)
  fs.mkdirSync(home, {recursive: true})
  // A home beside a temp dir is a temp dir too: removed with it.
  if (temps.includes(dir) && !temps.includes(home)) temps.push(home)
  // Hooks get a long deadline: on a loaded machine the 1.5 s default would cut the very work a test
  // checks. Tests of the deadline set their own.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    CAIRN_HOME: path.join(home, '.cairn'),
    GIT_CONFIG_NOSYSTEM: '1',
    CAIRN_NOW: FIXED_NOW,
    CAIRN_ACTOR: 'tester',
    CAIRN_HOOK_DEADLINE_MS: '30000',
    // No test asks the real npm registry; those of the check point this at a server of their own.
    CAIRN_NPM_REGISTRY: 'off',
    ...extra,
  }
  for (const k of Object.keys(env))
    if (k.startsWith('GIT_') && !['GIT_CONFIG_NOSYSTEM'].includes(k) && !(k in extra)) delete env[k]
  // Colour is what a test asks for, never what the shell running the tests happens to set; so is the client a card
  // is proposed from (tests run inside an agent's shell too).
  for (const k of ['NO_COLOR', 'FORCE_COLOR', ...ORIGIN_ENV]) if (!(k in extra)) delete env[k]
  return env
}

export interface Repo {
  dir: string
  home: string
  env: NodeJS.ProcessEnv
  ctx: (overrides?: Partial<Parameters<typeof createContext>[0]>) => Context
  write: (rel: string, content: string | Buffer) => string
  read: (rel: string) => string
  git: (...args: string[]) => string
}

/** A real temp git repo with an initial commit, optionally seeded with an inline file tree. */
export function tempRepo(files: Record<string, string> = {}): Repo {
  const repo = repoAt(path.join(tempDir(), 'repo'))
  repo.git('init', '-q', '-b', 'main')
  repo.git('config', 'user.name', 'Test User')
  repo.git('config', 'user.email', 'test@example.com')
  repo.git('config', 'commit.gpgsign', 'false')
  for (const [rel, content] of Object.entries({'README.md': '# test\n', ...files})) repo.write(rel, content)
  repo.git('add', '-A')
  repo.git('commit', '-q', '-m', 'initial')
  return repo
}

/** The Repo helpers for dir (created if missing), with its sandbox home next to it. */
function repoAt(dir: string): Repo {
  fs.mkdirSync(dir, {recursive: true})
  const env = sandboxEnv(dir)
  const run = (...args: string[]) => execFileSync('git', args, {cwd: dir, encoding: 'utf8', env})
  const write = (rel: string, content: string | Buffer) => {
    const file = path.join(dir, rel)
    fs.mkdirSync(path.dirname(file), {recursive: true})
    fs.writeFileSync(file, content)
    return file
  }
  return {
    dir,
    home: env.HOME as string,
    env,
    ctx: overrides =>
      createContext({
        cwd: dir,
        env: env as Record<string, string>,
        now: FIXED_NOW,
        actor: 'tester',
        lookupActor: gitUserName,
        ids: sequentialIds(env.HOME as string),
        ...overrides,
      }),
    write,
    read: rel => fs.readFileSync(path.join(dir, rel), 'utf8'),
    git: run,
  }
}

/**
 * Pinned ids (00000001, 00000002, ...), counted in a file in the sandbox home, so a copy of a
 * template repo goes on from where the template stopped and never hands out an id twice.
 */
export function sequentialIds(home: string): () => string {
  const file = path.join(home, '.cairn-test-ids')
  return () => {
    const next = (fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) : 0) + 1
    fs.writeFileSync(file, String(next))
    return next.toString(16).padStart(8, '0')
  }
}

/**
 * Setup that many tests repeat, done once per test file: `build` runs on the first call, and every
 * call returns a fresh copy of the result (the repo and its sandbox home), so tests share no state.
 */
export function templateRepo(build: (repo: Repo) => unknown): () => Promise<Repo> {
  let template: Promise<Repo> | undefined
  afterAll(async () => {
    const built = await template?.catch(() => undefined)
    if (built) fs.rmSync(path.dirname(built.dir), {recursive: true, force: true})
  })
  return async () => {
    template ??= (async () => {
      const repo = tempRepo()
      // Kept past the test that happens to build it; removed after the file instead.
      temps.splice(temps.indexOf(path.dirname(repo.dir)), 1)
      await build(repo)
      return repo
    })()
    const source = await template
    const copy = path.join(tempDir(), 'repo')
    fs.cpSync(source.dir, copy, {recursive: true})
    fs.cpSync(source.home, `${copy}-home`, {recursive: true})
    return repoAt(copy)
  }
}

/** A copy of a repo and its sandbox home, as another clone would be (removed after the test). */
export function repoCopy(repo: Repo): Repo {
  const copy = path.join(tempDir(), 'repo')
  fs.cpSync(repo.dir, copy, {recursive: true})
  fs.cpSync(repo.home, `${copy}-home`, {recursive: true})
  return repoAt(copy)
}

/** A temp repo with an initialised project store (copied from one built per test file). */
export const initRepo = templateRepo(repo => init(repo.ctx()))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  json: () => any
}

/** Runs the real CLI (bin/run.js) as a child process. */
export function cli(
  args: string[],
  options: {cwd: string; env?: NodeJS.ProcessEnv; input?: string | Buffer},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: options.env ?? sandboxEnv(options.cwd),
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', d => out.push(d))
    child.stderr.on('data', d => err.push(d))
    child.on('error', reject)
    child.on('close', code => {
      const stdout = Buffer.concat(out).toString('utf8')
      resolve({code: code ?? -1, stdout, stderr: Buffer.concat(err).toString('utf8'), json: () => JSON.parse(stdout)})
    })
    child.stdin.end(options.input ?? '')
  })
}

/** Awaits an app call that must fail with a CairnError, and returns the error for the test to inspect. */
export async function refusal(fn: () => unknown): Promise<CairnError> {
  try {
    await fn()
  } catch (error) {
    if (error instanceof CairnError) return error
    throw error
  }
  throw new Error('expected a CairnError, but the call succeeded')
}

/**
 * A snapshot of everything a write could disturb: HEAD, the index, and the work-tree files. The
 * board's replay cache is left out: any read may refresh it (a copied repo has new file times).
 */
export function snapshot(repo: Repo): {head: string; index: string; status: string; files: Record<string, string>} {
  const files: Record<string, string> = {}
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      // Derived caches a read may write (the board's, the card cache and its summaries, lint's) are not what a command changed.
      const cache =
        path.relative(repo.dir, d) === path.join('.cairn', '.cache') &&
        (e.name.startsWith('board') ||
          ['cards.json', 'list.json', 'lint-reach.json', 'steering.json', 'org-pins.json'].includes(e.name))
      if (e.name === '.git' || cache) continue
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else files[path.relative(repo.dir, p)] = fs.readFileSync(p, 'utf8')
    }
  }
  walk(repo.dir)
  return {
    head: repo.git('rev-parse', 'HEAD').trim(),
    index: repo.git('ls-files', '--stage'),
    status: repo.git('status', '--porcelain'),
    files,
  }
}

export const card = (over: Record<string, unknown> = {}) => ({
  slug: 'deepmerge-array-replace-trap',
  type: 'pitfall',
  title: 'deepMerge replaces arrays',
  summary: 'When merging hook config, deepMerge replaces arrays; append and dedupe instead.',
  source_sessions: ['session-1'],
  ...over,
})

/**
 * A node script started as a child that answers line by line on stdout: `line()` resolves with the next line,
 * `exited` with the exit code (its stderr is shown when that is not 0). The lock tests drive their workers so.
 */
export function lineWorker(script: string, args: string[]) {
  const child = spawn(process.execPath, [script, ...args])
  let buffered = ''
  const waiting: ((line: string) => void)[] = []
  const deliver = () => {
    while (buffered.includes('\n') && waiting.length) {
      const at = buffered.indexOf('\n')
      waiting.shift()!(buffered.slice(0, at))
      buffered = buffered.slice(at + 1)
    }
  }
  child.stdout.on('data', d => {
    buffered += d
    deliver()
  })
  const stderr: Buffer[] = []
  child.stderr.on('data', d => stderr.push(d))
  const exited = new Promise<number | null>(resolve =>
    child.on('close', code => {
      if (code !== 0) process.stderr.write(Buffer.concat(stderr))
      resolve(code)
    }),
  )
  const line = () =>
    new Promise<string>(resolve => {
      waiting.push(resolve)
      deliver()
    })
  return {child, line, exited}
}
