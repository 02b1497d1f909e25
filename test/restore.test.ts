import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {archive} from '../src/app/archive.js'
import {init} from '../src/app/init.js'
import {lint} from '../src/app/lint.js'
import {list} from '../src/app/list.js'
import {maintain} from '../src/app/maintain.js'
import {propose} from '../src/app/propose.js'
import {restoreTarget} from '../src/app/restore-card.js'
import {approve} from '../src/app/review.js'
import {show} from '../src/app/show.js'
import {compareStamps} from '../src/domain/lifecycle.js'
import {card, cli, FIXED_NOW, refusal, type Repo, snapshot, tempRepo, templateRepo} from './helpers.js'
import {plant} from './hook-helpers.js'

const ID = 'deepmerge-array-replace-trap'
const ACTIVE = `.cairn/cards/pitfall/${ID}.md`
const at = (ts: string, id = ID) => `.cairn/archive/${ts}/cards/pitfall/${id}.md`

/** Two active cards; ID archived at 2026-11-30T08:00:00Z. */
const archivedOnce = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx({stdin: JSON.stringify([card(), card({slug: 'stage-only-touched-paths'})])}), {file: '-'})
  await approve(repo.ctx(), {all: true})
  await archive(repo.ctx({now: '2026-11-30T08:00:00Z'}), {ids: [ID]})
})

/** A second, later archive holding another copy of ID (a card that took the id again, then was archived). */
function archiveAgain(repo: Repo, ts: string, text: string, id = ID) {
  repo.write(at(ts, id), text)
  repo.git('add', '-A')
  repo.git('commit', '-qm', `archive again at ${ts}`)
}

