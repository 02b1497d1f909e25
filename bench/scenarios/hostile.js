// hostile: issue 27's reproductions as whole processes, each next to the floor (`node -e 0`), so a
// hook that a payload or a committed file could keep busy, or make read without end, shows here.
//   - Codex pre-tool-use with an apply_patch line of 100,000 spaces (a backtracking pattern held it 25 s);
//   - Codex post-tool-use with an apply_patch of 20,000 files (the ledger line took 38.9 s);
//   - board state, and a Claude session start, with a committed record of 4,000 declarations that
//     no longer applies whole (13.4 s and 18 s, every session);
//   - board state with 16 committed records of 2,000 items each, every item the child of the one
//     before (a cycle check per moved item made it quadratic, and 16,000 deep overflowed the stack);
//   - a prompt hook in a clone whose .cairn/.cache/recall-index.state and .lock are committed links
//     to /dev/zero beside a damaged index (8.8 GB), and board state with board-committed linked
//     there (5.9 GB).
// Rows give wall and CPU medians and the peak RSS. BENCH_HOSTILE_RUNS sets runs per row (3).
import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {BIN, cleanup, log, makeRepo, median, mustSucceed, ROOT, runCost, tempDir} from '../lib.js'

export const description = 'issue 27 reproductions: adversarial payloads and committed files, against node -e 0'

const RUNS = Number(process.env.BENCH_HOSTILE_RUNS ?? 3)
const TIMEOUT_S = 120
const round = x => Math.round(x * 10) / 10

const dist = rel => import(pathToFileURL(path.join(ROOT, 'dist', rel)).href)

/** A project with one narrow card on db/migrations/** and one a prompt finds, committed. */
async function project() {
  const repo = await makeRepo()
  const cards = [
    {
      slug: 'backup-before-migration',
      type: 'process',
      title: 'Back up before a migration',
      relevance_scope: 'narrow',
      summary: 'Take a database backup before running any migration.',
      recent_paths: ['db/migrations/1.sql', 'db/migrations/2.sql'],
      source_sessions: ['bench'],
    },
    {
      slug: 'flaky-login-test-alone',
      type: 'pitfall',
      title: 'The login test is flaky under load',
      summary: 'The login e2e test times out under parallel load; run it alone.',
      recall: {triggers: ['flaky login test']},
      source_sessions: ['bench'],
    },
  ]
  fs.writeFileSync(path.join(repo.base, 'cards.json'), JSON.stringify(cards))
  await mustSucceed(repo.cairn(['propose', path.join(repo.base, 'cards.json')]), 'propose')
  await mustSucceed(repo.cairn(['review', 'approve', '--all']), 'approve')
  return repo
}

/** Runs a command RUNS times, each after a floor run, and gives one row. */
async function row(name, make) {
  const runs = []
  for (let i = 0; i < RUNS; i++) {
    const floor = await runCost([process.execPath, '-e', '0'], {cwd: ROOT, env: process.env})
    const {argv, cwd, env, input, check} = await make(i)
    const r = await runCost(argv, {cwd, env, input, timeoutS: TIMEOUT_S})
    if (r.timed_out) throw new Error(`${name}: run ${i + 1} passed ${TIMEOUT_S} s`)
    check?.(r)
    runs.push({wall: r.wall_ms, cpu: r.cpu_ms, rss: r.peak_rss_mb, floor: floor.cpu_ms})
    log(
      `${name}: run ${i + 1}/${RUNS} ${r.wall_ms.toFixed(0)} ms wall, ${r.cpu_ms.toFixed(0)} ms cpu, ${r.peak_rss_mb.toFixed(1)} MB`,
    )
  }
  const cpu = median(runs.map(r => r.cpu))
  return {
    name,
    median_ms: round(median(runs.map(r => r.wall))),
    cpu_ms: round(cpu),
    floor_cpu_ms: round(median(runs.map(r => r.floor))),
    cpu_vs_floor: round(cpu / median(runs.map(r => r.floor))),
    peak_rss_mb: round(Math.max(...runs.map(r => r.rss))),
  }
}

