import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {archive, listArchives, restore} from '../src/app/archive.js'
import {init} from '../src/app/init.js'
import {log} from '../src/app/log.js'
import {modify} from '../src/app/modify.js'
import {propose} from '../src/app/propose.js'
import {approve, defer, reject, review} from '../src/app/review.js'
import {parseCard} from '../src/domain/card/format.js'
import {card, cli, initRepo, refusal, type Repo, snapshot, templateRepo} from './helpers.js'

const PENDING = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
const ACTIVE = '.cairn/cards/pitfall/deepmerge-array-replace-trap.md'

async function proposeCards(repo: Repo, extra: Record<string, unknown>[]) {
  const file = path.join(repo.home, 'cards.json')
  fs.writeFileSync(file, JSON.stringify([card(), ...extra]))
  await propose(repo.ctx(), {file})
}

const onePending = templateRepo(async repo => {
  await init(repo.ctx())
  await proposeCards(repo, [])
})

async function withPending(extra: Record<string, unknown>[] = []) {
  if (!extra.length) return onePending()
  const repo = await initRepo()
  await proposeCards(repo, extra)
  return repo
}

describe('review approve', () => {
  it('moves with one commit, keeps one unbroken history, and changes only status, approved and the format', async () => {
    const repo = await withPending()
    const before = repo.read(PENDING)
    const r = await approve(repo.ctx({now: '2026-11-30T12:00:00Z'}), {ids: ['deepmerge-array-replace-trap']})
    expect(r.cards).toEqual([{id: 'deepmerge-array-replace-trap', store: 'project', from: PENDING, to: ACTIVE}])
    expect(fs.existsSync(path.join(repo.dir, PENDING))).toBe(false)
    const after = repo.read(ACTIVE)
    expect(after).toBe(
      before
        .replace('schema: cairn/card@5', 'schema: cairn/card@4')
        .replace('status: pending', 'status: active')
        .replace('approved: null', 'approved:\n  by: tester\n  at: 2026-11-30T12:00:00Z'),
    )
    expect(repo.git('log', '--follow', '--format=%s', '--', ACTIVE).trim().split('\n')).toEqual([
      'cairn(approve): deepmerge-array-replace-trap',
      'cairn(propose): deepmerge-array-replace-trap',
    ])
    expect(repo.git('show', '--name-status', '--format=', 'HEAD').trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^R\\d+\\t${PENDING}\\t${ACTIVE}$`)),
    ])
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('--all approves every pending card in one commit; deferred cards wait', async () => {
    const repo = await withPending([card({slug: 'stage-only-touched-paths'}), card({slug: 'deferred-card-for-later'})])
    await defer(repo.ctx(), {id: 'deferred-card-for-later', until: '2026-12-31'})
    expect((await review(repo.ctx())).entries.map(e => e.id)).toEqual([
      'deepmerge-array-replace-trap',
      'stage-only-touched-paths',
    ])
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await approve(repo.ctx(), {all: true})
    expect(r.cards.map(c => c.id)).toEqual(['deepmerge-array-replace-trap', 'stage-only-touched-paths'])
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
    expect(repo.git('log', '-1', '--format=%B')).toContain(
      'Cairn-Card: deepmerge-array-replace-trap\nCairn-Card: stage-only-touched-paths\n',
    )
    expect((await review(repo.ctx({now: '2027-01-01T00:00:00Z'}))).entries.map(e => e.id)).toEqual([
      'deferred-card-for-later',
    ])
  })

  it('refuses bad input with the documented exit codes and writes nothing', async () => {
    const repo = await withPending()
    await approve(repo.ctx(), {ids: ['deepmerge-array-replace-trap']})
    const before = snapshot(repo)
    const unknown = await refusal(() => approve(repo.ctx(), {ids: ['no-such-card-in-store']}))
    expect(unknown.exitCode).toBe(4)
    const active = await refusal(() => approve(repo.ctx(), {ids: ['deepmerge-array-replace-trap']}))
    expect(active.exitCode).toBe(5)
    expect(active.message).toContain(`Cannot approve "deepmerge-array-replace-trap": it is active, at ${ACTIVE};`)
    const badSet = await refusal(() => modify(repo.ctx(), {id: 'deepmerge-array-replace-trap', sets: ['colour=blue']}))
    expect(badSet.exitCode).toBe(2)
    expect(badSet.message).toContain(
      '--set "colour=blue": "colour" cannot be modified. Fix: use one of type, slug, load, scope, paths, category, layer, triggers, derived_triggers, symbols, evidence_paths, supersedes, title, summary, rule, use_when, ignore_when, aliases, policy, risk.',
    )
    expect(snapshot(repo)).toEqual(before)
  })

  it('review defer --until a date already past is refused (exit 6), before any card is looked up', async () => {
    const repo = await withPending()
    const before = snapshot(repo)
    const past = await refusal(() =>
      defer(repo.ctx({now: '2026-11-30T12:00:00Z'}), {id: 'deepmerge-array-replace-trap', until: '2026-11-01'}),
    )
    expect([past.exitCode, past.message]).toEqual([
      6,
      '--until 2026-11-01 is already past: now is 2026-11-30T12:00:00Z. Fix: give a later date, such as the day the card should come back for review.',
    ])
    const cliPast = await cli(['review', 'defer', 'deepmerge-array-replace-trap', '--until', '2020-01-01'], {
      cwd: repo.dir,
      env: repo.env,
    })
    expect(cliPast.code).toBe(6)
    expect(snapshot(repo)).toEqual(before)
  })

  it('exits 5 and names both files when cards/ already holds the id', async () => {
    const repo = await withPending()
    repo.write(ACTIVE, repo.read(PENDING).replace('status: pending', 'status: active'))
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'hand-made duplicate')
    const before = snapshot(repo)
    const e = await refusal(() => approve(repo.ctx(), {ids: ['deepmerge-array-replace-trap']}))
    expect(e.exitCode).toBe(5)
    expect(e.message).toContain(ACTIVE)
    expect(e.message).toContain(PENDING)
    expect(snapshot(repo)).toEqual(before)
  })
})

describe('reject, modify and log', () => {
  it('reject removes the card with the reason in the commit message', async () => {
    const repo = await withPending()
    await reject(repo.ctx(), {id: 'deepmerge-array-replace-trap', reason: 'covered by config-merge-rules'})
    expect(fs.existsSync(path.join(repo.dir, PENDING))).toBe(false)
    expect(repo.git('log', '-1', '--format=%B')).toBe(
      'cairn(reject): deepmerge-array-replace-trap\n\nReason: covered by config-merge-rules\n\nCairn-Op: reject\nCairn-Card: deepmerge-array-replace-trap\nCairn-Actor: tester\nCairn-Format: 1\n\n',
    )
    expect(repo.git('show', `HEAD~1:${PENDING}`)).toContain('id: deepmerge-array-replace-trap')
  })

  it('reject and defer take several ids: one commit, the same reason or date for all', async () => {
    const repo = await withPending([card({slug: 'stage-only-touched-paths'}), card({slug: 'deferred-card-for-later'})])
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await reject(repo.ctx(), {
      ids: ['deepmerge-array-replace-trap', 'stage-only-touched-paths', 'deepmerge-array-replace-trap'],
      reason: 'both covered by config-merge-rules',
    })
    expect(r.cards.map(c => [c.id, c.to])).toEqual([
      ['deepmerge-array-replace-trap', null],
      ['stage-only-touched-paths', null],
    ])
    expect(repo.git('log', '-1', '--format=%B')).toBe(
      'cairn(reject): reject 2 cards\n\nReason: both covered by config-merge-rules\n\nCairn-Op: reject\n' +
        'Cairn-Card: deepmerge-array-replace-trap\nCairn-Card: stage-only-touched-paths\nCairn-Actor: tester\n' +
        'Cairn-Format: 1\n\n',
    )
    expect(repo.git('show', '--name-status', '--format=', 'HEAD').trim().split('\n')).toEqual([
      `D\t${PENDING}`,
      'D\t.cairn/pending/pitfall/stage-only-touched-paths.md',
    ])
    await proposeCards(repo, [card({slug: 'stage-only-touched-paths'})])
    const deferred = await cli(
      ['review', 'defer', 'deepmerge-array-replace-trap', 'stage-only-touched-paths', '--until', '2026-12-31'],
      {cwd: repo.dir, env: repo.env},
    )
    expect([deferred.code, deferred.stderr]).toEqual([0, ''])
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe('cairn(defer): defer 2 cards until 2026-12-31T00:00:00Z')
    for (const id of ['deepmerge-array-replace-trap', 'stage-only-touched-paths'])
      expect(repo.read(`.cairn/pending/pitfall/${id}.md`)).toContain('\ndeferred_until: 2026-12-31T00:00:00Z\n')
    expect((await review(repo.ctx())).entries.map(e => e.id)).toEqual(['deferred-card-for-later'])
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('3')
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('reject and defer of several ids are all or none: an unknown or an active one writes nothing', async () => {
    const repo = await withPending([card({slug: 'stage-only-touched-paths'})])
    await approve(repo.ctx(), {ids: ['stage-only-touched-paths']})
    const before = snapshot(repo)
    const ids = (other: string) => ['deepmerge-array-replace-trap', other]
    const unknown = await refusal(() => reject(repo.ctx(), {ids: ids('no-such-card-in-store'), reason: 'x'}))
    expect(unknown.exitCode).toBe(4)
    const active = await refusal(() => reject(repo.ctx(), {ids: ids('stage-only-touched-paths'), reason: 'x'}))
    expect(active.exitCode).toBe(5)
    expect(active.message).toContain('stage-only-touched-paths')
    const later = await refusal(() => defer(repo.ctx(), {ids: ids('stage-only-touched-paths'), until: '2026-12-31'}))
    expect(later.exitCode).toBe(5)
    for (const op of ['reject', 'defer'] as const) {
      const none = await cli(['review', op, op === 'reject' ? '--reason=x' : '--until=2026-12-31'], {
        cwd: repo.dir,
        env: repo.env,
      })
      expect([none.code, none.stderr]).toEqual([
        2,
        `cairn: Nothing to ${op}. Fix: give the ids of the pending cards, as in "cairn review ${op} <id> <id> ` +
          `${op === 'reject' ? '--reason <text>' : '--until YYYY-MM-DD'}".\n`,
      ])
    }
    expect(snapshot(repo)).toEqual(before)
  })

  it('modify renames, moves and flips layers; log follows the card through every step', async () => {
    const repo = await withPending()
    await approve(repo.ctx(), {ids: ['deepmerge-array-replace-trap']})
    const m = await modify(repo.ctx(), {
      id: 'deepmerge-array-replace-trap',
      sets: ['slug=deepmerge-replaces-hook-arrays', 'type=guideline', 'load=core'],
    })
    const moved = '.cairn/cards/guideline/deepmerge-replaces-hook-arrays.md'
    expect(m.to).toEqual({store: 'project', path: moved})
    const c = parseCard(repo.read(moved), moved)
    expect([c.id, c.type, c.load, c.status]).toEqual(['deepmerge-replaces-hook-arrays', 'guideline', 'core', 'active'])
    const a = await archive(repo.ctx(), {ids: ['deepmerge-replaces-hook-arrays']})
    await restore(repo.ctx(), {ts: a.ts!})
    const ops = (await log(repo.ctx(), {id: 'deepmerge-replaces-hook-arrays'})).entries.map(e => e.op)
    expect(ops).toEqual(['restore', 'archive', 'modify', 'approve', 'propose'])
    const flip = await modify(repo.ctx(), {id: 'deepmerge-replaces-hook-arrays', sets: ['layer=personal']})
    expect(flip.to).toEqual({store: 'personal', path: 'cards/guideline/deepmerge-replaces-hook-arrays.md'})
    const personal = parseCard(fs.readFileSync(path.join(repo.home, '.cairn', flip.to.path), 'utf8'), 'x')
    expect(personal.scope).toEqual({level: 'global', project_key: null, module_path: null, paths: []})
    expect(fs.existsSync(path.join(repo.dir, moved))).toBe(false)
    expect(repo.git('status', '--porcelain')).toBe('')
  })
})

