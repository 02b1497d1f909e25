import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {boardState} from '../../src/app/board/read.js'
import {cli, type Repo, repoCopy} from '../helpers.js'
import {board, boardRepo, recordFiles, T, US03, us03Repo} from './helpers.js'

/** Issue 12: every board write path, killed at each step, and the migration of a board written before records merged. */

const LEGACY = path.join(import.meta.dirname, '../fixtures/board-legacy')
const TRADEOFF = {
  batch_id: 'tradeoff',
  declarations: [
    {op: 'supersedes', id: 'visa', kind: 'request', weight: 5},
    {op: 'withdraw', id: 'reading'},
  ],
}

const clean = (repo: Repo) => expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')

describe('board writes killed midway', () => {
  for (const point of ['after-journal', 'rename:1', 'before-commit', 'during-commit']) {
    it(`a commit killed at ${point} is whole or absent; the retry lands it once`, async () => {
      const repo = await us03Repo()
      const killed = await cli(['board', 'commit', '-', '--now', T(12), '--actor', 'agent-1'], {
        cwd: repo.dir,
        env: {...repo.env, CAIRN_TEST_CRASH: point},
        input: JSON.stringify(TRADEOFF),
      })
      expect(killed.code).toBe(-1)
      const s = await boardState(repo.ctx(), {now: T(13)})
      clean(repo)
      const landed = recordFiles(repo).some(f => f.startsWith('tradeoff-'))
      expect(s.event_seq).toBe(landed ? 2 : 1)
      const retry = await cli(['board', 'commit', '-', '--now', T(14), '--actor', 'agent-1', '--json'], {
        cwd: repo.dir,
        env: repo.env,
        input: JSON.stringify(TRADEOFF),
      })
      expect(retry.json().data).toMatchObject({status: landed ? 'already_committed' : 'committed', event_seq: 2})
      expect(recordFiles(repo).filter(f => f.startsWith('tradeoff-'))).toHaveLength(1)
      expect((await boardState(repo.ctx(), {now: T(15)})).items.find(i => i.id === 'visa')).toMatchObject({
        weight: 5,
        revision: 2,
      })
      clean(repo)
    })
  }

  it('a record left uncommitted is committed once when three commands find it at the same time', async () => {
    const repo = await us03Repo()
    await cli(['board', 'commit', '-', '--now', T(12), '--actor', 'agent-1'], {
      cwd: repo.dir,
      env: repo.env,
      input: JSON.stringify(TRADEOFF),
    })
    repo.git('reset', '-q', '--soft', 'HEAD~1')
    repo.git('reset', '-q')
    const head = repo.git('rev-parse', 'HEAD').trim()
    const runs = await Promise.all(
      [1, 2, 3].map(() => cli(['board', 'state', '--now', T(13), '--json'], {cwd: repo.dir, env: repo.env})),
    )
    expect(runs.map(r => [r.code, r.json().data.event_seq])).toEqual(Array(3).fill([0, 2]))
    expect(repo.git('log', '--format=%s', `${head}..HEAD`).trim()).toMatch(
      /^cairn\(board-recover\): commit tradeoff-[0-9a-f]{8}$/,
    )
    clean(repo)
  })

  for (const point of ['rename:1', 'before-commit']) {
    it(`committing a record left uncommitted, killed at ${point}, keeps the record and the next command commits it`, async () => {
      const repo = await us03Repo()
      await cli(['board', 'commit', '-', '--now', T(12), '--actor', 'agent-1'], {
        cwd: repo.dir,
        env: repo.env,
        input: JSON.stringify(TRADEOFF),
      })
      repo.git('reset', '-q', '--soft', 'HEAD~1')
      repo.git('reset', '-q')
      const file = repo.git('status', '--porcelain').trim().slice(3)
      const record = repo.read(file)
      expect(
        (await cli(['board', 'state', '--now', T(13)], {cwd: repo.dir, env: {...repo.env, CAIRN_TEST_CRASH: point}}))
          .code,
      ).toBe(-1)
      expect(repo.read(file)).toBe(record)
      const s = await cli(['board', 'state', '--now', T(13), '--json'], {cwd: repo.dir, env: repo.env})
      expect([s.code, s.json().data.event_seq]).toEqual([0, 2])
      expect(repo.git('log', '-1', '--format=%s').trim()).toMatch(
        /^cairn\(board-recover\): commit tradeoff-[0-9a-f]{8}$/,
      )
      clean(repo)
    })
  }

  it('an annotation killed before its commit is rolled back; the retry saves it once, under a new id', async () => {
    const repo = await us03Repo()
    const args = ['board', 'annotate', 'visa', 'Statement on Friday.', '--batch-id', 'note-1', '--now', T(12), '--json']
    expect((await cli(args, {cwd: repo.dir, env: {...repo.env, CAIRN_TEST_CRASH: 'before-commit'}})).code).toBe(-1)
    expect((await boardState(repo.ctx(), {now: T(13)})).annotations).toEqual([])
    clean(repo)
    const retry = await cli(args, {cwd: repo.dir, env: repo.env})
    expect(retry.json().data).toMatchObject({
      status: 'committed',
      event_seq: 2,
      annotation: {id: expect.stringMatching(/^a-[0-9a-f]{8}$/), item: 'visa'},
    })
    expect((await boardState(repo.ctx(), {now: T(13)})).annotations.map(a => a.batch_id)).toEqual(['note-1'])
  })

  it('parallel annotations and commits each land once, with ids that never collide', async () => {
    const repo = await us03Repo()
    const runs = await Promise.all([
      ...['n1', 'n2', 'n3'].map(b =>
        cli(['board', 'annotate', 'visa', `Note ${b}.`, '--batch-id', b, '--now', T(12), '--json'], {
          cwd: repo.dir,
          env: repo.env,
        }),
      ),
      cli(['board', 'commit', '-', '--now', T(12), '--actor', 'agent-1', '--json'], {
        cwd: repo.dir,
        env: repo.env,
        input: JSON.stringify(TRADEOFF),
      }),
    ])
    expect(runs.map(r => [r.code, r.stderr])).toEqual(Array(4).fill([0, '']))
    const s = await boardState(repo.ctx(), {now: T(13)})
    expect([
      s.event_seq,
      s.annotations.map(a => a.batch_id).sort(),
      new Set(s.annotations.map(a => a.id)).size,
    ]).toEqual([5, ['n1', 'n2', 'n3'], 3])
    expect(recordFiles(repo)).toHaveLength(5)
    clean(repo)
  })
})

