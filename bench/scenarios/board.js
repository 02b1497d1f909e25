// board: commit of a 200-declaration batch on a 2,000-item board; `board state` of that board;
// `board history` over 5,000 committed batches.
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {makeRepo, measure, mustSucceed, tempDir} from '../lib.js'
import {applyBatch} from '../../dist/domain/board/apply.js'
import {parseCommitRequest} from '../../dist/domain/board/request.js'
import {DEFAULT_BOARD_SETTINGS} from '../../dist/domain/board/scale.js'
import {RECORD_SCHEMA, serializeRecord, serializeState} from '../../dist/domain/board/state.js'
import {emptyState} from '../../dist/domain/board/types.js'

export const description = 'cairn board: commit 200 declarations on 2,000 items, state of 2,000 items, history of 5,000 batches'

const NOW = '2026-10-09T12:00:00Z'
const TOPICS = 20
const LEAVES = 99 // per topic: 20 + 20 × 99 = 2,000 items
const RUNS = 3

const leaf = (t, l) => `t${t}-leaf-${l}`

/** 20 topics at the root, each with a child budget of 2,000 and 99 leaves of every weight. */
export function boardBatch() {
  const declarations = []
  for (let t = 0; t < TOPICS; t++) {
    declarations.push({op: 'new', id: `t${t}`, kind: 'topic', weight: 1, budget: 2000, summary: `Topic ${t}: a stream of work the user follows.`})
    for (let l = 0; l < LEAVES; l++) {
      declarations.push({op: 'new', id: leaf(t, l), parent: `t${t}`, kind: ['progress', 'result', 'finding', 'request'][l % 4], weight: (l % 5) + 1,
        summary: `Item ${l} of topic ${t}: what changed and what the user may need to do about it.`, sources: [`run:${t}-${l}`], due_at: l % 7 ? null : '2026-10-20T00:00:00Z'})
    }
  }
  return {batch_id: 'bench-setup', declarations}
}

/** 200 declarations touching the 2,000-item board: patches, new items, withdrawals and merges. */
export function bigBatch() {
  const d = []
  for (let i = 0; i < 120; i++) d.push({op: 'supersedes', id: leaf(i % TOPICS, 10 + Math.floor(i / TOPICS)), kind: 'result', weight: 2, summary: `Revised ${i}: now a result.`})
  for (let i = 0; i < 50; i++) d.push({op: 'new', id: `new-${i}`, parent: `t${i % TOPICS}`, kind: 'finding', weight: 3, summary: `New finding ${i}.`})
  for (let i = 0; i < 20; i++) d.push({op: 'withdraw', id: leaf(i, 40), reason: 'No longer relevant.'})
  for (let i = 0; i < 10; i++) d.push({op: 'merges', from: [leaf(i, 50), leaf(i, 51)], id: `merged-${i}`, kind: 'result', weight: 2, summary: `Items 50 and 51 of topic ${i}, together.`})
  return {batch_id: 'bench-200', declarations: d}
}

async function boardRepo() {
  const repo = await makeRepo()
  const file = path.join(repo.base, 'setup.json')
  fs.writeFileSync(file, JSON.stringify(boardBatch()))
  await mustSucceed(repo.cairn(['board', 'commit', file, '--now', '2026-10-08T08:00:00Z', '--actor', 'bench']), 'board setup')
  return repo
}

/** A board with `n` real committed batches: records computed by the domain code, one commit each via git fast-import. */
export async function historyRepo(n) {
  const repo = await makeRepo()
  let state = emptyState()
  const parent = repo.git('rev-parse', 'HEAD').trim()
  const chunks = []
  const data = text => `data ${Buffer.byteLength(text)}\n${text}\n`
  for (let seq = 1; seq <= n; seq++) {
    const id = `item-${seq % 16}`
    const declarations = seq <= 16 ? [{op: 'new', id, kind: 'progress', weight: 1, summary: `Item ${seq}.`}]
      : seq % 10 === 0 ? [] : [{op: 'supersedes', id, kind: 'progress', weight: (seq % 2) + 1, summary: `Item ${seq % 16}, step ${seq}.`}]
    const parsed = parseCommitRequest({batch_id: `batch-${seq}`, declarations}, 'bench')
    const now = new Date(Date.parse('2026-01-01T00:00:00Z') + seq * 60_000).toISOString().replace('.000Z', 'Z')
    const applied = applyBatch(state, parsed.request, now, DEFAULT_BOARD_SETTINGS)
    if (!applied.ok) throw new Error(`generated batch ${seq} was rejected: ${JSON.stringify(applied.errors)}`)
    state = applied.state
    const record = {schema: RECORD_SCHEMA, seq, now, request: parsed.request, receipt: applied.receipt, effects: applied.effects}
    const message = `cairn(board-commit): batch batch-${seq}\n\nCairn-Op: board-commit\nCairn-Batch: batch-${seq}\nCairn-Actor: bench\nCairn-Format: 1\n`
    const ts = Math.floor(Date.parse(now) / 1000)
    chunks.push(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${ts} +0000\n${data(message)}${seq === 1 ? `from ${parent}\n` : ''}` +
      `M 100644 inline .cairn/board/batches/${String(seq).padStart(6, '0')}-batch-${seq}.json\n${data(serializeRecord(record))}` +
      `M 100644 inline .cairn/board/state.json\n${data(serializeState(state))}\n`)
  }
  execFileSync('git', ['fast-import', '--quiet', '--force'], {cwd: repo.dir, env: repo.env, input: chunks.join(''), maxBuffer: 1 << 30})
  repo.git('reset', '-q', '--hard', 'main')
  return repo
}

export async function run() {
  const rows = []
  const template = await boardRepo()
  const batchFile = path.join(tempDir(), 'batch-200.json')
  fs.writeFileSync(batchFile, JSON.stringify(bigBatch()))
  rows.push(await measure({
    name: 'board commit: 200 declarations on 2,000 items',
    runs: RUNS,
    setup: () => {
      const dir = path.join(tempDir(), 'repo')
      fs.cpSync(template.dir, dir, {recursive: true})
      return {dir}
    },
    command: ({dir}) => ({args: ['board', 'commit', batchFile, '--now', NOW, '--actor', 'bench', '--json'], cwd: dir, env: template.env}),
    verify: r => {
      const receipt = JSON.parse(r.stdout).data
      if (receipt.status !== 'committed' || receipt.event_seq !== 2) throw new Error(`unexpected receipt ${r.stdout.slice(0, 300)}`)
    },
    extra: {items: TOPICS * (LEAVES + 1), declarations: 200},
  }))
  rows.push(await measure({
    name: 'board state: 2,000 items',
    runs: 5,
    command: () => ({args: ['board', 'state', '--now', NOW, '--json'], cwd: template.dir, env: template.env}),
    verify: r => {
      const n = JSON.parse(r.stdout).data.items.length
      if (n !== 2000) throw new Error(`expected 2000 active items, got ${n}`)
    },
    extra: {items: 2000},
  }))
  const history = await historyRepo(5000)
  rows.push(await measure({
    name: 'board history: 5,000 batches',
    runs: RUNS,
    command: () => ({args: ['board', 'history', '--json'], cwd: history.dir, env: history.env}),
    verify: r => {
      const entries = JSON.parse(r.stdout).data.entries
      if (entries.length !== 5000 || entries.some(e => !e.commit)) throw new Error(`expected 5000 committed records, got ${entries.length}`)
    },
    extra: {batches: 5000},
  }))
  return rows
}
