// hook-scale (issue 15, hook performance at scale): at 1,000, 10,000 and 100,000 cards,
// - the prompt hook, `cairn hook user-prompt-submit --agent claude` as a whole process with Claude
//   Code's JSON on stdin and a warm index, for a prompt that matches nothing and one made of words
//   hundreds of cards share: median CPU (user + sys of the child and what it waited for, from wait4)
//   and wall, each over the median of the `node -e 0` runs interleaved with them, and peak RSS;
// - the cold index build (no cache): `node bin/prompt-recall.js` on a store without an index, the
//   whole process (it builds inline), in seconds and ms per card; timed out after
//   BENCH_SCALE_BUILD_TIMEOUT_S (600), which is then reported and leaves that size's other rows out;
//   A run past the hook's deadline (1.5 s, the most hooks.deadline_ms allows) gives the neutral
//   answer and is counted as late; the common prompt also runs through bin/prompt-recall.js (the
//   same match, no hook runner and no deadline);
// - the freshness check of a warm call: bench/freshness-probe.js times openIndex on an up-to-date
//   index in a fresh process, minus the index head read alone.
// The library (bench/recall-cards.js): one word in five drawn from a team's vocabulary (TEAM_WORDS),
// so the common prompt can admit about a tenth of the cards (hundreds at 10,000, thousands at 100,000);
// cards in the layout cairn writes, 5% in hand-edited layouts (CRLF among them); written as files and
// committed, never proposed. Each size's repo is cached in BENCH_FIXTURES (default
// <tmp>/cairn-bench-fixtures/hook-scale-g<GENERATOR>-<n>) and reused while its card files are
// unchanged (git status); its .cache and .local are cleared first. BENCH_FIXTURES_FRESH=1 rebuilds.
// BENCH_SCALE_SIZES=1000,10000,100000 picks sizes (default 1000,10000); BENCH_SCALE_RUNS runs per row (7).
import {execFileSync, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {BIN, cachedFixture, costSource, costStats, log, median, mustCost, promptPayload, ROOT, round} from '../lib.js'
import {TEAM_WORDS, writeLibrary} from '../recall-cards.js'

export const description =
  'issue 15: prompt hook (no match, common words), cold index build, freshness check; 1,000 to 100,000 cards beside node -e 0'

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,10000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 7)
const BUILD_TIMEOUT_S = Number(process.env.BENCH_SCALE_BUILD_TIMEOUT_S ?? 600)
/** Bump when writeLibrary's output or LIBRARY changes: cached fixtures of another generator are not used. */
const GENERATOR = 1
const LIBRARY = {team: 0.2, canonical: true, handEdited: 0.05}
const NO_MATCH = 'rename the quarterly vacation spreadsheet colours'
const COMMON = 'the deploy worker keeps hitting retry on the queue'
/** Issue 15's targets: median CPU over the floor's, peak MB, cold build ms. */
const TARGET = {10000: {cpu: 3, mb: 100, buildMs: 3000}, 100000: {cpu: 5, mb: 200}}
const PROMPT_RECALL = path.join(ROOT, 'bin', 'prompt-recall.js')
const PROBE = path.join(ROOT, 'bench', 'freshness-probe.js')

const cacheDir = dir => path.join(dir, '.cairn', '.cache')

/** The repo with n cards, committed: the cached one when its card files are as generated, else a new one. */
async function fixture(n) {
  const f = await cachedFixture(`hook-scale-g${GENERATOR}-${n}`, GENERATOR, repo => {
    const t = Date.now()
    const lib = writeLibrary(repo.dir, n, 42, LIBRARY)
    return {n, library: LIBRARY, handEdited: lib.handEdited, write_ms: Date.now() - t}
  })
  if (!f.reused) await checkLayouts(f.dir, f.handEdited)
  return f
}

