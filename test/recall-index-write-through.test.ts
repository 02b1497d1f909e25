import fs from 'node:fs'
import {describe, expect, it} from 'vitest'
import {archive} from '../src/app/archive.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {rebuildState} from '../src/recall/background.js'
import {card, cli, initRepo, type Repo} from './helpers.js'
import {RACY_MS} from '../src/recall/format.js'
import {INLINE_WORK, openIndex, waitForIndexRebuild} from '../src/recall/open.js'
import {cardsDir, hookView, indexFileOf, libraryRepo, plantCard, provenNow, storesOf} from './recall-index-helpers.js'

/**
 * cairn's own transactions update the recall index as they finish (write-through), so the next hook
 * call finds it fresh: no rebuild in that call, and no background rebuild started. The crash tests
 * spawn the CLI: run `npm run build` first.
 */
const ALPHA = 'alpha-card: Alpha title one'
const BETA = 'beta-card: Beta title one'

async function proposed(repo: Repo, title: string): Promise<string> {
  const r = await propose(repo.ctx(), {fields: card({slug: 'theta-card-through-cairn', type: 'guideline', title})})
  return r.cards[0].id
}

describe('recall index write-through', () => {
  it('after approve and archive the next hook call finds the index fresh, with the change in it', async () => {
    const repo = await libraryRepo()
    const id = await proposed(repo, 'Theta through cairn')
    // A pending card is not indexed: propose leaves the index as it was, and fresh.
    expect(await hookView(repo)).toEqual({rebuilt: false, stale: false, catalog: [ALPHA, BETA]})
    await approve(repo.ctx(), {ids: [id]})
    expect(await hookView(repo)).toEqual({
      rebuilt: false,
      stale: false,
      catalog: [ALPHA, BETA, `${id}: Theta through cairn`],
    })
    await archive(repo.ctx(), {ids: ['alpha-card']})
    expect(await hookView(repo)).toEqual({rebuilt: false, stale: false, catalog: [BETA, `${id}: Theta through cairn`]})
    expect(rebuildState(storesOf(repo.ctx())[0])).toEqual({spawned: 0})
  })

  it('builds no index where none exists: the first hook call does', async () => {
    const repo = await initRepo()
    const id = await proposed(repo, 'Theta through cairn')
    await approve(repo.ctx(), {ids: [id]})
    expect(fs.existsSync(indexFileOf(repo))).toBe(false)
    expect(await hookView(repo)).toEqual({rebuilt: true, stale: false, catalog: [`${id}: Theta through cairn`]})
  })

  it.each(['before-index', 'index-write'])(
    'a kill -9 at %s leaves the old index, which the next hook call finds stale and updates',
    async point => {
      const repo = await libraryRepo()
      const id = await proposed(repo, 'Theta through cairn')
      const before = fs.readFileSync(indexFileOf(repo))
      const killed = await cli(['review', 'approve', id], {cwd: repo.dir, env: {...repo.env, CAIRN_TEST_CRASH: point}})
      expect(killed.code).toBe(-1)
      // The approval is committed; the index is the one from before it.
      expect(repo.git('log', '-1', '--format=%s').trim()).toMatch(/^cairn\(approve\)/)
      expect(repo.git('status', '--porcelain')).toBe('')
      expect(fs.readFileSync(indexFileOf(repo)).equals(before)).toBe(true)
      expect(await hookView(repo)).toEqual({
        rebuilt: true,
        stale: false,
        catalog: [ALPHA, BETA, `${id}: Theta through cairn`],
      })
      expect(await hookView(repo)).toEqual({
        rebuilt: false,
        stale: false,
        catalog: [ALPHA, BETA, `${id}: Theta through cairn`],
      })
    },
  )

  it('a kill -9 at proof-write leaves the new index unproven: the next call scans, and proves it', async () => {
    const repo = await libraryRepo()
    await new Promise(resolve => setTimeout(resolve, RACY_MS.fine + 50))
    expect(await hookView(repo)).toEqual({rebuilt: false, stale: false, catalog: [ALPHA, BETA]})
    expect(provenNow(repo)).toBe(true)
    const id = await proposed(repo, 'Theta through cairn')
    const before = fs.readFileSync(indexFileOf(repo))
    const killed = await cli(['review', 'approve', id], {
      cwd: repo.dir,
      env: {...repo.env, CAIRN_TEST_CRASH: 'proof-write'},
    })
    expect(killed.code).toBe(-1)
    // The index was written; the old proof failed on the way (a new card) and was removed, and no new one was written.
    expect(fs.readFileSync(indexFileOf(repo)).equals(before)).toBe(false)
    expect(fs.existsSync(`${indexFileOf(repo)}.proof`)).toBe(false)
    expect(await hookView(repo)).toEqual({
      rebuilt: false,
      stale: false,
      catalog: [ALPHA, BETA, `${id}: Theta through cairn`],
    })
    expect(provenNow(repo)).toBe(true)
  })

  it('after approve the proof names the new index, so the next hook call needs no stat per card', async () => {
    const repo = await libraryRepo()
    const id = await proposed(repo, 'Theta through cairn')
    await approve(repo.ctx(), {ids: [id]})
    expect(provenNow(repo)).toBe(true)
  })

  it('an index past the inline limit is left to one background rebuild, which brings the change in', async () => {
    const repo = await initRepo()
    const ids = Array.from({length: INLINE_WORK + 20}, (_, i) => `library-card-${i + 1}`)
    for (const id of ids) plantCard(cardsDir(repo), id)
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'cards')
    ;(await openIndex(storesOf(repo.ctx()))).close()
    const id = await proposed(repo, 'Theta through cairn')
    await approve(repo.ctx(), {ids: [id]})
    // The write started the rebuild a hook would have started, and scanned no card file to learn it must.
    expect(rebuildState(storesOf(repo.ctx())[0])).toEqual({spawned: 1})
    await waitForIndexRebuild(storesOf(repo.ctx())[0])
    const view = await hookView(repo)
    expect({rebuilt: view.rebuilt, stale: view.stale, size: view.catalog.length}).toEqual({
      rebuilt: false,
      stale: false,
      size: ids.length + 1,
    })
    expect(view.catalog).toContain(`${id}: Theta through cairn`)
  }, 120_000)
})
