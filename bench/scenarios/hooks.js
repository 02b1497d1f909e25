// hooks: every `cairn hook <event> --agent claude` as a whole process, with the client's JSON on
// stdin, at 1,000 and 10,000 cards, next to the floor: one `node -e 0` run just before each
// timed run (in its untimed set-up), so each event's ratio is to the floor of the same moment.
//
// Set-up (not timed): a fresh repo per size; the library (bench/recall-cards.js) has CORE core
// cards and a NARROW share of cards scoped to src/<area>/ globs, left uncommitted. The first
// session-start on that fresh store is timed once ("cold"): it must answer before the detached
// index rebuild it starts has finished, and that rebuild is timed too (until the index exists and
// no lock is left). Then one more untimed run per event warms it. Events that keep per-session
// state (pre-tool-use shows a card once per session; stop blocks once) get a fresh session_id
// per run, and stop and session-end get an untimed edit in their session first, so every run
// does the real work. BENCH_HOOK_SIZES=1000 picks sizes; BENCH_HOOK_RUNS sets runs per row (5).
import fs from 'node:fs'
import path from 'node:path'
import {BIN, log, makeRepo, measure, median, runProcess} from '../lib.js'
import {areaName, writeLibrary} from '../recall-cards.js'

export const description = 'cairn hook, every event (claude), 1,000 and 10,000 cards, against node -e 0'

const SIZES = (process.env.BENCH_HOOK_SIZES ?? '1000,10000').split(',').map(Number)
const RUNS = Number(process.env.BENCH_HOOK_RUNS ?? 5)
const CORE = 12
const NARROW = 0.1
/** Words hundreds of cards share (bench/recall-cards.js's vocabulary), and words no card has. */
const COMMON = 'fix the cache index query timeout in the login session'
const NO_MATCH = 'rename the quarterly vacation spreadsheet colours'
/** The targets (median / floor median); the common-word prompt at 10,000 cards is report-only. */
const TARGET = {1000: 2, 10000: 3}

const hookArgv = event => [process.execPath, BIN, 'hook', event, '--agent', 'claude']

function waitRebuild(dir, timeoutMs = 300_000) {
  const cache = path.join(dir, '.cairn', '.cache')
  const until = Date.now() + timeoutMs
  return new Promise((resolve, reject) => {
    const poll = () => {
      const names = fs.existsSync(cache) ? fs.readdirSync(cache) : []
      if (names.includes('recall-index') && !names.some(n => n.includes('lock'))) return resolve()
      if (Date.now() > until) return reject(new Error(`the index rebuild in ${cache} did not finish in ${timeoutMs} ms`))
      setTimeout(poll, 10)
    }
    poll()
  })
}

const spawned = dir => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, '.cairn', '.cache', 'recall-index.state'), 'utf8')).spawned
  } catch {
    return 0
  }
}

function context(r, event) {
  if (!r.stdout.trim()) return ''
  const out = JSON.parse(r.stdout).hookSpecificOutput
  if (out?.hookEventName !== event) throw new Error(`expected ${event} output, got: ${r.stdout.slice(0, 300)}`)
  return out.additionalContext ?? ''
}

