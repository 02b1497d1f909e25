import {describe, expect, it} from 'vitest'
import {receipts, stats} from '../src/app/receipts.js'
import {cliInProcess} from './cli-in-process.js'
import {initRepo, refusal, type Repo, tempDir} from './helpers.js'

const RECEIPTS = [
  {
    ts: '2026-11-20T09:00:00Z',
    session: 'sess-a',
    client: 'claude',
    event: 'session-start',
    cards: [
      {id: 'run-tests-before-push', why: 'core', chars: 92},
      {id: 'flaky-login-test', why: 'catalog', chars: 119},
    ],
    chars: 400,
  },
  {
    ts: '2026-11-20T09:05:00Z',
    session: 'sess-a',
    client: 'claude',
    event: 'user-prompt-submit',
    cards: [{id: 'flaky-login-test', why: 'trigger "flaky login test"', chars: 236}],
    chars: 320,
  },
  {
    ts: '2026-11-28T12:00:00Z',
    session: 'sess-b',
    client: 'codex',
    event: 'pre-tool-use',
    cards: [{id: 'backup-before-migration', why: 'path db/migrations/**', chars: 110}],
    chars: 180,
  },
  {
    ts: '2026-11-29T09:00:00Z',
    session: 'sess-b',
    client: 'codex',
    event: 'user-prompt-submit',
    cards: [
      {id: 'flaky-login-test', why: 'trigger "flaky login test"', chars: 236},
      {id: 'my-habit', why: 'alias "x"', chars: 100, store: 'personal'},
    ],
    chars: 400,
  },
]

/** A project whose hooks left four receipts, an older generation holding the first, and lines no receipt is. */
async function withReceipts(): Promise<Repo> {
  const repo = await initRepo()
  const line = (r: object) => `${JSON.stringify(r)}\n`
  repo.write('.cairn/.local/receipts.1.jsonl', `${line(RECEIPTS[0])}not json\n`)
  repo.write(
    '.cairn/.local/receipts.jsonl',
    `${line(RECEIPTS[1])}${line({event: 'edit', ts: 'x'})}${line(RECEIPTS[2])}${line(RECEIPTS[3])}{"ts":"2026-11-29T09:30`,
  )
  return repo
}

const run = (repo: {dir: string; env: NodeJS.ProcessEnv}, ...args: string[]) =>
  cliInProcess(args, {cwd: repo.dir, env: repo.env})

describe('cairn receipts', () => {
  it('lists every receipt kept, oldest first, across generations; foreign and torn lines are skipped', async () => {
    const repo = await withReceipts()
    const r = await run(repo, 'receipts', '--json')
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.json()).toEqual({
      ok: true,
      data: {store: 'project', receipts: RECEIPTS, kept: 4, from: '2026-11-20T09:00:00Z'},
      warnings: [],
    })
  })

  it('text: one block per receipt, its cards with size and why; --since, --session and --limit filter', async () => {
    const repo = await withReceipts()
    const since = await run(repo, 'receipts', '--since', '2026-11-28')
    expect([since.code, since.stderr]).toEqual([0, ''])
    expect(since.stdout).toBe(
      [
        '2026-11-28T12:00:00Z  codex  pre-tool-use  session sess-b  180 chars',
        '  backup-before-migration  110  path db/migrations/**',
        '2026-11-29T09:00:00Z  codex  user-prompt-submit  session sess-b  400 chars',
        '  flaky-login-test         236  trigger "flaky login test"',
        '  my-habit                 100  alias "x" (personal card)',
        '',
      ].join('\n'),
    )
    const span = await receipts(repo.ctx(), {since: '2d'})
    expect(span.receipts).toEqual(RECEIPTS.slice(2))
    const session = await receipts(repo.ctx(), {session: 'sess-a', limit: 1})
    expect(session.receipts).toEqual([RECEIPTS[1]])
    const none = await run(repo, 'receipts', '--since', '2026-12-01T00:00:00+01:00')
    expect([none.code, none.stdout]).toEqual([0, 'No receipt matches (4 kept, since 2026-11-20T09:00:00Z).\n'])
  })

  it('a --since that is no date is a usage error (2); a session no receipt names is not found (4), with the closest', async () => {
    const repo = await withReceipts()
    const forms =
      'give a date (2026-11-01), an RFC 3339 time (2026-11-01T09:00:00Z) or a span back from now (7d, 12h, 2w)'
    for (const bad of ['notadate', '2026-02-30', '7 days']) {
      const r = await run(repo, 'receipts', '--since', bad, '--json')
      expect([r.code, r.json()]).toEqual([
        2,
        {ok: false, error: {code: 'usage', message: `--since "${bad}" is not a date. Fix: ${forms}.`, data: null}},
      ])
    }
    const text = await run(repo, 'stats', '--since', 'notadate')
    expect([text.code, text.stdout, text.stderr]).toEqual([
      2,
      '',
      `cairn: --since "notadate" is not a date. Fix: ${forms}.\n`,
    ])
    const unknown = await run(repo, 'receipts', '--session', 'sess-c')
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([
      4,
      '',
      'cairn: No receipt names session "sess-c" in the project store\'s receipts (they go back to 2026-11-20T09:00:00Z). ' +
        'Did you mean "sess-a" or "sess-b"? Fix: pick one from "cairn stats", which lists the sessions.\n',
    ])
    const e = await refusal(() => receipts(repo.ctx(), {session: 'nothing-like-it'}))
    expect([e.code, e.data]).toEqual(['not_found', {session: 'nothing-like-it', suggestions: []}])
    const limit = await run(repo, 'receipts', '--limit', '0')
    expect(limit.code).toBe(2)
  })

  it('no receipts yet: says where they will be; outside a repository: exit 3; no personal store: exit 3', async () => {
    const repo = await initRepo()
    const empty = await run(repo, 'receipts')
    expect([empty.code, empty.stdout]).toEqual([
      0,
      'No receipts in the project store yet: the hooks add one line to .cairn/.local/receipts.jsonl each time they inject cards.\n',
    ])
    expect((await run(repo, 'stats', '--json')).json().data).toEqual({
      store: 'project',
      kept: 0,
      receipts: 0,
      from: null,
      to: null,
      chars: 0,
      cards: [],
      sessions: [],
    })
    expect((await run(repo, 'receipts', '--store', 'personal')).code).toBe(3)
    const dir = tempDir()
    const outside = await cliInProcess(['stats'], {cwd: dir})
    expect(outside.code).toBe(3)
  })
})

