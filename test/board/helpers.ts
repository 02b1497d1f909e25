import fs from 'node:fs'
import path from 'node:path'
import {boardAnnotate} from '../../src/app/board/annotate.js'
import {boardCommit} from '../../src/app/board/commit.js'
import {boardState} from '../../src/app/board/read.js'
import {init} from '../../src/app/init.js'
import {runUseCase} from '../../src/app/use-case.js'
import {DEFAULT_BOARD_SETTINGS} from '../../src/domain/board/scale.js'
import {loadBoard} from '../../src/store/board/board.js'
import {projectStoreAt} from '../../src/store/layout.js'
import {cli, type CliResult, initRepo, type Repo, templateRepo} from '../helpers.js'

/** A temp git repo with an initialised project store. */
export const boardRepo = (): Promise<Repo> => initRepo()

/** A board repo right after US03's setup batch, committed by agent-1 at T(8, 8). */
export const us03Repo = templateRepo(async repo => {
  await init(repo.ctx())
  await commit(repo, US03, T(8, 8))
})

/** `cairn board commit - --json` through the real CLI. */
export function commitCli(
  repo: Repo,
  batch: unknown,
  now: string,
  actor = 'agent-1',
  extra: string[] = [],
): Promise<CliResult> {
  return cli(['board', 'commit', '-', '--now', now, '--actor', actor, '--json', ...extra], {
    cwd: repo.dir,
    env: repo.env,
    input: typeof batch === 'string' ? batch : JSON.stringify(batch),
  })
}

/** In-process commit (same code path as the CLI); a string batch is sent as is. */
export async function commit(repo: Repo, batch: unknown, now: string, actor = 'agent-1') {
  return boardCommit(repo.ctx({stdin: typeof batch === 'string' ? batch : JSON.stringify(batch)}), {
    file: '-',
    actor,
    now,
  })
}

export async function annotate(repo: Repo, item: string, text: string, batchId: string, now: string) {
  return boardAnnotate(repo.ctx(), {item, text, batch_id: batchId, now})
}

export const state = (repo: Repo, now: string) => boardState(repo.ctx(), {now})

/** The replayed board (items and annotations of every status), as the store loads it. */
export const board = (repo: Repo) => loadBoard(projectStoreAt(repo.dir), DEFAULT_BOARD_SETTINGS)

/** What the CLI would answer, worked out in process by the same use-case runner: the exit code and the --json envelope. */
export interface Answer {
  code: number
  json: () => any
}

async function answer(write: (warn: (message: string) => void) => Promise<{receipt: unknown}>): Promise<Answer> {
  const outcome = await runUseCase(async warn => ({data: (await write(warn)).receipt}))
  return {code: outcome.exitCode, json: () => outcome.envelope}
}

/** `board commit - --json` in process; a string batch is sent as is. */
export const tryCommit = (repo: Repo, batch: unknown, now: string, actor = 'agent-1'): Promise<Answer> =>
  answer(warn =>
    boardCommit(repo.ctx({stdin: typeof batch === 'string' ? batch : JSON.stringify(batch), warn}), {
      file: '-',
      actor,
      now,
    }),
  )

/** `board annotate ... --json` in process. */
export const tryAnnotate = (repo: Repo, item: string, text: string, batchId: string, now: string): Promise<Answer> =>
  answer(warn => boardAnnotate(repo.ctx({warn}), {item, text, batch_id: batchId, now}))

export const recordFiles = (repo: Repo): string[] => {
  const dir = path.join(repo.dir, '.cairn/board/batches')
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []
}

/** Every committed record, name and text: all the board commits to git. */
export const snapshotText = (repo: Repo): string =>
  recordFiles(repo)
    .map(f => `${f}\n${repo.read(`.cairn/board/batches/${f}`)}`)
    .join('\n')

export const emptyChanges = {content: [], structure: [], allocation: [], sources: []}

/** A receipt with the defaults of a committed batch, overridden per test. */
export function receipt(over: Record<string, unknown>) {
  return {
    status: 'committed',
    event: 'changed',
    actor: 'agent-1',
    changes: emptyChanges,
    acknowledged: [],
    already_acknowledged: [],
    checked: false,
    ...over,
  }
}

export const T = (hour: number, day = 9): string =>
  `2026-10-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`

/** US-03 of seed 003, before the trade-off: a trip with a visa request and a flight, a report, two PRs, a reading tip. */
export const US03 = {
  batch_id: 'run-20261008-setup',
  declarations: [
    {op: 'new', id: 'trip', kind: 'topic', weight: 4, summary: 'Business trip to Berlin on 2026-10-20.'},
    {
      op: 'new',
      id: 'visa',
      parent: 'trip',
      kind: 'request',
      weight: 4,
      summary: 'Visa agent needs the bank statement; only the user can provide it.',
      due_at: '2026-10-12T00:00:00Z',
    },
    {
      op: 'new',
      id: 'flight',
      parent: 'trip',
      kind: 'result',
      weight: 3,
      summary: 'Flight booked; the fare is refundable until 2026-10-15.',
      sources: ['mail:booking-4411'],
    },
    {
      op: 'new',
      id: 'weekly-report',
      kind: 'result',
      weight: 4,
      summary: 'Weekly report drafted; two figures still to check.',
    },
    {op: 'new', id: 'pr-a', kind: 'progress', weight: 3, summary: 'PR A waiting for CI.'},
    {op: 'new', id: 'pr-b', kind: 'progress', weight: 3, summary: 'PR B waiting for review.'},
    {
      op: 'new',
      id: 'reading',
      kind: 'finding',
      weight: 3,
      summary: 'Article on attention budgets, maybe for the team discussion.',
    },
  ],
}
