// Benchmark helpers: sandboxed temp repos, whole-process CLI timing, medians, tables.
// Plain Node ESM, no dependencies. Every temp dir lives under os.tmpdir() and is removed by cleanup().
import {execFileSync, spawn, spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BIN = path.join(ROOT, 'bin', 'run.js')
export const TIME_BIN = '/usr/bin/time'

// ---------------------------------------------------------------------------------------------
// Temp dirs

const temps = new Set()

/** A fresh temp dir (real path), removed by cleanup() or at process exit. */
export function tempDir(prefix = 'cairn-bench-') {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  temps.add(dir)
  return dir
}

/** Removes one temp dir, or all of them when no dir is given. */
export function cleanup(dir) {
  const dirs = dir ? [dir] : [...temps]
  for (const d of dirs) {
    fs.rmSync(d, {recursive: true, force: true})
    temps.delete(d)
  }
}

process.on('exit', () => cleanup())
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanup()
    process.exit(128 + os.constants.signals[signal])
  })
}

// ---------------------------------------------------------------------------------------------
// Sandbox

/**
 * The environment for git and cairn child processes: HOME and CAIRN_HOME inside the sandbox
 * (never the real home), no system git config, and no inherited GIT_* or CAIRN_* variables.
 */
export function sandboxEnv(home, extra = {}) {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('GIT_') || k.startsWith('CAIRN_')) continue
    env[k] = v
  }
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    CAIRN_HOME: path.join(home, '.cairn'),
    GIT_CONFIG_NOSYSTEM: '1',
    CAIRN_ACTOR: 'bench',
    ...extra,
  }
}

/**
 * A temp git repo (branch main, local identity, one initial commit) with its own HOME.
 * With {init: true} (the default) `cairn init` has run in it. With {base: dir} it is made in that
 * empty dir, which cleanup() leaves alone.
 * Returns {base, dir, home, env, git(...args), cairn(args, options), remove()}.
 */
export async function makeRepo(options = {}) {
  const {init = true, files = {}} = options
  // A given base (an empty dir) outlives the run: fixtures cached between runs are built there.
  const base = options.base ?? tempDir()
  const dir = path.join(base, 'repo')
  const home = path.join(base, 'home')
  fs.mkdirSync(dir)
  fs.mkdirSync(home)
  const env = sandboxEnv(home)
  const git = (...args) => execFileSync('git', args, {cwd: dir, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024})
  git('init', '-q', '-b', 'main')
  git('config', 'user.name', 'Bench User')
  git('config', 'user.email', 'bench@example.com')
  git('config', 'commit.gpgsign', 'false')
  for (const [rel, content] of Object.entries({'README.md': '# bench\n', ...files})) {
    const file = path.join(dir, rel)
    fs.mkdirSync(path.dirname(file), {recursive: true})
    fs.writeFileSync(file, content)
  }
  git('add', '-A')
  git('commit', '-q', '-m', 'initial')
  const repo = {
    base,
    dir,
    home,
    env,
    git,
    /** Runs the CLI in this repo (measured like any other run). */
    cairn: (args, opts = {}) => runCli(args, {cwd: dir, env, ...opts}),
    remove: () => cleanup(base),
  }
  if (init) await mustSucceed(repo.cairn(['init']), 'cairn init')
  return repo
}

/**
 * A committed repo kept between runs in BENCH_FIXTURES (default <tmp>/cairn-bench-fixtures)/<key>: reused while its
 * marker names this generator and its card files are as committed (git status), with its caches and hook state
 * cleared; else made again: `write(repo)` fills repo.dir and returns what the marker keeps, then the cards are
 * committed; the marker also keeps build_ms, the time to make it. BENCH_FIXTURES_FRESH=1 always makes it again.
 * Returns {dir, env, home, reused, ...marker}.
 */