/** Every hand-edited card and the first 300 others parse; those others are byte for byte what renderCard writes. */
async function checkLayouts(dir, handEdited) {
  const {parseCard, renderCard} = await import(new URL('../../dist/domain/card/format.js', import.meta.url).href)
  const cards = path.join(dir, '.cairn', 'cards')
  const hand = new Set(handEdited)
  const others = execFileSync('git', ['ls-files', '--', '.cairn/cards'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
    .split('\n')
    .filter(f => f.includes('bench-recall-card-'))
    .map(f => f.slice('.cairn/cards/'.length))
    .filter(f => !hand.has(f))
    .slice(0, 300)
  for (const f of [...hand, ...others]) {
    const text = fs.readFileSync(path.join(cards, f), 'utf8')
    const card = parseCard(text, f)
    if (!hand.has(f) && renderCard(card) !== text)
      throw new Error(`hook-scale: ${f} is not in cairn's canonical layout`)
  }
}

/** How many card files hold each of the common prompt's team words, and any of them: the hard case, whatever the engine. */
function sharing(cwd) {
  const words = COMMON.split(' ').filter(w => TEAM_WORDS.en.includes(w))
  const count = args => {
    const r = spawnSync('git', ['grep', '-l', '-w', ...args, '--', '.cairn/cards'], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    })
    if (r.status > 1) throw new Error(`git grep failed: ${r.stderr}`)
    return r.stdout.split('\n').filter(Boolean).length // status 1: no file holds it
  }
  return {...Object.fromEntries(words.map(w => [w, count(['-e', w])])), any: count(words.flatMap(w => ['-e', w]))}
}

function spawned(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(cacheDir(dir), 'recall-index.state'), 'utf8')).spawned
  } catch {
    return 0
  }
}

const additional = r => (r.stdout.trim() ? (JSON.parse(r.stdout).hookSpecificOutput?.additionalContext ?? '') : '')

