import {execFileSync, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {parse} from 'yaml'
import {ROOT} from './helpers.js'
import {condition, type Contexts, interpolate, str, type Value} from './workflow-expr.js'

/**
 * Runs one job of a GitHub workflow the way a runner does, on this machine: `run:` steps in bash
 * with the GITHUB_* environment, expressions evaluated, `if:` honoured, outputs passed on. The
 * few actions the templates use are simulated: checkout clones from a bare "origin" repo over
 * file:// (so depth is real) and leaves the token in the clone's config unless told not to, the
 * artifact actions share a directory, setup-node does nothing.
 * Only the GitHub API is a stub: the `gh` of test/gh-stub.mjs, first on PATH.
 */

export interface Sandbox {
  dir: string
  /** The bare repo every checkout clones and every push reaches. */
  origin: string
  repository: string
  /** JSON state the gh stub answers from and writes back. */
  state: string
  log: string
  artifacts: string
  /** A cairn install made once, moved in as each job's RUNNER_TEMP/cairn so the workflow's own npm install finds it current. */
  warmCairn: string
  env: NodeJS.ProcessEnv
}

export interface GhState {
  repository: string
  comments: {
    id: number
    issue: number
    body: string
    user: {login: string; type: string}
    created_at?: string
    updated_at?: string
  }[]
  reactions: {comment: number; content: string}[]
  statuses: {sha: string; state: string; context: string; description: string}[]
  pulls: {
    number: number
    state: string
    title?: string
    body?: string
    head: {ref: string; sha?: string; repo: {full_name: string}}
    base: {ref: string}
  }[]
  refusePullCreate?: boolean
  /** Each login's permission on the repository (GET collaborators/<login>/permission); read when absent. */
  permissions?: Record<string, string>
  /** The time a comment gets as created_at or updated_at; the real clock when absent. */
  now?: string
  /** Each team ("org/team") the token can see, with its members' logins (GET orgs/<org>/teams/<team>...). */
  teams?: Record<string, string[]>
  /** The token cannot read the organisation's teams (HTTP 403), as the workflow's own token cannot. */
  teamsForbidden?: boolean
}

export interface RunInput {
  /** The workflow's YAML, as `cairn ci install` wrote it. */
  workflow: string
  event: string
  payload: Record<string, unknown>
  /** The commit the run is for (GITHUB_SHA) and its ref. */
  sha: string
  ref: string
  secrets?: Record<string, string>
}

export interface StepResult {
  name: string
  outcome: 'success' | 'failure' | 'skipped'
  stdout: string
  stderr: string
  ms: number
}

export interface JobResult {
  conclusion: 'success' | 'failure' | 'skipped'
  steps: StepResult[]
  workspace: string
  summary: string
  checkouts: {ref: string | null; depth: number; token: string}[]
}

const TOKEN = 'ghs_workflow_token'
let runs = 0

export function ghState(sandbox: Sandbox): GhState {
  return JSON.parse(fs.readFileSync(sandbox.state, 'utf8')) as GhState
}

export function ghCalls(sandbox: Sandbox): {argv: string[]; stdin: string; token: string | null}[] {
  if (!fs.existsSync(sandbox.log)) return []
  return fs
    .readFileSync(sandbox.log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l))
}

/** A job's run folder in a sandbox: its workspace, and its temp/ as RUNNER_TEMP. */
const runDir = (sandboxDir: string, n: number) => path.join(sandboxDir, 'runs', String(n))

export function runJob(sandbox: Sandbox, input: RunInput, jobId?: string): JobResult {
  const wf = parse(input.workflow) as {env?: Record<string, unknown>; jobs: Record<string, Job>}
  const [id, job] = jobId ? [jobId, wf.jobs[jobId]] : Object.entries(wf.jobs)[0]
  if (!job) throw new Error(`no job ${id}`)
  const run = runDir(sandbox.dir, ++runs)
  const temp = path.join(run, 'temp')
  fs.mkdirSync(temp, {recursive: true})
  // The one install of cairn (packCairn) is moved in as the job's RUNNER_TEMP/cairn and back after it: a rename,
  // nothing copied. The workflow's own npm install finds it current; the job must leave it as it was made.
  const cairn = path.join(temp, 'cairn')
  if (!installs.has(sandbox.warmCairn)) installs.set(sandbox.warmCairn, installState(sandbox.warmCairn))
  fs.renameSync(sandbox.warmCairn, cairn)
  let result: JobResult
  try {
    result = runSteps(sandbox, input, wf, job, run)
  } finally {
    fs.renameSync(cairn, sandbox.warmCairn)
  }
  const [was, is] = [installs.get(sandbox.warmCairn)!, installState(sandbox.warmCairn)]
  const at = was.findIndex((line, i) => line !== is[i])
  if (at >= 0 || was.length !== is.length) {
    const show = (line?: string) => JSON.stringify(line?.slice(0, 200) ?? null)
    throw new Error(
      `the job changed the cairn install every job shares: ${show(was[at])} is now ${show(is[at === -1 ? was.length : at])}`,
    )
  }
  return result
}

