import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {list} from '../src/app/list.js'
import {propose} from '../src/app/propose.js'
import {approve, defer} from '../src/app/review.js'
import {cliInProcess} from './cli-in-process.js'
import {card, templateRepo} from './helpers.js'

const ID = 'deepmerge-array-replace-trap'
const PENDING = `.cairn/pending/pitfall/${ID}.md`
const LEGACY_ID = 'legacy-draft-card-kept'
const LEGACY = `.cairn/pending/guideline/${LEGACY_ID}.md`
const HEAD = 'ID                            TYPE     STATUS   LOAD    STORE    TITLE'
const ROW = `${ID}  pitfall  pending  recall  project  deepMerge replaces arrays`

/** One pending card and one active one. */
const seeded = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx(), {fields: card()})
  await propose(repo.ctx(), {
    fields: card({slug: 'stage-only-touched-paths', type: 'guideline', title: 'Commit only touched paths'}),
  })
  await approve(repo.ctx(), {ids: ['stage-only-touched-paths']})
})

/** A pending card as cairn wrote it before status pending: `status: draft`, in the oldest format. */
const legacyCard = `---
schema: cairn/card@1
id: ${LEGACY_ID}
type: guideline
status: draft
title: A card an older cairn proposed
summary: Written before pending had its name.
created: 2026-11-01T10:00:00Z
updated: 2026-11-01T10:00:00Z
---
body
`

describe('cairn list --status pending', () => {
  it('lists the cards waiting for review, and says pending for them in text and JSON', async () => {
    const repo = await seeded()
    const r = await cliInProcess(['list', '--status', 'pending'], {cwd: repo.dir, env: repo.env})
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `${HEAD}\n${ROW}\n`, ''])
    const json = await cliInProcess(['list', '--status', 'pending', '--json'], {cwd: repo.dir, env: repo.env})
    expect(json.json().data.cards).toEqual([
      {
        id: ID,
        type: 'pitfall',
        status: 'pending',
        load: 'recall',
        store: 'project',
        title: 'deepMerge replaces arrays',
        path: PENDING,
        deferred_until: null,
      },
    ])
    const all = await cliInProcess(['list'], {cwd: repo.dir, env: repo.env})
    expect(all.stdout).toBe(
      [
        'ID                            TYPE       STATUS   LOAD    STORE    TITLE',
        `${ID}  pitfall    pending  recall  project  deepMerge replaces arrays`,
        'stage-only-touched-paths      guideline  active   recall  project  Commit only touched paths',
        '',
      ].join('\n'),
    )
  })

  it('takes --status draft, the older name, for the same cards and the same output', async () => {
    const repo = await seeded()
    for (const json of [[], ['--json']]) {
      const pending = await cliInProcess(['list', '--status', 'pending', ...json], {cwd: repo.dir, env: repo.env})
      const draft = await cliInProcess(['list', '--status', 'draft', ...json], {cwd: repo.dir, env: repo.env})
      expect(draft).toMatchObject({code: 0, stdout: pending.stdout, stderr: ''})
    }
    expect(await list(repo.ctx(), {status: 'draft'})).toEqual(await list(repo.ctx(), {status: 'pending'}))
  })

  it('shows a deferred card as pending with its date, and gives deferred_until in JSON until the date comes', async () => {
    const repo = await seeded()
    await defer(repo.ctx(), {id: ID, until: '2026-12-20'})
    const r = await cliInProcess(['list', '--status', 'pending'], {cwd: repo.dir, env: repo.env})
    expect(r.stdout).toBe(
      'ID                            TYPE     STATUS                               LOAD    STORE    TITLE\n' +
        `${ID}  pitfall  pending (deferred until 2026-12-20)  recall  project  deepMerge replaces arrays\n`,
    )
    const json = await cliInProcess(['list', '--json'], {cwd: repo.dir, env: repo.env})
    expect(json.json().data.cards).toMatchObject([
      {id: ID, status: 'pending', deferred_until: '2026-12-20T00:00:00Z'},
      {id: 'stage-only-touched-paths', status: 'active', deferred_until: null},
    ])
    // Once the date has come, review shows the card again, and the list says plain pending.
    const later = await list(repo.ctx({now: '2026-12-20T00:00:00Z'}), {status: 'pending'})
    expect(later.cards.map(c => [c.id, c.status, c.deferred_until])).toEqual([[ID, 'pending', null]])
  })

  it('shows a deferral to a time of day whole', async () => {
    const repo = await seeded()
    await defer(repo.ctx(), {id: ID, until: '2026-12-20T09:30:00Z'})
    const r = await cliInProcess(['list', '--status', 'draft'], {cwd: repo.dir, env: repo.env})
    expect(r.stdout).toContain(`${ID}  pitfall  pending (deferred until 2026-12-20T09:30:00Z)  recall`)
  })
})

describe('a legacy status: draft card', () => {
  const withLegacy = async () => {
    const repo = await seeded()
    repo.write(LEGACY, legacyCard)
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'a card an older cairn proposed')
    return repo
  }

  it('is listed as pending under --status pending and --status draft', async () => {
    const repo = await withLegacy()
    for (const status of ['pending', 'draft'] as const) {
      const r = await list(repo.ctx(), {status})
      expect(r.cards.map(c => [c.id, c.status])).toEqual([
        [LEGACY_ID, 'pending'],
        [ID, 'pending'],
      ])
      expect(r.unreadable).toEqual([])
    }
  })

  it('is written with status: pending by the next change to it, and approved as any pending card', async () => {
    const repo = await withLegacy()
    await defer(repo.ctx(), {id: LEGACY_ID, until: '2026-12-20'})
    expect(repo.read(LEGACY)).toBe(
      legacyCard
        .replace('schema: cairn/card@1', 'schema: cairn/card@5')
        .replace('status: draft', 'status: pending')
        .replace('---\nbody', 'deferred_until: 2026-12-20T00:00:00Z\n---\nbody'),
    )
    const repo2 = await withLegacy()
    const r = await approve(repo2.ctx(), {ids: [LEGACY_ID]})
    expect(r.cards.map(c => c.to)).toEqual([`.cairn/cards/guideline/${LEGACY_ID}.md`])
    expect(repo2.read(`.cairn/cards/guideline/${LEGACY_ID}.md`)).toMatch(
      /^---\nschema: cairn\/card@1\n.*\n.*\nstatus: active\n/,
    )
  })
})