const hook = (repo, agent, event, payload) => ({
  argv: [process.execPath, BIN, 'hook', event, '--agent', agent],
  cwd: repo.dir,
  env: repo.env,
  input: JSON.stringify(payload),
  check: r => {
    if (r.code !== 0) throw new Error(`hook ${event} exited ${r.code}: ${r.stderr.slice(0, 500)}`)
  },
})

async function patches(repo) {
  const spaces = ' '.repeat(100_000)
  const files = Array.from({length: 20_000}, (_, i) => `src/f${String(i).padStart(5, '0')}.ts`)
  const apply = (session, event, command) => ({
    session_id: session,
    cwd: repo.dir,
    hook_event_name: event,
    tool_name: 'apply_patch',
    tool_input: {command},
  })
  // The index first, so each run does the hook's own work, not a rebuild.
  await mustSucceed(repo.cairn(['recall', 'warm the index']), 'recall')
  return [
    await row('codex pre-tool-use: a patch line of 100,000 spaces', i =>
      hook(
        repo,
        'codex',
        'pre-tool-use',
        apply(`sp-${i}`, 'PreToolUse', `*** Begin Patch\n*** Add File: a${spaces}b\n*** End Patch`),
      ),
    ),
    await row('codex post-tool-use: apply_patch of 20,000 files', i =>
      hook(repo, 'codex', 'post-tool-use', {
        ...apply(
          `many-${i}`,
          'PostToolUse',
          `*** Begin Patch\n${files.map(f => `*** Update File: ${f}`).join('\n')}\n*** End Patch`,
        ),
        tool_response: {},
      }),
    ),
  ]
}

async function bigRecord(repo) {
  const {serializeRecord, RECORD_SCHEMA} = await dist('domain/board/state.js')
  const {parseCommitRequest} = await dist('domain/board/request.js')
  const item = i => ({
    op: 'new',
    id: `item-${i}`,
    parent: i < 40 ? null : `item-${i % 40}`,
    kind: 'progress',
    weight: 1,
    summary: `Step ${i} of the import, with a summary of some length.`,
  })
  // The last declaration patches an item nothing declares: the record never applies whole.
  const decls = [
    ...Array.from({length: 3999}, (_, i) => item(i)),
    {op: 'supersedes', id: 'gone', kind: 'result', weight: 2},
  ]
  const parsed = parseCommitRequest({batch_id: 'import', declarations: decls}, 'importer', {max: Infinity})
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 2)))
  const record = {
    schema: RECORD_SCHEMA,
    key: 'import-00000001',
    clock: 1,
    parents: [],
    now: '2026-11-29T10:00:00Z',
    request: parsed.request,
  }
  const file = path.join(repo.dir, '.cairn/board/batches/import-00000001.json')
  fs.mkdirSync(path.dirname(file), {recursive: true})
  fs.writeFileSync(file, serializeRecord(record))
  log(`hostile: a record of ${decls.length} declarations, ${(fs.statSync(file).size / 1024).toFixed(0)} KB`)
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'a record committed by hand')
  const fresh = () => fs.rmSync(path.join(repo.dir, '.cairn/.cache'), {recursive: true, force: true})
  return [
    await row('board state: a 4,000-declaration record that no longer applies whole (cold cache)', () => {
      fresh()
      return {argv: [process.execPath, BIN, 'board', 'state', '--json'], cwd: repo.dir, env: repo.env}
    }),
    await row('claude session-start with that record (cold cache)', i => {
      fresh()
      return hook(repo, 'claude', 'session-start', {
        session_id: `big-${i}`,
        cwd: repo.dir,
        hook_event_name: 'SessionStart',
      })
    }),
  ]
}

