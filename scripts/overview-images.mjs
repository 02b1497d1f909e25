// Regenerates the board overview pictures in README (docs/images/): the README's example board, and a 200-item
// board before and after a second batch. Builds each board in a temp git repo with the real CLI, so run
// `npm run build` first. Usage: node scripts/overview-images.mjs [out-dir]
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, 'docs', 'images'))
const BIN = path.join(ROOT, 'bin', 'run.js')

/** A temp git repo with a cairn store; HOME points inside it, never at the real home. */
function tempRepo(tmp, name) {
  const dir = path.join(tmp, name)
  fs.mkdirSync(path.join(dir, 'home'), {recursive: true})
  const env = {
    ...process.env,
    HOME: path.join(dir, 'home'),
    CAIRN_HOME: path.join(dir, 'home', '.cairn'),
    GIT_CONFIG_NOSYSTEM: '1',
  }
  for (const k of Object.keys(env)) if (k.startsWith('GIT_') && k !== 'GIT_CONFIG_NOSYSTEM') delete env[k]
  const repo = path.join(dir, 'repo')
  fs.mkdirSync(repo)
  const git = (...args) => execFileSync('git', args, {cwd: repo, env})
  git('init', '-q', '-b', 'main')
  git('config', 'user.name', 'Example')
  git('config', 'user.email', 'example@example.com')
  git('commit', '-q', '--allow-empty', '-m', 'initial')
  const cairn = (args, input) =>
    execFileSync(process.execPath, [BIN, ...args], {cwd: repo, env, input, encoding: 'utf8'})
  cairn(['init'])
  return {
    dir,
    cairn,
    commit: (batch, now) => cairn(['board', 'commit', '-', '--now', now, '--actor', 'agent-1'], JSON.stringify(batch)),
  }
}

/** Copies the chosen PNGs of an overview directory to OUT under new names. */
function keep(dir, pairs) {
  for (const [from, to] of pairs) fs.copyFileSync(path.join(dir, from), path.join(OUT, to))
}

/** The README's Board section, as written there: its batch, the annotation and the acknowledging batch. */
function exampleBoard(tmp) {
  const repo = tempRepo(tmp, 'example')
  repo.commit(
    {
      batch_id: 'run-20261009-1',
      declarations: [
        {op: 'new', id: 'trip', kind: 'topic', weight: 4, summary: 'Business trip to Berlin on 2026-10-20.'},
        {
          op: 'new',
          id: 'visa',
          parent: 'trip',
          kind: 'request',
          weight: 5,
          due_at: '2026-10-12T00:00:00Z',
          summary: 'Visa agent needs the bank statement; only the user can provide it.',
        },
        {op: 'new', id: 'weekly-report', kind: 'result', weight: 3, summary: 'Weekly report drafted.'},
      ],
      acknowledges: [],
    },
    '2026-10-09T12:00:00Z',
  )
  const note = JSON.parse(
    repo.cairn([
      'board',
      'annotate',
      'visa',
      'The statement comes on Friday.',
      '--batch-id',
      'note-1',
      '--now',
      '2026-10-09T13:00:00Z',
      '--json',
    ]),
  )
  repo.commit(
    {batch_id: 'run-20261009-2', declarations: [], acknowledges: [note.data.annotation.id]},
    '2026-10-09T14:00:00Z',
  )
  const dir = path.join(repo.dir, 'overview')
  repo.cairn(['board', 'state', '--now', '2026-10-09T15:00:00Z', '--overview', dir])
  keep(dir, [
    ['now-root.png', 'board-example-root.png'],
    ['now-under-trip.png', 'board-example-trip.png'],
  ])
}

/** Topics at the root, each with its own child layer; one child holds a layer of its own (a grandchild layer). */
const TOPICS = [
  {
    id: 'release-2-4',
    kind: 'topic',
    weight: 5,
    n: 60,
    summary: 'Release 2.4: cut on Oct 14, ship on Oct 16.',
    things: [
      'Changelog entry',
      'Migration note',
      'Flaky test',
      'Docs page',
      'Backport',
      'Perf regression',
      'Translation',
      'Review',
    ],
    grand: {
      id: 'ci-flakes',
      kind: 'topic',
      weight: 4,
      n: 8,
      summary: 'CI flakes blocking the release branch.',
      things: ['Timeout in', 'Race in', 'Port clash in'],
    },
  },
  {
    id: 'berlin-trip',
    kind: 'topic',
    weight: 4,
    n: 12,
    summary: 'Business trip to Berlin on 2026-10-20.',
    things: ['Hotel', 'Visa document', 'Train ticket', 'Meeting slot', 'Expense form'],
  },
  {
    id: 'hiring',
    kind: 'topic',
    weight: 3,
    n: 30,
    summary: 'Two backend engineers by December.',
    things: ['Candidate', 'Interview loop', 'Take-home review', 'Offer draft', 'Reference check'],
  },
  {
    id: 'infra-migration',
    kind: 'topic',
    weight: 3,
    n: 44,
    summary: 'Move the build farm to the new cluster.',
    things: ['Runner pool', 'Cache bucket', 'Secrets rotation', 'DNS record', 'Cost report', 'Alert rule'],
  },
  {
    id: 'customer-feedback',
    kind: 'topic',
    weight: 3,
    n: 30,
    summary: '客户反馈：十月的工单与访谈。',
    things: [
      '导出报表太慢',
      '登录页在手机上错位',
      '希望支持批量导入',
      '账单邮件重复',
      '搜索结果不准确',
      '通知设置找不到',
    ],
  },
  {
    id: 'reading',
    kind: 'topic',
    weight: 1,
    n: 8,
    summary: 'Articles to read for the team discussion.',
    things: ['Article on'],
  },
]
const KINDS = ['progress', 'result', 'finding', 'request']
/** Mostly light items, a few heavy ones, as a real board is. */
const WEIGHTS = [1, 2, 1, 3, 2, 1, 2, 4, 1, 2, 3, 1, 5, 2, 1, 2]