export async function cachedFixture(key, generator, write) {
  const base = path.join(process.env.BENCH_FIXTURES ?? path.join(os.tmpdir(), 'cairn-bench-fixtures'), key)
  const dir = path.join(base, 'repo')
  const home = path.join(base, 'home')
  const marker = path.join(base, 'fixture.json')
  const env = sandboxEnv(home)
  const rmrf = p => fs.rmSync(p, {recursive: true, force: true})
  if (process.env.BENCH_FIXTURES_FRESH !== '1' && fs.existsSync(marker)) {
    const m = JSON.parse(fs.readFileSync(marker, 'utf8'))
    const status = ['status', '--porcelain', '--untracked-files=all', '--', '.cairn/cards']
    const changed = execFileSync('git', status, {cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28})
    if (m.generator === generator && changed === '') {
      for (const d of ['.cairn/.cache', '.cairn/.local']) rmrf(path.join(dir, d))
      rmrf(path.join(home, '.cairn', '.cache'))
      log(`${key}: cached fixture ${base}`)
      return {dir, env, home, ...m, reused: true}
    }
    log(`${key}: the fixture in ${base} is not as generated: building it again`)
  }
  rmrf(base)
  fs.mkdirSync(base, {recursive: true})
  const started = Date.now()
  const repo = await makeRepo({base})
  const made = await write(repo)
  repo.git('-c', 'core.safecrlf=false', 'add', '-A', '.cairn')
  repo.git('commit', '-q', '-m', `bench: ${key}`)
  const m = {generator, ...made, build_ms: Date.now() - started}
  fs.writeFileSync(marker, `${JSON.stringify(m)}\n`)
  log(`${key}: written and committed in ${(m.build_ms / 1000).toFixed(1)} s (${base})`)
  return {dir, env, home, ...m, reused: false}
}

/** Awaits a runCli result and throws with its output when the exit code is not 0. */
export async function mustSucceed(pending, what) {
  const r = await pending
  if (r.code !== 0)
    throw new Error(`${what} exited ${r.code}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`)
  return r
}

// ---------------------------------------------------------------------------------------------
// Measuring a whole CLI process

let timeSupport
/** True when GNU time (with -f and -o) is available to report the child's peak RSS. */
export function hasGnuTime() {
  if (timeSupport === undefined) {
    timeSupport = false
    if (fs.existsSync(TIME_BIN)) {
      const r = spawnSync(TIME_BIN, ['-f', '%M', '-o', '/dev/null', 'true'], {stdio: 'ignore'})
      timeSupport = r.status === 0
    }
  }
  return timeSupport
}

/**
 * Runs `node bin/run.js ...args` as a whole process. Wall time (process.hrtime) covers spawn to
 * exit, Node start-up included. Peak RSS (MB) comes from `/usr/bin/time -f %M`, else null; it is
 * the largest single process of the tree (node, or a git child it waited for), not their sum.
 * Returns {code, signal, stdout, stderr, wall_ms, peak_rss_mb}.
 */
export function runCli(args, options) {
  return runProcess([process.execPath, BIN, ...args], options)
}

/** Like runCli, for any command line (argv[0] is the program): the floor and the search limit are measured this way. */
export function runProcess(argv, options) {
  const {cwd, env, input, rss = true} = options
  const cmd = [...argv]
  let rssFile = null
  if (rss && hasGnuTime()) {
    rssFile = path.join(tempDir('cairn-bench-rss-'), 'rss')
    cmd.unshift(TIME_BIN, '-f', '%M', '-o', rssFile)
  }
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(cmd[0], cmd.slice(1), {cwd, env, stdio: ['pipe', 'pipe', 'pipe']})
    const out = []
    const err = []
    child.stdout.on('data', d => out.push(d))
    child.stderr.on('data', d => err.push(d))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      const wall_ms = Number(process.hrtime.bigint() - start) / 1e6
      let peak_rss_mb = null
      if (rssFile) {
        try {
          // GNU time writes "%M" (KiB) as the last line; a signal note may precede it.
          const lines = fs.readFileSync(rssFile, 'utf8').trim().split('\n')
          const kb = Number(lines[lines.length - 1])
          if (Number.isFinite(kb)) peak_rss_mb = kb / 1024
        } catch {}
        cleanup(path.dirname(rssFile))
      }
      resolve({
        code: code ?? -1,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        wall_ms,
        peak_rss_mb,
      })
    })
    child.stdin.on('error', () => {})
    child.stdin.end(input ?? '')
  })
}

let python
/** The real python3 binary (not a pyenv shim), or null: it runs bench/rusage.py. */
function pythonBin() {
  if (python === undefined) {
    const r = spawnSync('python3', ['-c', 'import os, sys; os.wait4; os.posix_spawn; print(sys.executable)'], {
      encoding: 'utf8',
    })
    python = r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null
  }
  return python
}

/** Where runCost's CPU times come from: wait4 in microseconds, or GNU time in hundredths of a second. */
export const costSource = () =>
  pythonBin() ? 'wait4 (bench/rusage.py)' : hasGnuTime() ? '/usr/bin/time -f "%e %U %S %M" (10 ms steps)' : null

/**
 * Like runProcess, with the child's exact cost: {code, stdout, stderr, wall_ms, cpu_ms (user + sys),
 * user_ms, sys_ms, peak_rss_mb, timed_out}. Wall runs from spawn to exit as the wrapper saw it, so
 * the wrapper's own start-up is not in it. With timeoutS the child's process group is killed then.
 */