describe('cairn stats', () => {
  it('per card: injections, matched, sessions, last, characters and share; per session the totals', async () => {
    const repo = await withReceipts()
    const r = await stats(repo.ctx())
    expect(r).toEqual({
      store: 'project',
      kept: 4,
      receipts: 4,
      from: '2026-11-20T09:00:00Z',
      to: '2026-11-29T09:00:00Z',
      chars: 1300,
      cards: [
        {
          id: 'flaky-login-test',
          store: 'project',
          injections: 3,
          matched: 2,
          sessions: 2,
          last: '2026-11-29T09:00:00Z',
          last_matched: '2026-11-29T09:00:00Z',
          chars: 591,
          share: 0.4546,
        },
        {
          id: 'backup-before-migration',
          store: 'project',
          injections: 1,
          matched: 1,
          sessions: 1,
          last: '2026-11-28T12:00:00Z',
          last_matched: '2026-11-28T12:00:00Z',
          chars: 110,
          share: 0.0846,
        },
        {
          id: 'my-habit',
          store: 'personal',
          injections: 1,
          matched: 1,
          sessions: 1,
          last: '2026-11-29T09:00:00Z',
          last_matched: '2026-11-29T09:00:00Z',
          chars: 100,
          share: 0.0769,
        },
        {
          id: 'run-tests-before-push',
          store: 'project',
          injections: 1,
          matched: 1,
          sessions: 1,
          last: '2026-11-20T09:00:00Z',
          last_matched: '2026-11-20T09:00:00Z',
          chars: 92,
          share: 0.0708,
        },
      ],
      sessions: [
        {
          session: 'sess-b',
          client: 'codex',
          injections: 2,
          cards: 3,
          chars: 580,
          first: '2026-11-28T12:00:00Z',
          last: '2026-11-29T09:00:00Z',
        },
        {
          session: 'sess-a',
          client: 'claude',
          injections: 2,
          cards: 2,
          chars: 720,
          first: '2026-11-20T09:00:00Z',
          last: '2026-11-20T09:05:00Z',
        },
      ],
    })
    const text = await run(repo, 'stats')
    expect([text.code, text.stderr]).toEqual([0, ''])
    expect(text.stdout).toBe(
      [
        '4 injection(s) in 2 session(s), 2026-11-20T09:00:00Z to 2026-11-29T09:00:00Z: 1300 characters ' +
          '(MATCHED: injected for itself, not as a catalog line; SHARE: of every character injected).',
        '',
        'CARD                     INJECTIONS  MATCHED  SESSIONS  LAST                  CHARS  SHARE',
        'flaky-login-test         3           2        2         2026-11-29T09:00:00Z  591    45.5%',
        'backup-before-migration  1           1        1         2026-11-28T12:00:00Z  110    8.5%',
        'my-habit (personal)      1           1        1         2026-11-29T09:00:00Z  100    7.7%',
        'run-tests-before-push    1           1        1         2026-11-20T09:00:00Z  92     7.1%',
        '',
        'SESSION  CLIENT  INJECTIONS  CARDS  CHARS  LAST',
        'sess-b   codex   2           3      580    2026-11-29T09:00:00Z',
        'sess-a   claude  2           2      720    2026-11-20T09:05:00Z',
        '',
      ].join('\n'),
    )
    const since = await stats(repo.ctx(), {since: '2026-11-29'})
    expect([since.receipts, since.kept, since.chars, since.cards.map(c => [c.id, c.injections])]).toEqual([
      1,
      4,
      400,
      [
        ['flaky-login-test', 1],
        ['my-habit', 1],
      ],
    ])
  })
})
