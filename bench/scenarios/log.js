// log: `cairn log <id>` on a 30,000-commit repo, against `git log --grep` over the same history.
//
// Set-up (not timed, one repo for every run): git fast-import writes 30,000 commits, each changing
// one of 100 source files. Every 100th commit is a cairn commit for the followed card (300 in all),
// every 100th + 50 a cairn commit for another card (300 noise commits). Halfway through, the card
// is renamed (`Cairn-Rename: bench-log-old-card-name -> bench-log-followed-card`), so the older
// 150 of its commits name the old id and `cairn log` must follow the rename to find them. Then
// `cairn init` commits on top. The messages have exactly the form cairn's transaction writes.
// A third row times the same command on a two-commit repo: the CLI's start-up floor.
import {spawnSync} from 'node:child_process'
import {log, makeRepo, measure, mustSucceed} from '../lib.js'

export const description = 'cairn log <id> over 30,000 commits (600 cairn commits, one rename) vs git log --grep'

const COMMITS = 30_000
const RUNS = 3
const CARD = 'bench-log-followed-card'
const OLD = 'bench-log-old-card-name'
const OTHER = 'bench-log-unrelated-card'
const RENAME_AT = COMMITS / 2
const START = Date.parse('2024-01-01T00:00:00Z') / 1000

const cairnMessage = (op, summary, trailers) =>
  `cairn(${op}): ${summary}\n\nCairn-Op: ${op}\n${trailers.join('\n')}\nCairn-Actor: bench\nCairn-Format: 1\n`

/** The commit message of commit i (0-based, oldest first), and whether `cairn log CARD` must list it. */
function message(i) {
  if (i === RENAME_AT)
    return {
      text: cairnMessage('modify', `${OLD} (slug)`, [
        `Cairn-Card: ${OLD}`,
        `Cairn-Card: ${CARD}`,
        `Cairn-Rename: ${OLD} -> ${CARD}`,
      ]),
      ours: true,
    }
  if (i % 100 === 0) {
    const id = i < RENAME_AT ? OLD : CARD
    return {text: cairnMessage('modify', `${id} (summary)`, [`Cairn-Card: ${id}`]), ours: true}
  }
  if (i % 100 === 50) return {text: cairnMessage('modify', `${OTHER} (summary)`, [`Cairn-Card: ${OTHER}`]), ours: false}
  return {
    text: `Change source file ${i % 100} (commit ${i})\n\nAn ordinary commit body that cairn must skip.\n`,
    ours: false,
  }
}

/** A fast-import stream of COMMITS commits on refs/heads/main, on top of its current tip. */
function importStream(parent) {
  const parts = []
  let expected = 0
  for (let i = 0; i < COMMITS; i++) {
    const {text, ours} = message(i)
    if (ours) expected++
    const msg = Buffer.byteLength(text)
    const content = `file ${i % 100}, revision ${i}\n`
    parts.push(
      `commit refs/heads/main\nmark :${i + 1}\ncommitter Bench User <bench@example.com> ${START + i * 60} +0000\n`,
      `data ${msg}\n${text}\n${i === 0 ? `from ${parent}\n` : ''}`,
      `M 100644 inline src/file-${i % 100}.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`,
    )
  }
  return {stream: parts.join(''), expected}
}

export async function run() {
  const repo = await makeRepo({init: false})
  const started = Date.now()
  const {stream, expected} = importStream(repo.git('rev-parse', 'HEAD').trim())
  // fast-import grows its heap in small steps; where brk is slow (some VMs: 0.1 ms each) that alone
  // takes minutes. A large glibc top pad makes it a second.
  const env = {...repo.env, MALLOC_TOP_PAD_: String(256 * 1024 * 1024)}
  const r = spawnSync('git', ['fast-import', '--quiet'], {
    cwd: repo.dir,
    env,
    input: stream,
    maxBuffer: 64 * 1024 * 1024,
  })
  if (r.status !== 0) throw new Error(`git fast-import failed: ${r.stderr}`)
  repo.git('reset', '-q', '--hard', 'main')
  await mustSucceed(repo.cairn(['init']), 'cairn init')
  const total = Number(repo.git('rev-list', '--count', 'HEAD').trim())
  if (total !== COMMITS + 2) throw new Error(`set-up: expected ${COMMITS + 2} commits, found ${total}`)
  log(`set-up: ${total} commits in ${Date.now() - started} ms`)

  const cairnLog = await measure({
    name: `cairn log <id> (${COMMITS} commits)`,
    runs: RUNS,
    command: () => ({args: ['log', CARD, '--json'], cwd: repo.dir, env: repo.env}),
    verify: out => {
      const entries = JSON.parse(out.stdout).data.entries
      if (entries.length !== expected)
        throw new Error(`cairn log listed ${entries.length} entries, expected ${expected}`)
      const oldest = entries[entries.length - 1]
      if (oldest.cards.join() !== OLD)
        throw new Error(`the oldest entry is for ${oldest.cards.join()}, expected ${OLD} (the rename was not followed)`)
    },
  })
  const gitLog = await measure({
    name: `git log --grep=^Cairn-Format: (${COMMITS} commits)`,
    runs: RUNS,
    command: () => ({
      argv: ['git', 'log', '--grep=^Cairn-Format:', '--format=%H%x00%ct%x00%an%x00%B', '-z'],
      cwd: repo.dir,
      env: repo.env,
    }),
    verify: out => {
      const n = out.stdout.split('\0').length
      if (n < 4 * 601) throw new Error(`git log printed ${n} fields, expected at least ${4 * 601}`)
    },
  })
  // The floor: the same command on a repo with two commits, so start-up is not mistaken for the walk.
  const small = await makeRepo()
  const floor = await measure({
    name: 'cairn log <id> (2 commits: start-up floor)',
    runs: RUNS,
    command: () => ({args: ['log', CARD, '--json'], cwd: small.dir, env: small.env}),
    verify: out => {
      if (JSON.parse(out.stdout).data.entries.length !== 0)
        throw new Error('the floor repo has no history for the card')
    },
  })
  return [cairnLog, gitLog, floor]
}
