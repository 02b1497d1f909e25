import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {type Browser, chromium} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {boardState} from '../../src/app/board/read.js'
import {findChromium} from '../../src/store/browser.js'
import {cli, refusal, type Repo, snapshot, tempDir} from '../helpers.js'
import {annotate, commit, T, us03Repo} from './helpers.js'

/** Seed 003, "操作契约的确定性检查", rows 11-12: the optional visual overview, with real Chromium. */

const RESHAPE = {batch_id: 'reshape', declarations: [
  {op: 'supersedes', id: 'trip', kind: 'topic', weight: 4, budget: 50},
  {op: 'supersedes', id: 'visa', kind: 'request', weight: 5, share: 35, reason: 'The statement decides whether the trip happens.'},
  {op: 'merges', from: ['pr-a', 'pr-b'], id: 'prs', kind: 'result', weight: 2, summary: 'Both PRs merged.'},
  {op: 'withdraw', id: 'reading'},
]}

async function planted(): Promise<Repo> {
  const repo = await us03Repo()
  await annotate(repo, 'visa', 'Statement on Friday.', 'note-1', T(9, 8))
  await commit(repo, RESHAPE, T(12))
  return repo
}

const pngSize = (file: string): [number, number] => {
  const b = fs.readFileSync(file)
  expect(b.subarray(1, 4).toString()).toBe('PNG')
  return [b.readUInt32BE(16), b.readUInt32BE(20)]
}

let browser: Browser
beforeAll(async () => {
  const executablePath = findChromium(process.env)
  if (!executablePath) throw new Error('these tests need Chromium (/usr/bin/chromium); .ci/run installs it')
  browser = await chromium.launch({executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']})
})
afterAll(async () => browser?.close())

interface Box {x: number; y: number; width: number; height: number}
async function geometry(htmlFile: string) {
  const page = await browser.newPage()
  await page.goto(pathToFileURL(htmlFile).href)
  const panels = await page.$$eval('section.panel', sections => sections.map(s => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect()
      return {x: r.x, y: r.y, width: r.width, height: r.height}
    }
    const budget = s.querySelector('.budget')!
    return {
      panel: s.getAttribute('data-panel')!, budget: Number(budget.getAttribute('data-budget')), used: Number(budget.getAttribute('data-used')), rect: box(budget),
      tiles: [...s.querySelectorAll('[data-tile]')].map(t => ({kind: t.getAttribute('data-tile')!, item: t.getAttribute('data-item'), items: t.getAttribute('data-items'), share: Number(t.getAttribute('data-share')), text: (t as HTMLElement).innerText, box: box(t)})),
      outside: [...s.querySelectorAll('[data-outside]')].map(t => ({status: t.getAttribute('data-outside')!, item: t.getAttribute('data-item')!, share: Number(t.getAttribute('data-share')), box: box(t)})),
    }
  }))
  await page.close()
  return panels
}

const area = (b: Box): number => b.width * b.height
const overlap = (a: Box, b: Box): number => Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y))

