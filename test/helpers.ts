import {execFileSync, spawn} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterEach} from 'vitest'
import {CairnError} from '../src/domain/errors.js'
import {createContext, type Context} from '../src/store/context.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BIN = path.join(ROOT, 'bin', 'run.js')
export const FIXED_NOW = '2026-11-29T10:00:00Z'

const temps: string[] = []
afterEach(() => {
  while (temps.length) fs.rmSync(temps.pop()!, {recursive: true, force: true})
})

/** A temp dir removed after the current test. */
export function tempDir(prefix = 'cairn-test-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  temps.push(dir)
  return dir
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {cwd, encoding: 'utf8', env: sandboxEnv(cwd)})
}

/** HOME and CAIRN_HOME inside the sandbox; never the real home directory. */
export function sandboxEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = path.join(path.dirname(dir), `${path.basename(dir)}-home`)
  fs.mkdirSync(home, {recursive: true})
  const env: NodeJS.ProcessEnv = {...process.env, HOME: home, CAIRN_HOME: path.join(home, '.cairn'), GIT_CONFIG_NOSYSTEM: '1', CAIRN_NOW: FIXED_NOW, CAIRN_ACTOR: 'tester', ...extra}
  for (const k of Object.keys(env)) if (k.startsWith('GIT_') && !['GIT_CONFIG_NOSYSTEM'].includes(k) && !(k in extra)) delete env[k]
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
  const parent = tempDir()
  const dir = path.join(parent, 'repo')
  fs.mkdirSync(dir)
  const env = sandboxEnv(dir)
  const home = env.HOME as string
  const run = (...args: string[]) => execFileSync('git', args, {cwd: dir, encoding: 'utf8', env})
  run('init', '-q', '-b', 'main')
  run('config', 'user.name', 'Test User')
  run('config', 'user.email', 'test@example.com')
  run('config', 'commit.gpgsign', 'false')
  const write = (rel: string, content: string | Buffer) => {
    const file = path.join(dir, rel)
    fs.mkdirSync(path.dirname(file), {recursive: true})
    fs.writeFileSync(file, content)
    return file
  }
  for (const [rel, content] of Object.entries({'README.md': '# test\n', ...files})) write(rel, content)
  run('add', '-A')
  run('commit', '-q', '-m', 'initial')
  return {
    dir,
    home,
    env,
    ctx: overrides => createContext({cwd: dir, env: env as Record<string, string>, now: FIXED_NOW, actor: 'tester', ...overrides}),
    write,
    read: rel => fs.readFileSync(path.join(dir, rel), 'utf8'),
    git: run,
  }
}

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  json: () => any
}

/** Runs the real CLI (bin/run.js) as a child process. */
export function cli(args: string[], options: {cwd: string; env?: NodeJS.ProcessEnv; input?: string | Buffer}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {cwd: options.cwd, env: options.env ?? sandboxEnv(options.cwd)})
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

/** A snapshot of everything a write could disturb: HEAD, the index, and the work-tree files. */
export function snapshot(repo: Repo): {head: string; index: string; status: string; files: Record<string, string>} {
  const files: Record<string, string> = {}
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      if (e.name === '.git') continue
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