/** Each shared install as it was made: installState before its first job. */
const installs = new Map<string, string[]>()

/**
 * Every entry under an install, a line each: its path, mode, size, inode and change time, so a file written, added,
 * removed or replaced shows. npm rewrites its hidden lockfile (node_modules/.package-lock.json) on every install, so
 * that one counts by its content.
 */
function installState(dir: string): string[] {
  const lines: string[] = []
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const entry = path.join(rel, name)
      const st = fs.lstatSync(path.join(dir, entry))
      const what =
        entry === path.join('node_modules', '.package-lock.json')
          ? fs.readFileSync(path.join(dir, entry), 'utf8')
          : `${st.mode} ${st.size} ${st.ino} ${st.ctimeMs}`
      lines.push(`${entry} ${what}`)
      if (st.isDirectory()) walk(entry)
    }
  }
  walk('')
  return lines
}

function runSteps(
  sandbox: Sandbox,
  input: RunInput,
  wf: {env?: Record<string, unknown>},
  job: Job,
  run: string,
): JobResult {
  const workspace = path.join(run, 'workspace')
  const temp = path.join(run, 'temp')
  fs.mkdirSync(workspace)
  const file = (name: string) => {
    const f = path.join(run, name)
    fs.writeFileSync(f, '')
    return f
  }
  const eventPath = path.join(run, 'event.json')
  fs.writeFileSync(eventPath, JSON.stringify(input.payload))
  const summary = file('summary.md')
  const refName = input.ref.replace(/^refs\/(heads|tags)\//, '')
  const github: Value = {
    event: input.payload as Value,
    event_name: input.event,
    repository: sandbox.repository,
    sha: input.sha,
    ref: input.ref,
    ref_name: refName,
    token: TOKEN,
    server_url: 'https://github.com',
    run_id: String(4000 + runs),
  }
  const base: NodeJS.ProcessEnv = {
    ...sandbox.env,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: input.event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: workspace,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_REPOSITORY: sandbox.repository,
    GITHUB_SHA: input.sha,
    GITHUB_REF: input.ref,
    GITHUB_REF_NAME: refName,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: str(github.run_id),
    RUNNER_TEMP: temp,
  }
  const secrets: Record<string, Value> = {GITHUB_TOKEN: TOKEN, ...input.secrets}
  const ctx = (env: Record<string, string>, steps: Record<string, Value>): Contexts => ({
    github,
    env,
    secrets,
    steps,
    runner: {temp},
  })
  const evalEnv = (vars: Record<string, unknown> | undefined, c: Contexts) =>
    Object.fromEntries(Object.entries(vars ?? {}).map(([k, v]) => [k, interpolate(str(v as Value), c)]))
  const result: JobResult = {conclusion: 'success', steps: [], workspace, summary: '', checkouts: []}
  const workflowEnv = evalEnv(wf.env, ctx({}, {}))
  if (!condition(job.if, ctx(workflowEnv, {}))) {
    result.conclusion = 'skipped'
    return result
  }
  const jobEnv = {...workflowEnv, ...evalEnv(job.env, ctx(workflowEnv, {}))}
  const steps: Record<string, Value> = {}
  let extraPath = ''
  job.steps.forEach((step, n) => {
    const name = step.name ?? step.uses ?? `step ${n + 1}`
    const c = ctx(jobEnv, steps)
    // As on GitHub, a step after a failed one runs only when its if: calls always().
    const runsAfterFailure = /\balways\(\)/.test(String(step.if ?? ''))
    if ((result.conclusion === 'failure' && !runsAfterFailure) || !condition(step.if, c)) {
      result.steps.push({name, outcome: 'skipped', stdout: '', stderr: '', ms: 0})
      if (step.id) steps[step.id] = {outputs: {}, outcome: 'skipped'}
      return
    }
    const env = {...base, ...jobEnv, ...evalEnv(step.env, c)}
    const outputs = file(`output-${n}`)
    const envFile = file(`env-${n}`)
    const pathFile = file(`path-${n}`)
    Object.assign(env, {
      GITHUB_OUTPUT: outputs,
      GITHUB_ENV: envFile,
      GITHUB_PATH: pathFile,
      PATH: `${extraPath}${env.PATH}`,
    })
    let done: StepResult
    const started = Date.now()
    if (step.run !== undefined) {
      const script = path.join(run, `step-${n}.sh`)
      fs.writeFileSync(script, interpolate(step.run, c))
      const cwd = step['working-directory']
        ? path.resolve(workspace, interpolate(step['working-directory'], c))
        : workspace
      const p = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        cwd,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      })
      done = {name, outcome: p.status === 0 ? 'success' : 'failure', stdout: p.stdout, stderr: p.stderr, ms: 0}
    } else {
      const inputs = evalEnv(step.with, c)
      done = {name, outcome: 'success', stdout: '', stderr: '', ms: 0}
      action(sandbox, step.uses!, inputs, {workspace, github, result, env})
    }
    done.ms = Date.now() - started
    result.steps.push(done)
    const out = readKeyValues(outputs)
    Object.assign(jobEnv, readKeyValues(envFile))
    extraPath =
      fs
        .readFileSync(pathFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .reverse()
        .map(p => `${p}:`)
        .join('') + extraPath
    if (step.id) steps[step.id] = {outputs: out, outcome: done.outcome}
    if (done.outcome === 'failure') result.conclusion = 'failure'
  })
  result.summary = fs.readFileSync(summary, 'utf8')
  return result
}