describe('board overview (rows 11-12)', () => {
  it('row 11: JSON, notes and images come from one capture; the diff matches its ends; omissions are listed; reading changes nothing', async () => {
    const repo = await planted()
    const dir = tempDir('cairn-overview-')
    const view = repo.write('../view.json', JSON.stringify({items: ['trip', 'prs'], depth: 1, fields: ['summary', 'due_at']}))
    const before = snapshot(repo)
    const r = await cli(['board', 'state', '--now', T(18), '--overview', dir, '--view', view, '--diff-from', '1', '--json'], {cwd: repo.dir, env: repo.env})
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(snapshot(repo)).toEqual(before)
    const {overview, ...stdoutState} = r.json().data
    const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))
    expect(read('state.json')).toEqual(stdoutState)
    expect(read('overview.json')).toEqual(overview)
    expect(overview.capture).toEqual({store: 'project', event_seq: 3, revision: 2, now: T(18)})
    expect(stdoutState).toMatchObject({event_seq: 3, revision: 2, last_seen_at: null, since_seen: null})
    expect(overview.scope).toEqual({view: {items: ['trip', 'prs'], depth: 1, fields: ['id', 'summary', 'due_at'], changes_only: false}, diff_from: '1', layers: [null, 'trip'], items: ['trip', 'prs', 'visa', 'flight']})
    expect(overview.omissions).toEqual([
      {reason: 'filtered', layer: null, items: ['weekly-report'], share: 20},
      {reason: 'fields', fields: ['kind', 'weight', 'share', 'stale_at', 'updated_at', 'reason', 'sources']},
      {reason: 'inactive', count: 3},
    ])
    expect(overview.images.map((i: any) => [i.file, i.layer, i.end, i.event_seq, i.budget, i.used])).toEqual([
      ['now-root.png', null, 'current', 3, 100, 46], ['from-root.png', null, 'from', 1, 100, 76],
      ['now-under-trip.png', 'trip', 'current', 3, 50, 47], ['from-under-trip.png', 'trip', 'from', 1, 100, 32],
    ])
    for (const img of overview.images) expect(pngSize(path.join(dir, img.file))).toEqual([img.width, img.height])
    expect(overview.rendered).toBe(true)
    const diff = read('diff.json')
    expect(diff).toMatchObject({from: {event_seq: 1, revision: 1}, to: {event_seq: 3, revision: 2}, now: T(18), added: ['prs'], moved: [],
      removed: [{id: 'pr-a', status: 'merged', merged_into: 'prs', parent: null}, {id: 'pr-b', status: 'merged', merged_into: 'prs', parent: null}, {id: 'reading', status: 'withdrawn', merged_into: null, parent: null}],
      annotations: {added: ['a-00000002'], acknowledged: []}})
    expect(diff.changed.map((c: any) => [c.id, c.fields])).toEqual([
      ['trip', {budget: {from: null, to: 50}}],
      ['visa', {weight: {from: 4, to: 5}, share: {from: null, to: 35}, reason: {from: null, to: 'The statement decides whether the trip happens.'}}],
    ])
    expect(diff.changed[1].projections).toEqual({from: {age: 122400, since_update: 122400, until_due: 194400, until_stale: null}, to: {age: 122400, since_update: 21600, until_due: 194400, until_stale: null}})
    // The omission is visible in the picture too, as a neutral area with its items and share.
    const root = (await geometry(path.join(dir, 'overview.html')))[0]
    expect(root.tiles.find(t => t.kind === 'not_shown')).toMatchObject({items: 'weekly-report', share: 20, text: 'not shown: 1 item, share 20'})
    expect(root.tiles.find(t => t.item === 'prs')!.text).toContain('added')

    // Without a browser the PNG step fails clearly; the JSON files are still written.
    const bare = tempDir('cairn-overview-')
    const nb = await refusal(() => boardState(repo.ctx({env: {...repo.env, CAIRN_CHROMIUM: '/nonexistent/chromium'}}), {now: T(18), overview: {dir: bare, diffFrom: '1'}}))
    expect(nb.exitCode).toBe(4)
    expect(nb.message).toBe('cannot render the overview PNGs: no Chromium found ($CAIRN_CHROMIUM (/nonexistent/chromium) does not exist). Install it ("apt-get install chromium") or set CAIRN_CHROMIUM; the JSON files and overview.html were written')
    expect(fs.readdirSync(bare).sort()).toEqual(['diff.json', 'overview.html', 'overview.json', 'state.json'])
    expect(JSON.parse(fs.readFileSync(path.join(bare, 'overview.json'), 'utf8'))).toMatchObject({rendered: false, render_error: expect.stringContaining('no Chromium found')})
    expect(snapshot(repo)).toEqual(before)
  })

  it('row 12: area / layer area = share / budget within 1%; not shown and free areas apart; old items outside; both diff ends on one scale', async () => {
    const repo = await planted()
    const dir = tempDir('cairn-overview-')
    const view = repo.write('../view.json', JSON.stringify({items: ['trip', 'prs'], depth: 1}))
    await boardState(repo.ctx(), {now: T(18), overview: {dir, view, diffFrom: '1'}})
    const panels = await geometry(path.join(dir, 'overview.html'))
    const expected: Record<string, [string, string | null, number][]> = {
      'now-root': [['item', 'trip', 20], ['item', 'prs', 6], ['not_shown', null, 20], ['blank', null, 54]],
      'from-root': [['item', 'trip', 20], ['item', 'pr-a', 12], ['item', 'pr-b', 12], ['item', 'reading', 12], ['not_shown', null, 20], ['blank', null, 24]],
      'now-under-trip': [['item', 'visa', 35], ['item', 'flight', 12], ['blank', null, 3]],
      'from-under-trip': [['item', 'visa', 20], ['item', 'flight', 12], ['blank', null, 68]],
    }
    expect(panels.map(p => p.panel)).toEqual(Object.keys(expected))
    const scale: Record<string, number> = {}
    for (const p of panels) {
      expect(p.tiles.map(t => [t.kind, t.item, t.share]).sort()).toEqual([...expected[p.panel]].sort())
      for (const t of p.tiles) {
        expect(Math.abs(area(t.box) / area(p.rect) - t.share / p.budget), `${p.panel} ${t.item ?? t.kind}`).toBeLessThan(0.01 * (t.share / p.budget))
        expect(overlap(t.box, p.rect)).toBeCloseTo(area(t.box), 0)
      }
      expect(Math.abs(p.tiles.reduce((n, t) => n + area(t.box), 0) / area(p.rect) - 1)).toBeLessThan(0.001)
      scale[p.panel] = area(p.rect) / p.budget
      for (const o of p.outside) {
        expect(overlap(o.box, p.rect)).toBe(0)
        expect(Math.abs(area(o.box) / scale[p.panel] - o.share)).toBeLessThan(0.01 * o.share)
      }
    }
    expect(panels[0].outside.map(o => [o.item, o.status, o.share])).toEqual([['pr-a', 'merged', 12], ['pr-b', 'merged', 12], ['reading', 'withdrawn', 12]])
    // One scale per layer across the two ends; the trip layer's budget went from 100 to 50, so its rectangle halved.
    expect(Math.abs(scale['from-root'] / scale['now-root'] - 1)).toBeLessThan(0.01)
    expect(Math.abs(scale['from-under-trip'] / scale['now-under-trip'] - 1)).toBeLessThan(0.01)
    expect(area(panels[3].rect) / area(panels[2].rect)).toBeCloseTo(2, 2)
  })
})