export async function runCost(argv, {cwd, env, input, timeoutS = 0}) {
  const dir = tempDir('cairn-bench-cost-')
  const out = path.join(dir, 'cost')
  const py = pythonBin()
  let cmd
  if (py) cmd = [py, path.join(ROOT, 'bench', 'rusage.py'), out, String(timeoutS), ...argv]
  else if (hasGnuTime())
    cmd = [
      TIME_BIN,
      '-f',
      '%e %U %S %M',
      '-o',
      out,
      ...(timeoutS ? ['timeout', '-s', 'KILL', String(timeoutS)] : []),
      ...argv,
    ]
  else throw new Error('runCost needs python3 (os.wait4) or GNU time')
  try {
    const r = await runProcess(cmd, {cwd, env, input, rss: false})
    let cost
    if (py) {
      const c = JSON.parse(fs.readFileSync(out, 'utf8'))
      cost = {
        wall_ms: c.wall_ms,
        user_ms: c.user_ms,
        sys_ms: c.sys_ms,
        peak_rss_mb: c.peak_rss_kb / 1024,
        timed_out: c.timed_out,
      }
    } else {
      const lines = fs.readFileSync(out, 'utf8').trim().split('\n')
      const [e, u, s, m] = lines[lines.length - 1].split(' ').map(Number)
      cost = {wall_ms: e * 1000, user_ms: u * 1000, sys_ms: s * 1000, peak_rss_mb: m / 1024, timed_out: r.code === 137}
    }
    return {
      code: r.code,
      signal: r.signal,
      stdout: r.stdout,
      stderr: r.stderr,
      ...cost,
      cpu_ms: cost.user_ms + cost.sys_ms,
    }
  } finally {
    cleanup(dir)
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics and scenario plumbing

/** Rounded to d decimals; null stays null. */
export const round = (x, d = 1) => (x === null || x === undefined ? null : Math.round(x * 10 ** d) / 10 ** d)

/** runCost's runs as a row's figures: median wall and CPU, each run's, and the peak RSS. */
export const costStats = runs => ({
  median_ms: round(median(runs.map(r => r.wall_ms))),
  runs_ms: runs.map(r => round(r.wall_ms)),
  cpu_ms: round(median(runs.map(r => r.cpu_ms))),
  runs_cpu_ms: runs.map(r => round(r.cpu_ms)),
  peak_rss_mb: round(Math.max(...runs.map(r => r.peak_rss_mb))),
  runs_rss_mb: runs.map(r => round(r.peak_rss_mb)),
})

/** runCost that fails loudly on a non-zero exit; a run killed at its timeoutS is returned as it is. */
export async function mustCost(argv, options, what) {
  const r = await runCost(argv, options)
  if (r.timed_out) return r
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\nstderr: ${r.stderr.slice(0, 2000)}`)
  return r
}

/** Claude Code's UserPromptSubmit payload for the prompt hook. */
export const promptPayload = (cwd, session, prompt) =>
  JSON.stringify({
    session_id: session,
    transcript_path: null,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt,
  })

export function median(xs) {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/**
 * Runs a measured CLI command `runs` times and returns one result row.
 *   setup(i)          -> state (e.g. a fresh repo); not timed
 *   command(state, i) -> {args, cwd, env, input?}, or {argv, ...} to run any program
 *   verify(result, state, i) -> throws when the run did not do what it should; not timed
 *   teardown(state, i) -> not timed
 * Row: {name, median_ms, runs_ms, peak_rss_mb (max over runs), runs_rss_mb, ...extra}.
 */
export async function measure({
  name,
  runs = 3,
  setup = async () => ({}),
  command,
  verify = () => {},
  teardown = () => {},
  extra = {},
}) {
  const times = []
  const rss = []
  for (let i = 0; i < runs; i++) {
    const state = await setup(i)
    try {
      const spec = await command(state, i)
      const r = spec.argv ? await runProcess(spec.argv, spec) : await runCli(spec.args, spec)
      if (r.code !== 0)
        throw new Error(
          `${name}: run ${i + 1} exited ${r.code}${r.signal ? ` (${r.signal})` : ''}\nstderr: ${r.stderr.slice(0, 2000)}`,
        )
      await verify(r, state, i)
      times.push(r.wall_ms)
      rss.push(r.peak_rss_mb)
      log(
        `${name}: run ${i + 1}/${runs} ${r.wall_ms.toFixed(0)} ms${r.peak_rss_mb === null ? '' : `, ${r.peak_rss_mb.toFixed(1)} MB`}`,
      )
    } finally {
      await teardown(state, i)
    }
  }
  const known = rss.filter(x => x !== null)
  return {
    name,
    median_ms: round(median(times)),
    runs_ms: times.map(t => round(t)),
    peak_rss_mb: known.length ? round(Math.max(...known)) : null,
    runs_rss_mb: rss.map(x => round(x)),
    ...extra,
  }
}

/**
 * Runs each variant once per round, `runs` rounds, so that the load of a shared machine falls on all of them
 * alike (the floor, this build, and a baseline build measured at the same moment), and returns one row per
 * variant: {name, median_ms, runs_ms, cpu_ms (median user + sys), peak_rss_mb, runs_rss_mb, ...extra}.
 * A variant is {name, argv} for any program, or {name, args, bin?} for a cairn (bin: another build's
 * bin/run.js); setup() runs before each of its runs, untimed; verify(result) throws when a run went wrong.
 */
export async function interleaved(variants, {runs = 3, cwd, env}) {
  const results = variants.map(() => [])
  for (let i = 0; i < runs; i++) {
    for (const [k, v] of variants.entries()) {
      await v.setup?.()
      const argv = v.argv ?? [process.execPath, v.bin ?? BIN, ...v.args]
      const r = await runCost(argv, {cwd, env})
      if (r.code !== 0) throw new Error(`${v.name}: run ${i + 1} exited ${r.code}\nstderr: ${r.stderr.slice(0, 2000)}`)
      await v.verify?.(r)
      results[k].push(r)
      log(
        `${v.name}: run ${i + 1}/${runs} ${r.wall_ms.toFixed(0)} ms wall, ${r.cpu_ms.toFixed(0)} ms cpu, ${r.peak_rss_mb.toFixed(1)} MB`,
      )
    }
  }
  return variants.map((v, k) => ({
    name: v.name,
    median_ms: round(median(results[k].map(r => r.wall_ms))),
    runs_ms: results[k].map(r => round(r.wall_ms)),
    cpu_ms: round(median(results[k].map(r => r.cpu_ms))),
    peak_rss_mb: round(Math.max(...results[k].map(r => r.peak_rss_mb))),
    runs_rss_mb: results[k].map(r => round(r.peak_rss_mb)),
    ...v.extra,
  }))
}

/** BENCH_BASELINE, a checkout of another cairn with dist/ built: its bin/run.js, measured beside this build's. */
export function baselineBin() {
  const dir = process.env.BENCH_BASELINE
  if (!dir) return null
  const bin = path.join(path.resolve(dir), 'bin', 'run.js')
  if (!fs.existsSync(path.join(path.resolve(dir), 'dist')))
    throw new Error(`BENCH_BASELINE ${dir} has no dist/: build it first`)
  return bin
}

/** Progress on stderr, so stdout carries only the table. */
export function log(message) {
  process.stderr.write(`  ${message}\n`)
}

// ---------------------------------------------------------------------------------------------
// Card generation

const FILLER = new Set(['the', 'a', 'an', 'stuff', 'thing', 'things', 'misc', 'etc', 'some', 'various'])
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** Throws unless slug obeys the slug rules: kebab-case, 2–5 words, 20–40 chars, no filler words. */
export function assertValidSlug(slug) {
  const words = slug.split('-')
  const ok =
    KEBAB.test(slug) &&
    words.length >= 2 &&
    words.length <= 5 &&
    slug.length >= 20 &&
    slug.length <= 40 &&
    !words.some(w => FILLER.has(w))
  if (!ok) throw new Error(`generated slug "${slug}" breaks the slug rules`)
  return slug
}

/** n unique valid slugs: `${prefix}-0001`, ... (zero-padded to the width of n). */
export function slugs(prefix, n) {
  const width = String(n).length
  const out = []
  for (let i = 1; i <= n; i++) out.push(assertValidSlug(`${prefix}-${String(i).padStart(width, '0')}`))
  if (new Set(out).size !== n) throw new Error('generated slugs are not unique')
  return out
}

export const CARD_TYPES = ['model', 'decision', 'guideline', 'pitfall', 'process']

const idempotencyKey = (sessions, type, slug) =>
  createHash('sha256')
    .update(JSON.stringify({source_session: sessions?.[0], type, slug}))
    .digest('hex')

function replaceLine(text, key, value) {
  const re = new RegExp(`^${key}: .*$`, 'm')
  if (!re.test(text)) throw new Error(`seed card has no "${key}:" line`)
  return text.replace(re, () => `${key}: ${value}`)
}

/**
 * Writes many pending cards fast, without one giant propose: proposes one seed card per type
 * through the real CLI, then clones each seed's file for every proposal, substituting id, title,
 * summary (frontmatter and body), links and the idempotency key. Everything else (keywords,
 * scope, ...) is the seed's, i.e. the first proposal of that type. Proposals need slug, type,
 * title and summary; links and source_sessions are optional. Commits the cards unless
 * {commit: false}. Returns the repo-relative paths written.
 */
export async function cloneCards(repo, proposals, {commit = true} = {}) {
  const seeds = new Map()
  for (const p of proposals) {
    if (!CARD_TYPES.includes(p.type))
      throw new Error(`cloneCards: type "${p.type}" must be one of ${CARD_TYPES.join(', ')} (singular)`)
    if (!seeds.has(p.type))
      seeds.set(p.type, {...p, slug: assertValidSlug(`bench-seed-${p.type}-template`), links: undefined})
  }
  const seedFile = path.join(repo.base, `seeds-${Date.now()}.json`)
  fs.writeFileSync(seedFile, JSON.stringify([...seeds.values()]))
  await mustSucceed(repo.cairn(['propose', '--no-commit', seedFile]), 'propose seed cards')
  fs.rmSync(seedFile)
  const templates = new Map()
  for (const seed of seeds.values()) {
    const file = path.join(repo.dir, '.cairn', 'pending', seed.type, `${seed.slug}.md`)
    const text = fs.readFileSync(file, 'utf8')
    fs.rmSync(file)
    const close = text.indexOf('\n---\n', 4)
    if (close < 0) throw new Error(`seed card ${seed.slug} has no closing frontmatter line`)
    const end = close + 5
    templates.set(seed.type, {head: text.slice(0, end), body: text.slice(end), seed})
  }
  // propose --no-commit staged the seeds; unstage them (they were new).
  repo.git(
    'rm',
    '-q',
    '--cached',
    '--ignore-unmatch',
    '--',
    ...[...seeds.values()].map(s => `.cairn/pending/${s.type}/${s.slug}.md`),
  )
  const written = []
  for (const p of proposals) {
    const {head, body, seed} = templates.get(p.type)
    let fm = replaceLine(head, 'id', p.slug)
    fm = replaceLine(fm, 'title', JSON.stringify(p.title))
    fm = replaceLine(fm, 'summary', JSON.stringify(p.summary))
    fm = replaceLine(fm, '  idempotency_key', idempotencyKey(p.source_sessions, p.type, p.slug))
    if (p.links?.length) fm = replaceLine(fm, 'links', JSON.stringify(p.links))
    const rel = `.cairn/pending/${p.type}/${p.slug}.md`
    const file = path.join(repo.dir, ...rel.split('/'))
    if (fs.existsSync(file)) throw new Error(`cloneCards: ${rel} already exists`)
    fs.writeFileSync(file, fm + body.split(seed.summary).join(p.summary))
    written.push(rel)
  }
  if (commit) {
    repo.git('add', '-A', '.cairn')
    repo.git('commit', '-q', '-m', `bench: ${proposals.length} cards`)
  }
  return written
}

/** Counts regular files under dir, recursively. */
export function countFiles(dir) {
  let n = 0
  const walk = d => {
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      if (e.isDirectory()) walk(path.join(d, e.name))
      else if (e.isFile()) n++
    }
  }
  if (fs.existsSync(dir)) walk(dir)
  return n
}

// ---------------------------------------------------------------------------------------------
// Output

const fmt = (x, digits = 1) => (x === null || x === undefined ? '—' : Number(x).toFixed(digits))

/** Prints result rows as an aligned table on stdout. */
export function printTable(rows) {
  const header = ['scenario', 'median ms', 'runs ms', 'peak RSS MB']
  const body = rows.map(r => [
    r.name,
    r.error ? 'FAILED' : fmt(r.median_ms, 0),
    r.error ? String(r.error).split('\n')[0].slice(0, 60) : (r.runs_ms ?? []).map(t => fmt(t, 0)).join(' / '),
    r.error ? '' : fmt(r.peak_rss_mb),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map(b => b[i].length)))
  const right = [false, true, false, true]
  const line = cells =>
    cells
      .map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd()
  const lines = [line(header), widths.map(w => '-'.repeat(w)).join('  '), ...body.map(line)]
  process.stdout.write(`${lines.join('\n')}\n`)
  if (!hasGnuTime()) process.stdout.write('(peak RSS unavailable: /usr/bin/time with -f/-o not found)\n')
}