interface Step {
  id?: string
  name?: string
  if?: unknown
  uses?: string
  with?: Record<string, unknown>
  run?: string
  env?: Record<string, unknown>
  'working-directory'?: string
}

interface Job {
  if?: unknown
  env?: Record<string, unknown>
  steps: Step[]
}

/** GITHUB_OUTPUT and GITHUB_ENV: `key=value` lines and `key<<DELIM` blocks. */
function readKeyValues(file: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i])
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1)
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n')
      i = end
    } else if (lines[i].includes('=')) {
      const at = lines[i].indexOf('=')
      out[lines[i].slice(0, at)] = lines[i].slice(at + 1)
    }
  }
  return out
}

type ActionRun = {workspace: string; github: Value & object; result: JobResult; env: NodeJS.ProcessEnv}

function action(sandbox: Sandbox, uses: string, inputs: Record<string, string>, run: ActionRun): void {
  const m = /^([\w-]+\/[\w-]+)@([0-9a-f]{40})$/.exec(uses)
  if (!m) throw new Error(`${uses}: not pinned to a full commit SHA`)
  const gh = run.github as Record<string, Value>
  // actions/checkout clones into `path` under the workspace, when given.
  const into = path.resolve(run.workspace, inputs.path ?? '')
  const git = (...args: string[]) =>
    execFileSync('git', args, {cwd: into, env: run.env, encoding: 'utf8', stdio: 'pipe'})
  if (m[1] === 'actions/checkout') {
    fs.mkdirSync(into, {recursive: true})
    const depth = inputs['fetch-depth'] === undefined ? 1 : Number(inputs['fetch-depth'])
    const deep = depth > 0 ? [`--depth=${depth}`] : []
    git('init', '-q')
    git('remote', 'add', 'origin', `file://${sandbox.origin}`)
    const event = gh.event as Record<string, Value>
    const ref = inputs.ref || (gh.event_name === 'pull_request' ? null : str(gh.ref_name))
    if (ref && /^[0-9a-f]{40}$/.test(ref)) {
      // A commit: actions/checkout fetches it (with fetch-depth 0, every branch too) and checks it out detached.
      if (depth === 0) git('fetch', '-q', '--no-tags', 'origin', '+refs/heads/*:refs/remotes/origin/*')
      git('fetch', '-q', '--no-tags', ...deep, 'origin', ref)
      git('checkout', '-q', '--detach', ref)
    } else if (ref) {
      git('fetch', '-q', '--no-tags', ...deep, 'origin', `+refs/heads/${ref}:refs/remotes/origin/${ref}`)
      git('checkout', '-q', '-B', ref, `refs/remotes/origin/${ref}`)
    } else {
      const number = str((event.pull_request as Record<string, Value>).number)
      git('fetch', '-q', '--no-tags', ...deep, 'origin', `+${str(gh.sha)}:refs/remotes/pull/${number}/merge`)
      git('checkout', '-q', '--detach', str(gh.sha))
    }
    const token = inputs.token || str(gh.token)
    // As actions/checkout does, unless persist-credentials is false: the token stays in the clone's config.
    if (inputs['persist-credentials'] !== 'false') {
      const basic = Buffer.from(`x-access-token:${token}`).toString('base64')
      git('config', '--local', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${basic}`)
    }
    run.result.checkouts.push({ref, depth, token})
  } else if (m[1] === 'actions/upload-artifact') {
    fs.cpSync(inputs.path, path.join(sandbox.artifacts, inputs.name), {recursive: true})
  } else if (m[1] === 'actions/download-artifact') {
    fs.cpSync(path.join(sandbox.artifacts, inputs.name), inputs.path, {recursive: true})
  } else if (m[1] !== 'actions/setup-node') {
    throw new Error(`the runner does not simulate ${m[1]}`)
  }
}

/**
 * This worktree as an npm package: `npm pack` of the built files (run `npm run build` first), and
 * one install of it with the workflows' own npm command, which every job then finds in place.
 * The sandboxes that use it must be made in dir too (see the install's place below).
 */
export function packCairn(dir: string, env: NodeJS.ProcessEnv): {tarball: string; warm: string} {
  const copy = path.join(dir, 'package')
  for (const name of ['package.json', 'README.md', 'bin', 'data', 'dist', 'templates', 'oclif.manifest.json']) {
    fs.cpSync(path.join(ROOT, name), path.join(copy, name), {recursive: true})
  }
  const opts = {env, encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe']}
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {...opts, cwd: copy}),
  ) as {filename: string}[]
  const tarball = path.join(dir, packed[0].filename)
  // Where a job's RUNNER_TEMP/cairn is, in a sandbox beside the tarball: npm records the tarball's path relative to
  // the install (in node_modules/.package-lock.json), so each job's npm install leaves this file as it was.
  const warm = path.join(runDir(path.join(dir, 'install'), 0), 'temp', 'cairn')
  execFileSync(
    'npm',
    ['install', '--prefix', warm, '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', tarball],
    {...opts, cwd: dir},
  )
  return {tarball, warm}
}

/** A bin dir whose `gh` is the stub, for the front of PATH. */
export function ghStubBin(dir: string): string {
  const bin = path.join(dir, 'bin')
  fs.mkdirSync(bin, {recursive: true})
  const stub = path.join(bin, 'gh')
  const script = path.join(ROOT, 'test', 'gh-stub.mjs')
  fs.writeFileSync(stub, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)} "$@"\n`)
  fs.chmodSync(stub, 0o755)
  return bin
}

/** A fresh origin (bare, fetchable by SHA like GitHub's), gh state and log under dir; the npm cache and cairn install are shared. */
export function createSandbox(
  dir: string,
  shared: {warm: string; npmCache: string; bin: string},
  repository = 'acme/widgets',
): Sandbox {
  fs.mkdirSync(dir, {recursive: true})
  const origin = path.join(dir, 'origin.git')
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin])
  execFileSync('git', ['config', 'uploadpack.allowAnySHA1InWant', 'true'], {cwd: origin})
  const home = path.join(dir, 'home')
  fs.mkdirSync(home)
  const state = path.join(dir, 'gh-state.json')
  // maint has write access; everyone else reads (what GitHub answers for a stranger to the repository).
  const initial: GhState = {
    repository,
    comments: [],
    reactions: [],
    statuses: [],
    pulls: [],
    permissions: {maint: 'write'},
    now: '2026-11-29T10:00:00Z',
  }
  fs.writeFileSync(state, JSON.stringify(initial))
  const log = path.join(dir, 'gh-log.jsonl')
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(npm_|GIT_|GITHUB_|RUNNER_|CAIRN_)/i.test(k)),
  )
  Object.assign(env, {
    HOME: home,
    CAIRN_HOME: path.join(home, '.cairn'),
    GIT_CONFIG_NOSYSTEM: '1',
    npm_config_cache: shared.npmCache,
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
    GH_STUB_STATE: state,
    GH_STUB_LOG: log,
    PATH: [shared.bin, path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
  })
  return {dir, origin, repository, state, log, artifacts: path.join(dir, 'artifacts'), warmCairn: shared.warm, env}
}

/** Changes the gh stub's state (a pull request to exist, pull-request creation to be refused). */
export function setGhState(sandbox: Sandbox, change: (s: GhState) => void): void {
  const s = ghState(sandbox)
  change(s)
  fs.writeFileSync(sandbox.state, JSON.stringify(s))
}