export async function run() {
  const rows = []
  const table = []
  for (const n of SIZES) {
    const repo = await makeRepo()
    try {
      const t = Date.now()
      const lib = writeLibrary(repo.dir, n, 42, {core: CORE, narrow: NARROW})
      const area = areaName(0)
      const file = path.join(repo.dir, 'src', area, 'handler.ts')
      fs.mkdirSync(path.dirname(file), {recursive: true})
      fs.writeFileSync(file, 'export const handler = () => 0\n')
      const transcript = path.join(repo.base, 'transcript.jsonl')
      fs.writeFileSync(transcript, [
        {type: 'user', message: {role: 'user', content: `Fix the timeout in src/${area}/handler.ts`}},
        {type: 'assistant', message: {role: 'assistant', content: [{type: 'text', text: 'Raising the timeout.'}]}},
        {type: 'user', message: {role: 'user', content: [{type: 'text', text: 'and add a test'}]}},
      ].map(l => JSON.stringify(l)).join('\n'))
      log(`hooks setup: ${n} cards (${lib.core.length} core, ${lib.narrow.flat().length} narrow) in ${((Date.now() - t) / 1000).toFixed(1)} s`)
      const {env} = repo
      const cwd = repo.dir
      const base = (event, session, extra = {}) => ({session_id: session, transcript_path: null, cwd, permission_mode: 'default', hook_event_name: event, ...extra})
      const payload = {
        'session-start': s => base('SessionStart', s, {source: 'startup'}),
        common: s => base('UserPromptSubmit', s, {prompt: COMMON}),
        'no-match': s => base('UserPromptSubmit', s, {prompt: NO_MATCH}),
        'pre-tool-use': s => base('PreToolUse', s, {tool_name: 'Edit', tool_input: {file_path: file, old_string: '0', new_string: '1'}}),
        'post-tool-use': s => base('PostToolUse', s, {tool_name: 'Edit', tool_input: {file_path: file, old_string: '0', new_string: '1'}, tool_response: {filePath: file, success: true}}),
        stop: s => base('Stop', s, {transcript_path: transcript, stop_hook_active: false, last_assistant_message: 'Raised the timeout and added a test.'}),
        'session-end': s => base('SessionEnd', s, {transcript_path: transcript, reason: 'exit'}),
      }
      const hook = (event, key, session) => ({argv: hookArgv(event), cwd, env, input: JSON.stringify(payload[key](session))})
      const edit = async session => {
        const r = await runProcess(hookArgv('post-tool-use'), hook('post-tool-use', 'post-tool-use', session))
        if (r.code !== 0) throw new Error(`post-tool-use (set-up) exited ${r.code}`)
      }
      const digest = session => path.join(cwd, '.cairn', '.local', 'digests', `${session}.md`)

      // Cold: the first session-start on a fresh store, and the detached rebuild it starts.
      const coldStart = process.hrtime.bigint()
      let coldOut = ''
      const cold = await measure({name: `session-start cold ${n}`, runs: 1, command: () => hook('session-start', 'session-start', 'cold'), extra: {cards: n},
        verify: r => {
          coldOut = r.stdout
          if (!fs.readdirSync(path.join(cwd, '.cairn', '.cache')).some(f => f.includes('lock'))) throw new Error('the cold session-start returned after the index rebuild had finished: it waited for it')
        }})
      await waitRebuild(cwd)
      const rebuild = {name: `index rebuild (background) ${n}`, median_ms: Math.round(Number(process.hrtime.bigint() - coldStart) / 1e5) / 10, runs_ms: [], peak_rss_mb: null, cards: n}
      rebuild.runs_ms = [rebuild.median_ms]
      log(`cold session-start ${cold.median_ms} ms, before the rebuild finished (${coldOut.length} bytes out); rebuild done after ${rebuild.median_ms} ms`)
      for (const key of Object.keys(payload)) {
        const event = key === 'common' || key === 'no-match' ? 'user-prompt-submit' : key
        await runProcess(hookArgv(event), hook(event, key, 'warm'))
        await waitRebuild(cwd)
      }
      const before = spawned(cwd)

      const m = {}
      const floors = {}
      /** Measures one event; each run's untimed set-up ends with a floor run, recorded beside it. */
      const timed = async (key, name, {setup, ...rest}) => {
        floors[key] = []
        m[key] = await measure({name: `${name} ${n}`, runs: RUNS, extra: {cards: n}, ...rest, setup: async i => {
          const state = setup ? await setup(i) : {}
          floors[key].push(await runProcess([process.execPath, '-e', '0'], {cwd, env}))
          return state
        }})
      }
      await timed('start', 'session-start', {command: () => hook('session-start', 'session-start', 'sess-start'),
        verify: r => {
          const c = context(r, 'SessionStart')
          if (!c.startsWith('cairn core rules') || !lib.core.every(id => c.includes(`(${id})`)) || c.includes('over budget')) throw new Error(`session-start: expected all ${CORE} core cards within budget, got: ${c.slice(0, 300)}`)
        }})
      await timed('common', 'user-prompt-submit common', {command: () => hook('user-prompt-submit', 'common', 'sess-prompt'),
        verify: r => {
          if (!context(r, 'UserPromptSubmit')) throw new Error(`common-word prompt: expected a non-empty additionalContext, got: ${JSON.stringify(r.stdout.slice(0, 300))}`)
        }})
      await timed('none', 'user-prompt-submit no-match', {command: () => hook('user-prompt-submit', 'no-match', 'sess-prompt'),
        verify: r => {
          if (r.stdout !== '') throw new Error(`no-match prompt: expected empty stdout, got: ${r.stdout.slice(0, 300)}`)
        }})
      await timed('pre', 'pre-tool-use', {command: (_, i) => hook('pre-tool-use', 'pre-tool-use', `sess-pre-${i}`),
        verify: r => {
          const c = context(r, 'PreToolUse')
          if (!lib.narrow[0].every(id => c.includes(`(${id})`))) throw new Error(`pre-tool-use: expected ${lib.narrow[0].join(', ')}, got: ${c.slice(0, 300)}`)
        }})
      await timed('post', 'post-tool-use', {command: (_, i) => hook('post-tool-use', 'post-tool-use', `sess-post-${i}`),
        verify: r => {
          if (r.stdout !== '') throw new Error(`post-tool-use: expected empty stdout, got: ${r.stdout.slice(0, 300)}`)
        }})
      await timed('stop', 'stop', {setup: async i => (await edit(`sess-stop-${i}`), {}), command: (_, i) => hook('stop', 'stop', `sess-stop-${i}`),
        verify: (r, _, i) => {
          if (JSON.parse(r.stdout || '{}').decision !== 'block' || !fs.existsSync(digest(`sess-stop-${i}`))) throw new Error(`stop: expected a block and a digest, got: ${r.stdout.slice(0, 300)}`)
        }})
      await timed('end', 'session-end', {setup: async i => (await edit(`sess-end-${i}`), {}), command: (_, i) => hook('session-end', 'session-end', `sess-end-${i}`),
        verify: (r, _, i) => {
          if (r.stdout !== '' || !fs.existsSync(digest(`sess-end-${i}`))) throw new Error(`session-end: expected no output and a digest, got: ${r.stdout.slice(0, 300)}`)
        }})
      const errors = path.join(cwd, '.cairn', '.local', 'hook-errors.log')
      if (fs.existsSync(errors)) throw new Error(`hook-errors.log is not empty:\n${fs.readFileSync(errors, 'utf8').slice(0, 1000)}`)
      if (spawned(cwd) !== before) throw new Error(`the warm runs started ${spawned(cwd) - before} index rebuild(s)`)
      const all = Object.values(floors).flat()
      const floor = {name: `node -e 0 (${n}, beside every run)`, median_ms: median(all.map(f => f.wall_ms)), runs_ms: all.map(f => Math.round(f.wall_ms)), peak_rss_mb: Math.max(...all.map(f => f.peak_rss_mb ?? 0)) || null, cards: n}
      const floorOf = Object.fromEntries(Object.entries(floors).map(([k, runs]) => [k, median(runs.map(f => f.wall_ms))]))
      rows.push(cold, rebuild, floor, ...Object.values(m))
      table.push({n, floor: floor.median_ms, floorOf, cold, rebuild, m})
    } finally {
      repo.remove()
    }
  }
  printRatios(table)
  return rows
}

