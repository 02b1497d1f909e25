import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {boardState} from '../../src/app/board/read.js'
import {cli, snapshot, tempDir} from '../helpers.js'
import {commit, T, us03Repo} from './helpers.js'
import {planted} from './overview-fixtures.js'
import {labelsFit, measuredBoxes, rects, texts} from './svg-geometry.js'

/** Seed 003, "操作契约的确定性检查", rows 11-12: the optional visual overview, rendered without a browser. */

const pngSize = (file: string): [number, number] => {
  const b = fs.readFileSync(file)
  expect(b.subarray(1, 4).toString()).toBe('PNG')
  return [b.readUInt32BE(16), b.readUInt32BE(20)]
}
const svgOf = (dir: string, name: string): string => fs.readFileSync(path.join(dir, `${name}.svg`), 'utf8')
const marks = (svg: string, end: string): Record<string, string> =>
  Object.fromEntries(
    rects(svg)
      .filter(r => r.attrs['data-end'] === end && r.attrs['data-marks'])
      .map(r => [r.attrs['data-item'], r.attrs['data-marks']]),
  )
const frameArea = (svg: string, end: string): number => {
  const f = rects(svg).find(r => r.attrs['data-frame'] !== undefined && r.attrs['data-end'] === end)!
  return f.w * f.h
}