function children(topic, offset) {
  return Array.from({length: topic.n}, (_, k) => {
    const thing = topic.things[k % topic.things.length]
    const id = `${topic.id.split('-')[0]}-${k + 1}`
    const weight = WEIGHTS[(k + offset) % WEIGHTS.length]
    const summary = /[\u4e00-\u9fff]/.test(thing)
      ? `${thing}（第 ${k + 1} 条），需要确认影响范围。`
      : `${thing} ${k + 1}: ${['waiting for review', 'done, merged', 'needs a decision from the user', 'in progress', 'blocked on another team'][k % 5]}.`
    return {
      op: 'new',
      id,
      parent: topic.id,
      kind: KINDS[(k * 7 + offset) % 4],
      weight,
      summary,
      ...(weight >= 4 ? {due_at: '2026-10-14T00:00:00Z'} : {}),
    }
  })
}

const SHARES = {1: 3, 2: 6, 3: 12, 4: 20, 5: 30}
/** A child budget that leaves about a sixth of the layer free. */
const budgetFor = kids => Math.ceil((kids.reduce((n, d) => n + SHARES[d.weight], 0) * 1.2) / 10) * 10

/** 200 items: 7 at the root, 193 below them. The second batch changes, adds, withdraws and merges a few. */
function bigBoard(tmp) {
  const repo = tempRepo(tmp, 'big')
  const declarations = [
    {
      op: 'new',
      id: 'weekly-report',
      kind: 'result',
      weight: 2,
      summary: 'Weekly report drafted; two figures to check.',
    },
  ]
  TOPICS.forEach((t, i) => {
    const kids = children(t, i * 3)
    const grand = t.grand ? children(t.grand, 5).map(d => ({...d, parent: t.grand.id})) : []
    if (t.grand)
      kids.push({
        op: 'new',
        id: t.grand.id,
        parent: t.id,
        kind: t.grand.kind,
        weight: t.grand.weight,
        summary: t.grand.summary,
        budget: budgetFor(grand),
      })
    declarations.push(
      {op: 'new', id: t.id, kind: t.kind, weight: t.weight, summary: t.summary, budget: budgetFor(kids)},
      ...kids,
      ...grand,
    )
  })
  if (declarations.length !== 200) throw new Error(`expected 200 items, built ${declarations.length}`)
  repo.commit({batch_id: 'big-setup', declarations}, '2026-10-08T09:00:00Z')
  repo.commit(
    {
      batch_id: 'big-update',
      declarations: [
        {
          op: 'supersedes',
          id: 'release-3',
          kind: 'request',
          weight: 5,
          summary: 'Docs page 3: the user must approve the wording today.',
        },
        {op: 'supersedes', id: 'hiring-8', kind: 'result', weight: 3, summary: 'Offer draft 8: accepted.'},
        {
          op: 'new',
          id: 'security-fix',
          kind: 'request',
          weight: 4,
          summary: 'Security fix must ship with 2.4.',
          parent: 'release-2-4',
          due_at: '2026-10-13T00:00:00Z',
        },
        {op: 'withdraw', id: 'release-6', reason: 'Not a regression after all.'},
        {
          op: 'merges',
          from: ['release-9', 'release-17'],
          id: 'release-translations',
          kind: 'result',
          weight: 2,
          summary: 'Translations 9 and 17, done together.',
        },
        {op: 'withdraw', id: 'reading', reason: 'No time before the discussion.'},
      ],
    },
    '2026-10-09T10:00:00Z',
  )
  const now = path.join(repo.dir, 'now')
  repo.cairn(['board', 'state', '--now', '2026-10-09T15:00:00Z', '--overview', now])
  const diff = path.join(repo.dir, 'diff')
  repo.cairn(['board', 'state', '--now', '2026-10-09T15:00:00Z', '--overview', diff, '--diff-from', '1'])
  keep(now, [
    ['now-root.png', 'board-200-root.png'],
    ['now-under-release-2-4.png', 'board-200-release.png'],
  ])
  keep(diff, [['diff-under-release-2-4.png', 'board-200-release-diff.png']])
}

async function main() {
  fs.mkdirSync(OUT, {recursive: true})
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-overview-images-'))
  try {
    exampleBoard(tmp)
    bigBoard(tmp)
  } finally {
    fs.rmSync(tmp, {recursive: true, force: true})
  }
  process.stdout.write(
    `wrote ${fs
      .readdirSync(OUT)
      .filter(f => f.startsWith('board-'))
      .sort()
      .join(', ')} to ${OUT}\n`,
  )
}

await main()