async function deepBoard() {
  const repo = await project()
  const {serializeRecord, RECORD_SCHEMA} = await dist('domain/board/state.js')
  const {parseCommitRequest} = await dist('domain/board/request.js')
  const dir = path.join(repo.dir, '.cairn/board/batches')
  fs.mkdirSync(dir, {recursive: true})
  for (let r = 0; r < 16; r++) {
    const decls = Array.from({length: 2000}, (_, i) => {
      const k = r * 2000 + i
      return {
        op: 'new',
        id: `step-${k}`,
        parent: k ? `step-${k - 1}` : null,
        kind: 'progress',
        weight: 1,
        summary: `Step ${k}.`,
      }
    })
    const parsed = parseCommitRequest({batch_id: `part${r}`, declarations: decls}, 'importer')
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 2)))
    const key = n => `part${n}-${String(n).padStart(8, '0')}`
    const record = {
      schema: RECORD_SCHEMA,
      key: key(r),
      clock: r + 1,
      parents: r ? [key(r - 1)] : [],
      now: '2026-11-29T10:00:00Z',
      request: parsed.request,
    }
    fs.writeFileSync(path.join(dir, `${key(r)}.json`), serializeRecord(record))
  }
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'a board 32,000 deep')
  try {
    return [
      await row('board state: 16 records making one line of 32,000 items (cold cache)', () => {
        fs.rmSync(path.join(repo.dir, '.cairn/.cache'), {recursive: true, force: true})
        return {
          argv: [process.execPath, BIN, 'board', 'state', '--json'],
          cwd: repo.dir,
          env: repo.env,
          check: r => {
            if (r.code !== 0) throw new Error(`board state exited ${r.code}: ${r.stderr.slice(0, 500)}`)
          },
        }
      }),
    ]
  } finally {
    repo.remove()
  }
}

/** A clone of a repository that commits the links (and a damaged index) under .cairn/.cache/. */
async function linkedClone(source, links) {
  await mustSucceed(source.cairn(['recall', 'warm the index']), 'recall')
  const index = path.join(source.dir, '.cairn/.cache/recall-index')
  fs.truncateSync(index, Math.floor(fs.statSync(index).size / 2))
  for (const [name, target] of Object.entries(links)) {
    fs.rmSync(path.join(source.dir, '.cairn/.cache', name), {force: true})
    fs.symlinkSync(target, path.join(source.dir, '.cairn/.cache', name))
  }
  source.git('add', '-f', '.cairn/.cache')
  source.git('commit', '-qm', 'links in the cache')
  const base = tempDir()
  const dir = path.join(base, 'clone')
  source.git('clone', '-q', source.dir, dir)
  return {base, dir, env: source.env}
}

async function links() {
  const rows = []
  const a = await project()
  const clone = await linkedClone(a, {'recall-index.state': '/dev/zero', 'recall-index.lock': '/dev/zero'})
  rows.push(
    await row('claude prompt hook: recall-index.state and .lock linked to /dev/zero', i => {
      // Each run meets the links as a fresh clone has them.
      a.git('-C', clone.dir, 'checkout', '-q', '--', '.cairn/.cache')
      return hook(clone, 'claude', 'user-prompt-submit', {
        session_id: `z-${i}`,
        cwd: clone.dir,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'the login test is flaky',
      })
    }),
  )
  const b = await project()
  const batch = path.join(b.base, 'batch.json')
  fs.writeFileSync(
    batch,
    JSON.stringify({
      batch_id: 'b1',
      declarations: [{op: 'new', id: 'visa', parent: null, kind: 'request', weight: 3, summary: 'Visa.'}],
    }),
  )
  await mustSucceed(b.cairn(['board', 'commit', batch, '--actor', 'bench']), 'board commit')
  const boardClone = await linkedClone(b, {'board-committed': '/dev/zero'})
  rows.push(
    await row('board state: board-committed linked to /dev/zero', () => ({
      argv: [process.execPath, BIN, 'board', 'state', '--json'],
      cwd: boardClone.dir,
      env: b.env,
    })),
  )
  for (const r of [a, b]) r.remove()
  for (const c of [clone, boardClone]) cleanup(c.base)
  return rows
}

export async function run() {
  const repo = await project()
  try {
    return [...(await patches(repo)), ...(await bigRecord(repo)), ...(await deepBoard()), ...(await links())]
  } finally {
    repo.remove()
  }
}