/** A repo whose board was written by the previous cairn (records with effects, a committed state.json). */
async function legacyRepo(): Promise<Repo> {
  const repo = await boardRepo()
  fs.cpSync(LEGACY, path.join(repo.dir, '.cairn/board'), {recursive: true})
  repo.git('add', '-A')
  repo.git('commit', '-q', '-m', 'board written by the previous cairn')
  return repo
}

describe('board records are append-only', () => {
  it('a hand-broken record is refused by name with the fix; nothing is written', async () => {
    const repo = await us03Repo()
    const file = `.cairn/board/batches/${recordFiles(repo)[0]}`
    const good = repo.read(file)
    for (const broken of [
      good.replace('"declarations": [', '"declarations": [\n    null,'),
      good.replace('"clock": 1', '"clock": 1e300'),
      good.replace(/"now": "[^"]+"/, '"now": "yesterday"'),
      '{"schema": 1',
    ]) {
      repo.write(file, broken)
      const r = await cli(['board', 'state', '--now', T(13)], {cwd: repo.dir, env: repo.env})
      expect([r.code, r.stdout]).toEqual([6, ''])
      expect(r.stderr).toContain(file)
      expect(r.stderr).toContain(`git checkout -- ${file}`)
    }
    repo.write(file, good)
    clean(repo)
  })

  it('a same-size edit to a committed record is seen at once (the cache is keyed by time too) and warned about, never committed by cairn', async () => {
    const repo = await us03Repo()
    expect((await boardState(repo.ctx(), {now: T(13)})).items.find(i => i.id === 'visa')).toMatchObject({weight: 4})
    const file = `.cairn/board/batches/${recordFiles(repo)[0]}`
    const head = repo.git('rev-parse', 'HEAD')
    repo.write(
      file,
      repo.read(file).replace('"id":"visa","kind":"request","weight":4', '"id":"visa","kind":"request","weight":5'),
    )
    const r = await cli(['board', 'state', '--now', T(13), '--json'], {cwd: repo.dir, env: repo.env})
    expect(r.json().data.items.find((i: any) => i.id === 'visa')).toMatchObject({weight: 5})
    expect(r.json().warnings).toEqual([
      `${file} was changed after it was committed; board records are append-only: restore it with "git checkout -- ${file}" and record the change as a new batch`,
    ])
    expect([repo.git('rev-parse', 'HEAD'), repo.git('status', '--porcelain')]).toEqual([head, ` M ${file}\n`])
  })
})

