// board: commit of a 200-declaration batch on a 2,000-item board; `board state` of that board;
// `board state` and `board history` over a merged history of 5,000 batches.
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {makeRepo, measure, mustSucceed, tempDir} from '../lib.js'
import {parseCommitRequest} from '../../dist/domain/board/request.js'
import {RECORD_SCHEMA, serializeRecord} from '../../dist/domain/board/state.js'

export const description =
  'cairn board: commit 200 declarations on 2,000 items, state of 2,000 items, history of 5,000 batches'

const NOW = '2026-10-09T12:00:00Z'
const TOPICS = 20
const LEAVES = 99 // per topic: 20 + 20 × 99 = 2,000 items
const RUNS = 3

const leaf = (t, l) => `t${t}-leaf-${l}`

/** 20 topics at the root, each with a child budget of 2,000 and 99 leaves of every weight. */
export function boardBatch() {
  const declarations = []
  for (let t = 0; t < TOPICS; t++) {
    declarations.push({
      op: 'new',
      id: `t${t}`,
      kind: 'topic',
      weight: 1,
      budget: 2000,
      summary: `Topic ${t}: a stream of work the user follows.`,
    })
    for (let l = 0; l < LEAVES; l++) {
      declarations.push({
        op: 'new',
        id: leaf(t, l),
        parent: `t${t}`,
        kind: ['progress', 'result', 'finding', 'request'][l % 4],
        weight: (l % 5) + 1,
        summary: `Item ${l} of topic ${t}: what changed and what the user may need to do about it.`,
        sources: [`run:${t}-${l}`],
        due_at: l % 7 ? null : '2026-10-20T00:00:00Z',
      })
    }
  }
  return {batch_id: 'bench-setup', declarations}
}

/** 200 declarations touching the 2,000-item board: patches, new items, withdrawals and merges. */
export function bigBatch() {
  const d = []
  for (let i = 0; i < 120; i++)
    d.push({
      op: 'supersedes',
      id: leaf(i % TOPICS, 10 + Math.floor(i / TOPICS)),
      kind: 'result',
      weight: 2,
      summary: `Revised ${i}: now a result.`,
    })
  for (let i = 0; i < 50; i++)
    d.push({
      op: 'new',
      id: `new-${i}`,
      parent: `t${i % TOPICS}`,
      kind: 'finding',
      weight: 3,
      summary: `New finding ${i}.`,
    })
  for (let i = 0; i < 20; i++) d.push({op: 'withdraw', id: leaf(i, 40), reason: 'No longer relevant.'})
  for (let i = 0; i < 10; i++)
    d.push({
      op: 'merges',
      from: [leaf(i, 50), leaf(i, 51)],
      id: `merged-${i}`,
      kind: 'result',
      weight: 2,
      summary: `Items 50 and 51 of topic ${i}, together.`,
    })
  return {batch_id: 'bench-200', declarations: d}
}

async function boardRepo() {
  const repo = await makeRepo()
  const file = path.join(repo.base, 'setup.json')
  fs.writeFileSync(file, JSON.stringify(boardBatch()))
  await mustSucceed(
    repo.cairn(['board', 'commit', file, '--now', '2026-10-08T08:00:00Z', '--actor', 'bench']),
    'board setup',
  )
  return repo
}

const data = text => `data ${Buffer.byteLength(text)}\n${text}\n`

/**
 * A 2,000-item board (the setup batch) and then `n` more batches on two branches that parted
 * right after it, joined by a plain merge commit: every record a real request, one commit each,
 * written with git fast-import. Both branches patch the same leaves, so the merge flags items.
 */