function printRatios(table) {
  const cols = [['start', 'session-start', true], ['common', 'prompt common', 'report10k'], ['none', 'prompt no-match', true], ['pre', 'pre-tool-use', true], ['post', 'post-tool-use'], ['stop', 'stop'], ['end', 'session-end']]
  const head = ['cards', 'node -e 0', ...cols.map(c => c[1]), 'cold start', 'rebuild']
  const body = table.map(t => {
    const target = TARGET[t.n]
    const cell = ([key, , targeted]) => {
      const ms = t.m[key].median_ms
      const ratio = ms / t.floorOf[key]
      const checked = targeted === true || (targeted === 'report10k' && t.n < 10000)
      const flag = !checked || !target ? '' : ratio <= target ? ' ok' : ` MISS(>${target}x)`
      return `${ms.toFixed(0)} ${ratio.toFixed(1)}x${flag}`
    }
    return [String(t.n), t.floor.toFixed(0), ...cols.map(cell), t.cold.median_ms.toFixed(0), t.rebuild.median_ms.toFixed(0)]
  })
  const widths = head.map((h, i) => Math.max(h.length, ...body.map(b => b[i].length)))
  const line = cells => cells.map((c, i) => c.padStart(widths[i])).join('  ')
  process.stdout.write(`\nhooks: medians (ms) and median / the median of the floor runs beside that event's runs; targets: ≤2x at 1,000 cards, ≤3x at 10,000 (the common prompt at 10,000 is report-only)\n${[line(head), ...body.map(line)].join('\n')}\n`)
}