describe('board migration from the previous format', () => {
  it('the first board command migrates in one commit; the board reads as before; two clones write the same files', async () => {
    const repo = await legacyRepo()
    const other = repoCopy(repo)
    const before = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, '../fixtures/board-legacy-state.json'), 'utf8'),
    ).data
    const s = await boardState(repo.ctx(), {now: '2026-10-09T16:00:00Z'})
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe(
      'cairn(board-migrate): board records that merge across branches',
    )
    expect(
      repo
        .git('show', '--name-status', '--format=', 'HEAD')
        .trim()
        .split('\n')
        .map(l => l.split('\t')[0])
        .sort(),
    ).toEqual(['A', 'A', 'A', 'A', 'D', 'D', 'D', 'D', 'D'])
    expect(fs.existsSync(path.join(repo.dir, '.cairn/board/state.json'))).toBe(false)
    expect(recordFiles(repo)).toEqual([
      expect.stringMatching(/^note-1-[0-9a-f]{8}\.json$/),
      expect.stringMatching(/^note-2-/),
      expect.stringMatching(/^run-20261009-1-/),
      expect.stringMatching(/^run-20261009-2-/),
    ])
    const strip = (x: any) => ({
      ...x,
      items: x.items.map(({conflict: _c, ...i}: any) => i),
      layers: x.layers.map(({over_budget: _o, ...l}: any) => l),
    })
    const {conflicts, problems, ...rest} = s
    expect([conflicts, problems]).toEqual([[], []])
    expect(strip(rest)).toEqual(before)
    expect(s.annotations.map(a => a.id)).toEqual(['a-2'])
    clean(repo)
    // Nothing left to migrate: the next command commits nothing.
    const head = repo.git('rev-parse', 'HEAD')
    await boardState(repo.ctx(), {now: T(17)})
    expect(repo.git('rev-parse', 'HEAD')).toBe(head)
    // Another clone of the same board migrates it to the very same files.
    await boardState(other.ctx(), {now: T(17)})
    expect(other.git('rev-parse', 'HEAD^{tree}')).toBe(repo.git('rev-parse', 'HEAD^{tree}'))
    // A legacy annotation id is still acknowledged by its old name.
    const ack = await cli(['board', 'commit', '-', '--now', T(18), '--actor', 'agent-1', '--json'], {
      cwd: repo.dir,
      env: repo.env,
      input: JSON.stringify({batch_id: 'ack-2', declarations: [], acknowledges: ['a-2']}),
    })
    expect(ack.json().data).toMatchObject({status: 'committed', event_seq: 5, acknowledged: ['a-2']})
  })

  it('the session hook reads a legacy board without writing', async () => {
    const repo = await legacyRepo()
    const head = repo.git('rev-parse', 'HEAD')
    const {boardBrief} = await import('../../src/app/board/read.js')
    const brief = await boardBrief(repo.ctx(), {now: T(17), migrate: false})
    expect(brief.text).toContain('a-2 on trip')
    expect([repo.git('rev-parse', 'HEAD'), fs.existsSync(path.join(repo.dir, '.cairn/board/state.json'))]).toEqual([
      head,
      true,
    ])
    clean(repo)
  })

  it('a migration killed midway is finished or rolled back by the next command, and two at once migrate once', async () => {
    for (const point of ['rename:2', 'before-commit']) {
      const repo = await legacyRepo()
      expect(
        (await cli(['board', 'state', '--now', T(17)], {cwd: repo.dir, env: {...repo.env, CAIRN_TEST_CRASH: point}}))
          .code,
      ).toBe(-1)
      const s = await boardState(repo.ctx(), {now: T(17)})
      expect([
        s.event_seq,
        recordFiles(repo).every(f => !/^\d{6}-/.test(f)),
        fs.existsSync(path.join(repo.dir, '.cairn/board/state.json')),
      ]).toEqual([4, true, false])
      clean(repo)
    }
    const repo = await legacyRepo()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const runs = await Promise.all(
      [1, 2, 3].map(() => cli(['board', 'state', '--now', T(17), '--json'], {cwd: repo.dir, env: repo.env})),
    )
    expect(runs.map(r => [r.code, r.json().data.event_seq])).toEqual(Array(3).fill([0, 4]))
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
    clean(repo)
    expect(board(repo).legacy).toBe(false)
  })
})

export {US03}