async function measureSize(n) {
  const fx = await fixture(n)
  const {dir: cwd, env} = fx
  const node = process.execPath
  const out = {n, rows: []}
  const row = (name, fields) => out.rows.push({name: `${name} ${n}`, cards: n, ...fields})

  // Cold build: no .cache, one inline build in one process.
  log(`hook-scale: cold index build of ${n} cards (timeout ${BUILD_TIMEOUT_S} s)`)
  const build = await mustCost([node, PROMPT_RECALL, NO_MATCH], {cwd, env, timeoutS: BUILD_TIMEOUT_S}, 'the cold build')
  out.build = build
  if (build.timed_out) {
    row('index build (cold)', {
      median_ms: null,
      runs_ms: [],
      peak_rss_mb: null,
      error: `timed out after ${BUILD_TIMEOUT_S} s`,
    })
    log(`hook-scale: the cold build of ${n} cards timed out after ${BUILD_TIMEOUT_S} s; the warm rows are left out`)
    return out
  }
  if (!fs.existsSync(path.join(cacheDir(cwd), 'recall-index'))) throw new Error('the cold build wrote no index')
  const made = {fixture_reused: fx.reused, fixture_write_ms: fx.write_ms, fixture_build_ms: fx.build_ms}
  row('index build (cold)', {
    ...costStats([build]),
    ms_per_card: round(build.wall_ms / n, 3),
    cpu_ms_per_card: round(build.cpu_ms / n, 3),
    ...made,
  })
  const s1 = ms => (ms / 1000).toFixed(1)
  log(
    `hook-scale: cold build ${s1(build.wall_ms)} s wall, ${s1(build.cpu_ms)} s cpu, ${build.peak_rss_mb.toFixed(0)} MB`,
  )

  // What each prompt meets (untimed): cards it could admit and scored, and cards shown.
  out.reach = {}
  for (const [key, prompt] of [
    ['none', NO_MATCH],
    ['common', COMMON],
  ]) {
    const r = await mustCost([node, PROMPT_RECALL, '--json', prompt], {cwd, env}, 'prompt-recall --json')
    const d = JSON.parse(r.stdout).data
    out.reach[key] = {total: d.total, considered: d.considered, shown: d.cards.length}
  }
  out.sharing = sharing(cwd)
  if (out.sharing.any < n / 10)
    throw new Error(`only ${out.sharing.any} cards hold a word of the common prompt: not the hard case`)

  const hookArgv = [node, BIN, 'hook', 'user-prompt-submit', '--agent', 'claude']
  const hook = (prompt, session) => [hookArgv, {cwd, env, input: promptPayload(cwd, session, prompt)}]
  for (let i = 0; i < 2; i++)
    for (const p of [NO_MATCH, COMMON]) await mustCost(...hook(p, `warm-${i}`), 'warm-up hook')
  const before = spawned(cwd)

  const errors = path.join(cwd, '.cairn', '.local', 'hook-errors.log')
  const errorLines = () => (fs.existsSync(errors) ? fs.readFileSync(errors, 'utf8').split('\n').filter(Boolean) : [])
  const runs = {floor: [], none: [], common: [], matcher: [], probe: []}
  const late = {none: 0, common: 0}
  for (let i = 0; i < RUNS; i++) {
    runs.floor.push(await mustCost([node, '-e', '0'], {cwd, env}, 'node -e 0'))
    // Alternate the two prompts' order, so neither always follows the floor.
    for (const key of i % 2 ? ['common', 'none'] : ['none', 'common']) {
      const logged = errorLines().length
      const r = await mustCost(...hook(key === 'none' ? NO_MATCH : COMMON, `scale-${key}-${i}`), `prompt hook (${key})`)
      // Past the deadline (hooks.deadline_ms, 1.5 s at most) a hook gives the neutral answer and logs one line.
      const fresh = errorLines().slice(logged)
      if (fresh.some(l => !l.includes('deadline')))
        throw new Error(`the prompt hook (${key}) logged: ${fresh.join('\n')}`)
      if (fresh.length) late[key]++
      else if (key === 'none' && r.stdout !== '')
        throw new Error(`the no-match prompt printed: ${r.stdout.slice(0, 300)}`)
      else if (key === 'common' && !additional(r))
        throw new Error(`the common prompt injected nothing: ${r.stdout.slice(0, 300)}`)
      runs[key].push(r)
    }
    // The same match without the hook runner's deadline: what the common prompt costs when it finishes.
    const m = await mustCost(
      [node, PROMPT_RECALL],
      {cwd, env, input: promptPayload(cwd, `scale-matcher-${i}`, COMMON)},
      'bin/prompt-recall.js',
    )
    if (!m.stdout.trim()) throw new Error('bin/prompt-recall.js found nothing for the common prompt')
    runs.matcher.push(m)
    const p = await mustCost([node, PROBE, cwd], {cwd, env}, 'freshness probe')
    runs.probe.push(JSON.parse(p.stdout))
    const ms = key => runs[key][i].cpu_ms.toFixed(0)
    log(
      `hook-scale ${n}: run ${i + 1}/${RUNS}: cpu ms: floor ${ms('floor')}, no-match ${ms('none')}, common ${ms('common')} ` +
        `(${runs.common[i].peak_rss_mb.toFixed(0)} MB), matcher ${ms('matcher')}`,
    )
  }
  if (spawned(cwd) !== before) throw new Error(`the warm runs started ${spawned(cwd) - before} index rebuild(s)`)

  out.floor = costStats(runs.floor)
  row('node -e 0 (beside the prompts)', {...out.floor, load_avg: os.loadavg().map(x => round(x, 2))})
  const names = {
    none: 'prompt hook, matches nothing',
    common: 'prompt hook, common words',
    matcher: 'matcher path, common words (no deadline)',
  }
  for (const key of ['none', 'common', 'matcher']) {
    const s = costStats(runs[key])
    const ratios = {
      cpu_ratio: round(s.cpu_ms / out.floor.cpu_ms, 2),
      wall_ratio: round(s.median_ms / out.floor.median_ms, 2),
    }
    out[key] = {...s, ...ratios, past_deadline: late[key] ?? 0}
    row(names[key], {
      ...out[key],
      ...out.reach[key === 'none' ? 'none' : 'common'],
      ...(key === 'none' ? {} : {sharing: out.sharing}),
    })
  }
  const probe = runs.probe
  if (probe.some(p => p.error)) {
    out.fresh = {error: probe.find(p => p.error).error}
    row('freshness check (warm)', {median_ms: null, runs_ms: [], peak_rss_mb: null, error: out.fresh.error})
  } else {
    const fresh = probe.map(p => p.open_ms - p.head_ms)
    const mid = (key, d) => round(median(probe.map(p => p[key])), d)
    out.fresh = {
      median_ms: round(median(fresh)),
      open_ms: mid('open_ms'),
      open_cpu_ms: mid('open_cpu_ms'),
      head_ms: mid('head_ms', 2),
      gc_ms: mid('open_gc_ms'),
    }
    row('freshness check (warm)', {
      median_ms: out.fresh.median_ms,
      runs_ms: fresh.map(x => round(x)),
      peak_rss_mb: null,
      ...out.fresh,
    })
  }
  return out
}