describe('archive and restore', () => {
  it('brings back byte-identical files; a collision becomes restored-<id> and leaves the live card untouched', async () => {
    const repo = await withPending([card({slug: 'stage-only-touched-paths'})])
    await approve(repo.ctx(), {all: true})
    const original = repo.read(ACTIVE)
    const a = await archive(repo.ctx({now: '2026-11-30T08:00:00Z'}), {ids: ['deepmerge-array-replace-trap']})
    expect(a.ts).toBe('20261130T080000Z')
    expect(a.archived).toEqual([
      {
        id: 'deepmerge-array-replace-trap',
        from: ACTIVE,
        to: '.cairn/archive/20261130T080000Z/cards/pitfall/deepmerge-array-replace-trap.md',
      },
    ])
    expect(listArchives(repo.ctx()).archives).toEqual([
      {ts: '20261130T080000Z', cards: [{id: 'deepmerge-array-replace-trap', path: a.archived[0].to}]},
    ])
    await restore(repo.ctx(), {ts: '20261130T080000Z'})
    expect(repo.read(ACTIVE)).toBe(original)
    expect(fs.existsSync(path.join(repo.dir, '.cairn/archive'))).toBe(false)
    await archive(repo.ctx({now: '2026-11-30T09:00:00Z'}), {ids: ['deepmerge-array-replace-trap']})
    repo.write(
      PENDING,
      original.replace('status: active', 'status: draft').replace(/approved:\n.*\n.*\n/, 'approved: null\n'),
    )
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'a new card took the id')
    const live = repo.read(PENDING)
    const r = await restore(repo.ctx(), {ts: '20261130T090000Z'})
    expect(r.restored).toEqual([
      {
        id: 'restored-deepmerge-array-replace-trap',
        from: '.cairn/archive/20261130T090000Z/cards/pitfall/deepmerge-array-replace-trap.md',
        to: '.cairn/cards/pitfall/restored-deepmerge-array-replace-trap.md',
        renamed: true,
      },
    ])
    expect(repo.read(PENDING)).toBe(live)
    expect(repo.read('.cairn/cards/pitfall/restored-deepmerge-array-replace-trap.md')).toBe(
      original.replace('id: deepmerge-array-replace-trap', 'id: restored-deepmerge-array-replace-trap'),
    )
    expect(repo.git('log', '-1', '--format=%B')).toContain(
      'Cairn-Rename: deepmerge-array-replace-trap -> restored-deepmerge-array-replace-trap',
    )
  })

  it('--load recall skips protected cards; a bad timestamp exits 6 and an unknown one 4', async () => {
    const repo = await withPending([card({slug: 'stage-only-touched-paths'})])
    await approve(repo.ctx(), {all: true})
    const keep = '.cairn/cards/pitfall/stage-only-touched-paths.md'
    repo.write(keep, repo.read(keep).replace('protected: false', 'protected: true'))
    repo.git('commit', '-qam', 'protect')
    const a = await archive(repo.ctx(), {load: 'recall'})
    expect(a.archived.map(x => x.id)).toEqual(['deepmerge-array-replace-trap'])
    expect(a.skipped).toEqual([{id: 'stage-only-touched-paths', reason: 'protected'}])
    expect((await refusal(() => restore(repo.ctx(), {ts: '../../etc'}))).exitCode).toBe(6)
    expect((await refusal(() => restore(repo.ctx(), {ts: '20200101T000000Z'}))).exitCode).toBe(4)
  })
})