describe('board overview (rows 11-12)', () => {
  it('row 11: JSON, SVGs and PNGs come from one capture, with no browser on PATH; the diff matches its ends; omissions are listed; reading changes nothing', async () => {
    const repo = await planted()
    const dir = tempDir('cairn-overview-')
    const view = repo.write(
      '../view.json',
      JSON.stringify({items: ['trip', 'prs'], depth: 1, fields: ['summary', 'due_at']}),
    )
    // PATH holds git and nothing else: no browser can be found or started.
    const bin = tempDir('cairn-bin-')
    fs.symlinkSync(execPath('git'), path.join(bin, 'git'))
    const before = snapshot(repo)
    const r = await cli(
      ['board', 'state', '--now', T(18), '--overview', dir, '--view', view, '--diff-from', '1', '--json'],
      {cwd: repo.dir, env: {...repo.env, PATH: bin, CAIRN_CHROMIUM: '/nonexistent/chromium'}},
    )
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(snapshot(repo)).toEqual(before)
    const {overview, ...stdoutState} = r.json().data
    const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))
    expect(read('state.json')).toEqual(stdoutState)
    expect(read('overview.json')).toEqual(overview)
    expect(overview.capture).toEqual({store: 'project', event_seq: 3, revision: 2, now: T(18)})
    expect(stdoutState).toMatchObject({event_seq: 3, revision: 2, last_seen_at: null, since_seen: null})
    expect(overview.scope).toEqual({
      view: {items: ['trip', 'prs'], depth: 1, fields: ['id', 'summary', 'due_at'], changes_only: false},
      diff_from: '1',
      layers: [null, 'trip'],
      items: ['trip', 'prs', 'visa', 'flight'],
    })
    expect(overview.omissions).toEqual([
      {reason: 'filtered', layer: null, items: ['weekly-report'], share: 20},
      {reason: 'fields', fields: ['kind', 'weight', 'share', 'stale_at', 'updated_at', 'reason', 'sources']},
      {reason: 'inactive', count: 3},
    ])
    // One image per layer, then and now side by side.
    expect(
      overview.images.map((i: any) => [
        i.file,
        i.svg,
        i.layer,
        i.ends.map((e: any) => [e.end, e.event_seq, e.budget, e.used, e.over_budget]),
      ]),
    ).toEqual([
      [
        'diff-root.png',
        'diff-root.svg',
        null,
        [
          ['then', 1, 100, 76, false],
          ['now', 3, 100, 46, false],
        ],
      ],
      [
        'diff-under-trip.png',
        'diff-under-trip.svg',
        'trip',
        [
          ['then', 1, 100, 32, false],
          ['now', 3, 50, 47, false],
        ],
      ],
    ])
    // The PNG is the size the model gave its SVG (not just what overview.json read back from the same PNG).
    for (const img of overview.images) {
      const svgSize = /<svg[^>]* width="([\d.]+)" height="([\d.]+)"/
        .exec(fs.readFileSync(path.join(dir, img.svg), 'utf8'))!
        .slice(1)
        .map(Number)
      expect(pngSize(path.join(dir, img.file))).toEqual(svgSize.map(Math.ceil))
      expect([img.width, img.height]).toEqual(svgSize.map(Math.ceil))
    }
    expect(overview.files).toEqual({state: 'state.json', diff: 'diff.json', html: null})
    expect(fs.readdirSync(dir).sort()).toEqual([
      'diff-root.png',
      'diff-root.svg',
      'diff-under-trip.png',
      'diff-under-trip.svg',
      'diff.json',
      'overview.json',
      'state.json',
    ])
    const diff = read('diff.json')
    expect(diff).toMatchObject({
      from: {event_seq: 1, revision: 1},
      to: {event_seq: 3, revision: 2},
      now: T(18),
      added: ['prs'],
      moved: [],
      removed: [
        {id: 'pr-a', status: 'merged', merged_into: 'prs', parent: null},
        {id: 'pr-b', status: 'merged', merged_into: 'prs', parent: null},
        {id: 'reading', status: 'withdrawn', merged_into: null, parent: null},
      ],
      annotations: {added: ['a-00000002'], acknowledged: []},
    })
    expect(diff.changed.map((c: any) => [c.id, c.fields])).toEqual([
      ['trip', {budget: {from: null, to: 50}}],
      [
        'visa',
        {
          weight: {from: 4, to: 5},
          share: {from: null, to: 35},
          reason: {from: null, to: 'The statement decides whether the trip happens.'},
        },
      ],
    ])
    // The same marks in both halves: what changed, what came, what left (and how).
    const root = svgOf(dir, 'diff-root')
    expect(marks(root, 'then')).toEqual({
      trip: 'changed',
      visa: 'changed',
      'pr-a': 'merged',
      'pr-b': 'merged',
      reading: 'withdrawn',
    })
    expect(marks(root, 'now')).toEqual({trip: 'changed', visa: 'changed', prs: 'added'})
    expect(
      rects(root)
        .filter(b => b.attrs['data-box'] === 'not_shown')
        .map(b => [b.attrs['data-end'], b.attrs['data-items'], b.attrs['data-share']]),
    ).toEqual([
      ['then', 'weekly-report', '20'],
      ['now', 'weekly-report', '20'],
    ])
    expect(texts(root).map(t => t.text)).toEqual(
      expect.arrayContaining([
        'not shown',
        '1 item · share 20',
        'free budget 54',
        'free 68',
        'prs',
        'added',
        'changed',
        'withdrawn / merged',
      ]),
    )

    // A rerun without --diff-from replaces the pictures: no diff image passes for this capture.
    await boardState(repo.ctx(), {now: T(18), overview: {dir}})
    expect(fs.readdirSync(dir).sort()).toEqual([
      'diff.json',
      'now-root.png',
      'now-root.svg',
      'now-under-trip.png',
      'now-under-trip.svg',
      'overview.json',
      'state.json',
    ])
  })

  it('row 12: every box measures share / budget of its layer within 1%, nested children inside their parent; both diff halves on one scale', async () => {
    const repo = await planted()
    const dir = tempDir('cairn-overview-')
    const view = repo.write('../view.json', JSON.stringify({items: ['trip', 'prs'], depth: 1}))
    const {overview} = await boardState(repo.ctx(), {now: T(18), overview: {dir, view, diffFrom: '1'}})
    const root = svgOf(dir, 'diff-root')
    expect(measuredBoxes(root)).toEqual([
      ['then', '', 'item', 'trip', 20],
      ['then', 'trip', 'item', 'visa', 20],
      ['then', 'trip', 'item', 'flight', 12],
      ['then', 'trip', 'free', null, 68],
      ['then', '', 'item', 'pr-a', 12],
      ['then', '', 'item', 'pr-b', 12],
      ['then', '', 'item', 'reading', 12],
      ['then', '', 'not_shown', null, 20],
      ['then', '', 'free', null, 24],
      ['now', '', 'item', 'trip', 20],
      ['now', 'trip', 'item', 'visa', 35],
      ['now', 'trip', 'item', 'flight', 12],
      ['now', 'trip', 'free', null, 3],
      ['now', '', 'item', 'prs', 6],
      ['now', '', 'not_shown', null, 20],
      ['now', '', 'free', null, 54],
    ])
    const trip = svgOf(dir, 'diff-under-trip')
    expect(measuredBoxes(trip)).toEqual([
      ['then', 'trip', 'item', 'visa', 20],
      ['then', 'trip', 'item', 'flight', 12],
      ['then', 'trip', 'free', null, 68],
      ['now', 'trip', 'item', 'visa', 35],
      ['now', 'trip', 'item', 'flight', 12],
      ['now', 'trip', 'free', null, 3],
    ])
    // One scale per layer across the two halves: the trip layer's budget went from 100 to 50, so its rectangle halved.
    expect(frameArea(root, 'then') / frameArea(root, 'now')).toBeCloseTo(1, 3)
    expect(frameArea(trip, 'then') / frameArea(trip, 'now')).toBeCloseTo(2, 3)
    expect(frameArea(trip, 'now') / 50 / overview!.images[1].px_per_share).toBeCloseTo(1, 3)
    expect(labelsFit(root)).toBeGreaterThan(10)
    expect(labelsFit(trip)).toBeGreaterThan(5)
  })

  it('the default view draws every layer, each child layer inside its parent too; an over-budget layer says so and is drawn to its used total', async () => {
    const repo = await planted()
    const dir = tempDir('cairn-overview-')
    await boardState(repo.ctx(), {now: T(18), overview: {dir}})
    const root = svgOf(dir, 'now-root')
    expect(measuredBoxes(root)).toEqual([
      ['now', '', 'item', 'trip', 20],
      ['now', 'trip', 'item', 'visa', 35],
      ['now', 'trip', 'item', 'flight', 12],
      ['now', 'trip', 'free', null, 3],
      ['now', '', 'item', 'weekly-report', 20],
      ['now', '', 'item', 'prs', 6],
      ['now', '', 'free', null, 54],
    ])
    // The weight-5 child is drawn and named inside its parent, with its saved annotation badged.
    const shown = texts(root).map(t => t.text)
    expect(shown).toEqual(
      expect.arrayContaining(['visa', 'trip · Business trip to Berlin on 2026-10-20.', 'saved annotation']),
    )
    expect(
      shown.filter(t => t.startsWith('Visa agent needs the bank') || t.startsWith('due in 2d 6h · weight 5')),
    ).toHaveLength(2)
    expect(measuredBoxes(svgOf(dir, 'now-under-trip'))).toEqual([
      ['now', 'trip', 'item', 'visa', 35],
      ['now', 'trip', 'item', 'flight', 12],
      ['now', 'trip', 'free', null, 3],
    ])
    expect(labelsFit(root)).toBeGreaterThan(8)

    // A smaller root budget in the config puts the root layer over budget (as a merge of two branches can).
    repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace(/^  budget: 100$/m, '  budget: 40'))
    const over = tempDir('cairn-overview-')
    const {overview} = await boardState(repo.ctx(), {now: T(18), overview: {dir: over}})
    expect(overview!.images[0].ends).toEqual([{end: 'now', event_seq: 3, budget: 40, used: 46, over_budget: true}])
    const svg = svgOf(over, 'now-root')
    expect(measuredBoxes(svg).filter(b => b[1] === '')).toEqual([
      ['now', '', 'item', 'trip', 20],
      ['now', '', 'item', 'weekly-report', 20],
      ['now', '', 'item', 'prs', 6],
    ])
    expect(texts(svg).map(t => t.text)).toEqual(
      expect.arrayContaining(['over budget: used 46 of 40; boxes are drawn to the used total', 'over budget']),
    )
  })
})