export async function run() {
  log(`hook-scale: CPU times from ${costSource()}`)
  const sizes = []
  for (const n of SIZES) sizes.push(await measureSize(n))
  printTable(sizes)
  return sizes.flatMap(s => s.rows)
}

function printTable(sizes) {
  const f = (x, d = 0) => (x === null || x === undefined ? '—' : Number(x).toFixed(d))
  const mark = (ok, target) => (target === undefined ? '' : ok ? ' ok' : ` MISS(>${target})`)
  const prompt = (s, key) => {
    const p = s[key]
    if (!p) return ['—', '—', '—', '—', '—']
    const t = TARGET[s.n]
    return [
      `${f(p.cpu_ratio, 2)}x${mark(p.cpu_ratio <= t?.cpu, t?.cpu && `${t.cpu}x`)}`,
      `${f(p.wall_ratio, 2)}x`,
      `${f(p.median_ms)}`,
      `${f(p.peak_rss_mb)}${mark(p.peak_rss_mb <= t?.mb, t?.mb)}`,
      `${p.past_deadline}/${p.runs_ms.length}`,
    ]
  }
  const head = [
    'cards',
    'floor cpu/wall ms',
    'none cpu/floor',
    'wall/floor',
    'wall ms',
    'MB',
    'late',
    'common cpu/floor',
    'wall/floor',
    'wall ms',
    'MB',
    'late',
    'no-deadline cpu/floor',
    'sharing',
    'admissible',
    'cold build s',
    'ms/card',
    'cpu s',
    'MB',
    'freshness ms (gc)',
  ]
  const body = sizes.map(s => {
    const b = s.build
    const t = TARGET[s.n]
    const cold = b.timed_out
      ? [`timed out (${BUILD_TIMEOUT_S} s)`, '—', '—', '—']
      : [
          `${f(b.wall_ms / 1000, 1)}${mark(b.wall_ms <= t?.buildMs, t?.buildMs && `${t.buildMs / 1000} s`)}`,
          f(b.wall_ms / s.n, 2),
          f(b.cpu_ms / 1000, 1),
          f(b.peak_rss_mb),
        ]
    const fresh = s.fresh ? (s.fresh.error ? 'n/a' : `${f(s.fresh.median_ms, 1)} (${f(s.fresh.gc_ms, 1)})`) : '—'
    return [
      String(s.n),
      s.floor ? `${f(s.floor.cpu_ms)}/${f(s.floor.median_ms)}` : '—',
      ...prompt(s, 'none'),
      ...prompt(s, 'common'),
      s.matcher ? `${f(s.matcher.cpu_ratio, 2)}x` : '—',
      s.sharing ? String(s.sharing.any) : '—',
      s.reach ? `${s.reach.common.considered}/${s.reach.common.total}` : '—',
      ...cold,
      fresh,
    ]
  })
  const widths = head.map((h, i) => Math.max(h.length, ...body.map(r => r[i].length)))
  const line = cells => cells.map((c, i) => c.padStart(widths[i])).join('  ')
  const notes = [
    `hook-scale: medians of ${RUNS} runs; cpu = user + sys of the hook process (${costSource()}),`,
    '  over the median of the node -e 0 runs interleaved with it.',
    `prompts: none = "${NO_MATCH}", common = "${COMMON}".`,
    "sharing: card files holding one of the common prompt's team words; admissible: cards the engine reports it considered / all.",
    "late: runs past the hook's 1.5 s deadline, which answered nothing (a synchronous match runs on to its end, so their cpu",
    '  is still the cost). no-deadline: the common prompt through bin/prompt-recall.js (the same match, no deadline).',
    'freshness: openIndex on an up-to-date index minus its head read, in a fresh process (bench/freshness-probe.js); gc within.',
    'targets (issue 15): at 10,000 cards cpu ≤ 3x the floor and ≤ 100 MB for both prompts, cold build ≤ 3 s;',
    '  at 100,000 ≤ 5x and ≤ 200 MB.',
  ]
  process.stdout.write(`\n${notes.join('\n')}\n${[line(head), ...body.map(line)].join('\n')}\n`)
}