describe('restore <card-id>', () => {
  it('restores the card from its archive in one commit, byte for byte (the CLI contract)', async () => {
    const repo = await archivedOnce()
    const archived = repo.read(at('20261130T080000Z'))
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await cli(['restore', ID, '--json'], {cwd: repo.dir, env: repo.env})
    expect([r.code, r.stderr]).toEqual([0, ''])
    const {data} = r.json()
    expect({...data, commit: null}).toEqual({
      ts: '20261130T080000Z',
      store: 'project',
      restored: [{id: ID, from: at('20261130T080000Z'), to: ACTIVE, renamed: false}],
      commit: null,
    })
    expect(data.commit).toBe(repo.git('rev-parse', 'HEAD').trim())
    expect(repo.read(ACTIVE)).toBe(archived)
    expect(fs.existsSync(path.join(repo.dir, '.cairn/archive'))).toBe(false)
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
    expect(repo.git('log', '-1', '--format=%B')).toBe(
      `cairn(restore): ${ID} from archive/20261130T080000Z\n\nCairn-Op: restore\nCairn-Card: ${ID}\nCairn-Actor: tester\nCairn-Format: 1\n\n`,
    )
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('takes the newest archive that holds the card and leaves the older copy archived', async () => {
    const repo = await archivedOnce()
    const older = repo.read(at('20261130T080000Z'))
    const newer = older.replace('title: deepMerge replaces arrays', 'title: deepMerge replaces arrays, the second time')
    // Same second, later archive: -2 sorts after the bare stamp; -10 after -9 (by number, not by text).
    archiveAgain(repo, '20261130T080000Z-10', newer)
    archiveAgain(repo, '20261130T080000Z-9', older)
    const r = await restoreTarget(repo.ctx(), {target: ID})
    expect(r.ts).toBe('20261130T080000Z-10')
    expect(repo.read(ACTIVE)).toBe(newer)
    expect(repo.read(at('20261130T080000Z'))).toBe(older)
    expect(repo.read(at('20261130T080000Z-9'))).toBe(older)
    expect(fs.existsSync(path.join(repo.dir, at('20261130T080000Z-10')))).toBe(false)
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('show of an archived card shows the newest copy, -10 after -9', async () => {
    const repo = await archivedOnce()
    const older = repo.read(at('20261130T080000Z'))
    archiveAgain(repo, '20261130T080000Z-9', older)
    archiveAgain(
      repo,
      '20261130T080000Z-10',
      older.replace('title: deepMerge replaces arrays', 'title: the newest copy'),
    )
    expect((await show(repo.ctx(), {id: ID})).card.title).toBe('the newest copy')
    expect((await list(repo.ctx(), {status: 'archived'})).cards.map(c => c.path)).toEqual([
      at('20261130T080000Z'),
      at('20261130T080000Z-9'),
      at('20261130T080000Z-10'),
    ])
  })

  it('the timestamp form still restores a whole archive', async () => {
    const repo = await archivedOnce()
    const r = await restoreTarget(repo.ctx(), {target: '20261130T080000Z'})
    expect(r.restored.map(x => [x.id, x.to])).toEqual([[ID, ACTIVE]])
  })

  it('refuses bad targets with the documented exit codes, suggestions, and nothing written', async () => {
    const repo = await archivedOnce()
    const before = snapshot(repo)
    const unknown = await refusal(() => restoreTarget(repo.ctx(), {target: 'deepmerge-array-replace-trp'}))
    expect([unknown.exitCode, unknown.message]).toEqual([
      4,
      'No archive in the project store holds a card "deepmerge-array-replace-trp". Did you mean "deepmerge-array-replace-trap"? Fix: pick one from "cairn restore --list", which shows the archives and their cards.',
    ])
    expect(unknown.data).toEqual({id: 'deepmerge-array-replace-trp', suggestions: [ID]})
    const neither = await refusal(() => restoreTarget(repo.ctx(), {target: 'Deepmerge_Array-Replace-Trap'}))
    expect([neither.exitCode, neither.message]).toEqual([
      6,
      '"Deepmerge_Array-Replace-Trap" is neither an archive timestamp, like 20261129T100000Z, nor a card id, a kebab-case slug. Did you mean "deepmerge-array-replace-trap"? Fix: give a card id or an archive timestamp as "cairn restore --list" shows them.',
    ])
    expect((await refusal(() => restoreTarget(repo.ctx(), {target: '../../etc'}))).exitCode).toBe(6)
    const stamp = await refusal(() => restoreTarget(repo.ctx(), {target: '20261130T0800Z'}))
    expect([stamp.exitCode, stamp.data]).toMatchObject([6, {suggestions: ['20261130T080000Z']}])
    const several = await refusal(() => restoreTarget(repo.ctx(), {target: ID, ids: ['stage-only-touched-paths']}))
    expect([several.exitCode, several.message]).toEqual([
      2,
      "Restore by card id takes one id, and got 2. Fix: restore them one by one, or give the archive's timestamp first: cairn restore <ts> <id>...",
    ])
    expect(snapshot(repo)).toEqual(before)
  })

  it('refuses a card that is already live (exit 5), saying where it is', async () => {
    const repo = await archivedOnce()
    const other = 'stage-only-touched-paths'
    const live = `.cairn/cards/pitfall/${other}.md`
    archiveAgain(repo, '20261130T090000Z', repo.read(live), other)
    await propose(repo.ctx({stdin: JSON.stringify(card({slug: 'browser-validation-user-path'}))}), {file: '-'})
    const before = snapshot(repo)
    const e = await refusal(() => restoreTarget(repo.ctx(), {target: other}))
    expect([e.exitCode, e.code, e.message]).toEqual([
      5,
      'invalid_transition',
      `Card "${other}" is already live at ${live}, active, so there is nothing to restore; nothing was written. ` +
        `Fix: to bring the archived copy back beside it as restored-${other}, run "cairn restore 20261130T090000Z ${other}".`,
    ])
    expect(e.data).toEqual({id: other, path: live})
    // Live and never archived: refused the same way, without the fix that needs an archive.
    const pending = await refusal(() => restoreTarget(repo.ctx(), {target: 'browser-validation-user-path'}))
    expect([pending.exitCode, pending.message]).toEqual([
      5,
      'Card "browser-validation-user-path" is already live at .cairn/pending/pitfall/browser-validation-user-path.md, waiting for review, so there is nothing to restore; nothing was written. Fix: nothing; "cairn show" prints the card.',
    ])
    expect(snapshot(repo)).toEqual(before)
  })

  it('two restores of the same id at once: one wins, the other is refused clearly, nothing is corrupt', async () => {
    const repo = await archivedOnce()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const runs = await Promise.all([0, 1].map(() => cli(['restore', ID, '--json'], {cwd: repo.dir, env: repo.env})))
    const codes = runs.map(r => r.code).sort()
    expect(codes).toEqual([0, 5])
    const loser = runs.find(r => r.code === 5)!
    expect(loser.json().error).toMatchObject({
      code: 'invalid_transition',
      message: expect.stringContaining(`Card "${ID}" is already live at ${ACTIVE}, active`),
    })
    expect(repo.git('log', '--format=%s', `${head}..HEAD`).trim()).toBe(
      `cairn(restore): ${ID} from archive/20261130T080000Z`,
    )
    expect(repo.git('status', '--porcelain')).toBe('')
    expect((await lint(repo.ctx())).errors).toBe(0)
  })
})

describe('compareStamps', () => {
  it('orders archives by time, then by their -N as a number', () => {
    const stamps = [
      '20261130T080000Z-10',
      '20261201T000000Z',
      '20261130T080000Z-2',
      '20261130T080000Z',
      '20261130T080000Z-9',
    ]
    expect(stamps.sort(compareStamps)).toEqual([
      '20261130T080000Z',
      '20261130T080000Z-2',
      '20261130T080000Z-9',
      '20261130T080000Z-10',
      '20261201T000000Z',
    ])
  })
})

describe('a restored card is fresh (issue 34)', () => {
  it('restore stamps updated with now, by id or by timestamp, so maintain does not plan its archive again', async () => {
    const repo = tempRepo()
    await init(repo.ctx())
    // Not updated for a year: maintain's stale_days (180) plans it for archive.
    plant(repo, 'stale-rule-brought-back', {updated: '2025-11-01T00:00:00Z', created: '2025-10-01T00:00:00Z'})
    plant(repo, 'other-stale-rule-back', {updated: '2025-11-01T00:00:00Z', created: '2025-10-01T00:00:00Z'})
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'old cards')
    const stale = async () =>
      (await maintain(repo.ctx(), {dryRun: true})).actions
        .filter(a => a.action === 'archive' && a.reasons.includes('stale'))
        .map(a => a.id)
    expect(await stale()).toEqual(['other-stale-rule-back', 'stale-rule-brought-back'])
    const archived = await archive(repo.ctx(), {ids: ['stale-rule-brought-back', 'other-stale-rule-back']})
    await restoreTarget(repo.ctx(), {target: 'stale-rule-brought-back'})
    await restoreTarget(repo.ctx(), {target: archived.ts!, ids: ['other-stale-rule-back']})
    for (const id of ['stale-rule-brought-back', 'other-stale-rule-back'])
      expect(repo.read(`.cairn/cards/guideline/${id}.md`)).toContain(`\nupdated: ${FIXED_NOW}\n`)
    expect(await stale()).toEqual([])
  })
})