describe('board overview after a merge', () => {
  it('an item both branches changed is flagged "conflict" in the picture, with the legend saying what that is', async () => {
    const repo = await us03Repo()
    repo.git('checkout', '-q', '-b', 'a')
    await commit(
      repo,
      {
        batch_id: 'a-visa',
        declarations: [{op: 'supersedes', id: 'visa', kind: 'request', weight: 5, summary: 'The statement arrived.'}],
      },
      T(10),
    )
    repo.git('checkout', '-q', 'main')
    repo.git('checkout', '-q', '-b', 'b')
    await commit(
      repo,
      {
        batch_id: 'b-visa',
        declarations: [
          {op: 'supersedes', id: 'visa', kind: 'request', weight: 2, summary: 'The trip may move online.'},
        ],
      },
      T(11),
    )
    repo.git('merge', '--no-edit', '-q', 'a')
    const dir = tempDir('cairn-overview-')
    const {overview, conflicts} = await boardState(repo.ctx(), {now: T(18), overview: {dir}})
    expect(conflicts.map(c => c.item)).toEqual(['visa'])
    expect(overview!.images.map(i => i.file)).toEqual(['now-root.png', 'now-under-trip.png'])
    for (const name of ['now-root', 'now-under-trip']) {
      const svg = svgOf(dir, name)
      expect(
        rects(svg)
          .filter(r => r.attrs['data-marks'])
          .map(r => [r.attrs['data-item'], r.attrs['data-marks']]),
      ).toEqual([['visa', 'conflict']])
      expect(texts(svg).map(t => t.text)).toContain('conflict (changed on two branches)')
      measuredBoxes(svg)
    }
  })
})

function execPath(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter))
    if (fs.existsSync(path.join(dir, name))) return path.join(dir, name)
  throw new Error(`${name} is not on PATH`)
}
