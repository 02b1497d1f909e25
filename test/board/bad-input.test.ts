import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {boardCommit} from '../../src/app/board/commit.js'
import {boardState} from '../../src/app/board/read.js'
import {cliInProcess} from '../cli-in-process.js'
import {cli, refusal, snapshot} from '../helpers.js'
import {boardRepo, commitCli, recordFiles, T, tryCommit, US03, us03Repo} from './helpers.js'

describe('board: bad input gives a located error and changes nothing', () => {
  const cases: [string, string, string, string, RegExp][] = [
    [
      'malformed JSON',
      '{"batch_id": "b",\n "declarations": [\n  {"op": "new" "id": "x"}\n ]}',
      '(root)',
      'malformed_json',
      /\(stdin\) is not valid JSON: at line 3, column 16: expected "," or "}" after a property value, found "\\""/,
    ],
    [
      'an unknown op',
      JSON.stringify({
        batch_id: 'b',
        declarations: [
          {op: 'withdraw', id: 'pr-a'},
          {op: 'rename', id: 'pr-b', to: 'pr-c'},
        ],
      }),
      'declarations[1].op',
      'unknown_op',
      /declarations\[1\]\.op: unknown op "rename"; use one of new, supersedes, children, merges, withdraw \[unknown_op\]/,
    ],
    [
      'a cycle in parents',
      JSON.stringify({
        batch_id: 'b',
        declarations: [
          {op: 'new', id: 'alpha', kind: 'topic', weight: 1, summary: 'a'},
          {op: 'new', id: 'beta', parent: 'alpha', kind: 'topic', weight: 1, summary: 'b'},
          {op: 'supersedes', id: 'alpha', parent: 'beta', kind: 'topic', weight: 1},
        ],
      }),
      'declarations[2].parent',
      'cycle',
      /declarations\[2\]\.parent: this parent would make a cycle: alpha → beta → alpha \[cycle\]/,
    ],
    [
      'a missing target',
      JSON.stringify({batch_id: 'b', declarations: [{op: 'withdraw', id: 'no-such-item'}]}),
      'declarations[0].id',
      'not_found',
      /declarations\[0\]\.id: item "no-such-item" does not exist \[not_found\]/,
    ],
  ]

  for (const [name, input, errorPath, code, message] of cases) {
    it(name, async () => {
      const repo = await us03Repo()
      const before = snapshot(repo)
      const json = await tryCommit(repo, input, T(9))
      expect(json.code).toBe(6)
      const error = json.json().error
      expect(error.message).toMatch(message)
      expect(error.code).toBe('rejected')
      expect(error.data.errors.map((e: any) => [e.path, e.code])).toEqual([[errorPath, code]])
      expect(error.data.receipt).toMatchObject({status: 'rejected', event_seq: null, revision: 1})
      expect(snapshot(repo)).toEqual(before)
      expect(recordFiles(repo)).toEqual(['run-20261008-setup-00000001.json'])
    })
  }

  it('through the CLI: a rejected batch exits 6 with the message on stderr; --json gives the error envelope with the receipt', async () => {
    const repo = await us03Repo()
    const before = snapshot(repo)
    const input = JSON.stringify({batch_id: 'b', declarations: [{op: 'withdraw', id: 'no-such-item'}]})
    const text = await cli(['board', 'commit', '-', '--now', T(9), '--actor', 'agent-1'], {
      cwd: repo.dir,
      env: repo.env,
      input,
    })
    expect([text.code, text.stdout]).toEqual([6, ''])
    expect(text.stderr).toMatch(/^cairn: .*declarations\[0\]\.id: item "no-such-item" does not exist \[not_found\]/s)
    const json = await commitCli(repo, input, T(9))
    expect([json.code, json.stderr]).toEqual([6, ''])
    expect(json.json()).toMatchObject({
      ok: false,
      error: {
        code: 'rejected',
        data: {
          receipt: {status: 'rejected', event_seq: null, revision: 1},
          errors: [{path: 'declarations[0].id', code: 'not_found'}],
        },
      },
    })
    expect(snapshot(repo)).toEqual(before)
  })

  it('usage errors: a bad --now, a bad --actor, a missing file', async () => {
    const repo = await boardRepo()
    const badNow = await refusal(() => boardState(repo.ctx(), {now: 'yesterday'}))
    expect([badNow.exitCode, badNow.message]).toEqual([
      2,
      '--now "yesterday" is not an RFC 3339 timestamp. Fix: give one such as 2026-10-09T12:00:00Z.',
    ])
    const rolledOver = await refusal(() => boardState(repo.ctx(), {now: '2026-02-30T00:00:00Z'}))
    expect([rolledOver.exitCode, rolledOver.code]).toEqual([2, 'usage'])
    const badActor = await cliInProcess(['board', 'commit', '-', '--actor', 'agent\nCairn-Op: forged'], {
      cwd: repo.dir,
      env: repo.env,
      input: '{}',
    })
    expect([badActor.code, badActor.stderr]).toEqual([
      2,
      'cairn: The --actor value is not a name of one line and at most 100 characters. ' +
        'Fix: give one line of at most 100 characters.\n',
    ])
    const noFile = await refusal(() => boardCommit(repo.ctx(), {file: 'nope.json', actor: 'a'}))
    expect([noFile.exitCode, noFile.message]).toEqual([4, 'No such file: nope.json. Fix: check the path.'])
  })

  it('--store personal keeps the board in $CAIRN_HOME and leaves the project repo alone', async () => {
    const repo = await boardRepo()
    const before = snapshot(repo)
    const r = await cli(['board', 'commit', '-', '--store', 'personal', '--actor', 'me', '--now', T(9), '--json'], {
      cwd: repo.dir,
      env: repo.env,
      input: JSON.stringify(US03),
    })
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.json()).toMatchObject({ok: true, warnings: [], data: {status: 'committed', actor: 'me', now: T(9)}})
    expect(snapshot(repo)).toEqual(before)
    const home = path.join(repo.home, '.cairn')
    expect(fs.readdirSync(path.join(home, 'board/batches'))).toEqual([
      expect.stringMatching(/^run-20261008-setup-[0-9a-f]{8}\.json$/),
    ])
    expect(await boardState(repo.ctx(), {store: 'personal', now: T(10)})).toMatchObject({
      store: 'personal',
      event_seq: 1,
    })
    expect(await boardState(repo.ctx(), {now: T(10)})).toMatchObject({store: 'project', event_seq: 0, items: []})
  })
})