export async function mergedRepo(n) {
  const repo = await makeRepo()
  const base = repo.git('rev-parse', 'HEAD').trim()
  const chunks = []
  const setupReq = parseCommitRequest(boardBatch(), 'bench')
  if (!setupReq.ok) throw new Error('setup batch invalid')
  const record = (key, clock, parents, now, request) =>
    serializeRecord({schema: RECORD_SCHEMA, key, clock, parents, now, request})
  const commit = ({mark, ref, from, merge, batch, file, text, ts}) =>
    `commit ${ref}\nmark :${mark}\ncommitter Bench <bench@example.com> ${ts} +0000\n` +
    data(
      `cairn(board-commit): batch ${batch}\n\nCairn-Op: board-commit\nCairn-Batch: ${batch}\nCairn-Actor: bench\nCairn-Format: 1\n`,
    ) +
    `from ${from}\n${merge ? `merge ${merge}\n` : ''}${file ? `M 100644 inline .cairn/board/batches/${file}\n${data(text)}` : ''}\n`
  const t0 = Date.parse('2026-01-01T00:00:00Z')
  const iso = ms => new Date(ms).toISOString().replace('.000Z', 'Z')
  chunks.push(
    commit({
      mark: 1,
      ref: 'refs/heads/main',
      from: base,
      merge: null,
      batch: 'bench-setup',
      file: 'bench-setup-00000000.json',
      text: record('bench-setup-00000000', 1, [], iso(t0), setupReq.request),
      ts: t0 / 1000,
    }),
  )
  const tips = {
    a: {mark: 1, key: 'bench-setup-00000000', clock: 1},
    b: {mark: 1, key: 'bench-setup-00000000', clock: 1},
  }
  let mark = 1
  for (let k = 1; k <= n; k++) {
    const side = k % 2 ? 'a' : 'b'
    const tip = tips[side]
    // Batches k and k + 1 (one on each branch) patch the same leaf.
    const t = Math.floor(k / 2) % TOPICS
    const l = Math.floor(k / (2 * TOPICS)) % LEAVES
    const declarations =
      k % 10 === 0
        ? []
        : [
            {
              op: 'supersedes',
              id: leaf(t, l),
              kind: 'progress',
              weight: ((k >> 3) % 3) + 1,
              summary: `Step ${k} on ${side}: ${leaf(t, l)} moved on.`,
            },
          ]
    const parsed = parseCommitRequest({batch_id: `batch-${side}-${k}`, declarations}, 'bench')
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors))
    const key = `batch-${side}-${k}-${k.toString(16).padStart(8, '0')}`
    const now = t0 + k * 60_000
    chunks.push(
      commit({
        mark: ++mark,
        ref: `refs/heads/${side}`,
        from: `:${tip.mark}`,
        merge: null,
        batch: `batch-${side}-${k}`,
        file: `${key}.json`,
        text: record(key, tip.clock + 1, [tip.key], iso(now), parsed.request),
        ts: now / 1000,
      }),
    )
    tips[side] = {mark, key, clock: tip.clock + 1}
  }
  execFileSync('git', ['fast-import', '--quiet', '--force'], {
    cwd: repo.dir,
    env: repo.env,
    input: chunks.join(''),
    maxBuffer: 1 << 30,
  })
  repo.git('reset', '-q', '--hard', 'a')
  // The merge itself is plain git, as a user (or GitHub's merge button) would do it.
  repo.git('merge', '-q', '--no-edit', 'b')
  return repo
}

export async function run() {
  const rows = []
  const template = await boardRepo()
  const batchFile = path.join(tempDir(), 'batch-200.json')
  fs.writeFileSync(batchFile, JSON.stringify(bigBatch()))
  rows.push(
    await measure({
      name: 'board commit: 200 declarations on 2,000 items',
      runs: RUNS,
      setup: () => {
        const dir = path.join(tempDir(), 'repo')
        fs.cpSync(template.dir, dir, {recursive: true})
        return {dir}
      },
      command: ({dir}) => ({
        args: ['board', 'commit', batchFile, '--now', NOW, '--actor', 'bench', '--json'],
        cwd: dir,
        env: template.env,
      }),
      verify: r => {
        const receipt = JSON.parse(r.stdout).data
        if (receipt.status !== 'committed' || receipt.event_seq !== 2)
          throw new Error(`unexpected receipt ${r.stdout.slice(0, 300)}`)
      },
      extra: {items: TOPICS * (LEAVES + 1), declarations: 200},
    }),
  )
  rows.push(
    await measure({
      name: 'board state: 2,000 items',
      runs: 5,
      command: () => ({args: ['board', 'state', '--now', NOW, '--json'], cwd: template.dir, env: template.env}),
      verify: r => {
        const n = JSON.parse(r.stdout).data.items.length
        if (n !== 2000) throw new Error(`expected 2000 active items, got ${n}`)
      },
      extra: {items: 2000},
    }),
  )
  const merged = await mergedRepo(5000)
  const cache = path.join(merged.dir, '.cairn/.cache/board.json')
  const checkMerged = r => {
    const data = JSON.parse(r.stdout).data
    if (data.items.length !== 2000 || data.event_seq !== 5001 || !data.conflicts.length)
      throw new Error(`unexpected merged state: ${r.stdout.slice(0, 300)}`)
  }
  rows.push(
    await measure({
      name: 'board state: 2,000 items, merged history of 5,000 batches, first read (replay)',
      runs: RUNS,
      setup: () => fs.rmSync(cache, {force: true}),
      command: () => ({args: ['board', 'state', '--now', NOW, '--json'], cwd: merged.dir, env: merged.env}),
      verify: checkMerged,
      extra: {items: 2000, batches: 5001},
    }),
  )
  rows.push(
    await measure({
      name: 'board state: 2,000 items, merged history of 5,000 batches, cached',
      runs: 5,
      command: () => ({args: ['board', 'state', '--now', NOW, '--json'], cwd: merged.dir, env: merged.env}),
      verify: checkMerged,
      extra: {items: 2000, batches: 5001},
    }),
  )
  rows.push(
    await measure({
      name: 'board history: 5,000 batches',
      runs: RUNS,
      command: () => ({args: ['board', 'history', '--json'], cwd: merged.dir, env: merged.env}),
      verify: r => {
        const entries = JSON.parse(r.stdout).data.entries
        if (entries.length !== 5001 || entries.some(e => !e.commit))
          throw new Error(`expected 5001 committed records, got ${entries.length}`)
      },
      extra: {batches: 5001},
    }),
  )
  return rows
}
