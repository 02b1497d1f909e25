import {spawn, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterEach, describe, expect, it} from 'vitest'
import {promptRecall} from '../src/app/prompt-recall.js'
import type {Store} from '../src/store/layout.js'
import {openIndex, useIndex} from '../src/recall/open.js'
import {
  LOCK_FILE,
  REBUILD_MAX_AGE_MS,
  rebuildRunning,
  rebuildState,
  waitForIndexRebuild,
} from '../src/recall/background.js'
import {ROOT} from './helpers.js'
import {contentOf, flipped, indexFileOf, plantCard, sessionRepo, storesOf} from './recall-index-helpers.js'

/**
 * Hook mode spawns the compiled worker (dist/recall/rebuild-worker.js): run `npm run build`
 * first. Every test waits for the rebuilds it started, so none outlives its temp directory.
 */
const PROMPT = 'Before commit, run git status; also npm pack and test the tarball install'
const EXPECTED = ['release-tarball-smoke-test', 'git-commit-safety']
const ids = (r: {cards: {id: string}[]}) => r.cards.map(c => c.id)
const started: Store[] = []
const watch = (stores: Store[]) => {
  started.push(stores[0])
  return stores
}
afterEach(async () => {
  while (started.length) await waitForIndexRebuild(started.pop()!, 60_000)
})

const lockFile = (store: Store) => path.join(store.root, store.prefix, '.cache', LOCK_FILE)
const writeLock = (store: Store, pid: number, at: number) => {
  fs.mkdirSync(path.dirname(lockFile(store)), {recursive: true})
  fs.writeFileSync(lockFile(store), JSON.stringify({token: 'planted', pid, at}))
}

/** Hook-mode opens from n separate processes at once, through the compiled module; each prints whether it got null. */
function openInProcesses(stores: Store[], n: number): Promise<string[]> {
  const mod = pathToFileURL(path.join(ROOT, 'dist/recall/open.js')).href
  const code = `const {openIndex} = await import(${JSON.stringify(mod)}); const ix = await openIndex(JSON.parse(process.argv[1]), {mode: 'hook'}); ix?.close(); process.stdout.write(String(ix === null))`
  return Promise.all(
    Array.from(
      {length: n},
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', code, JSON.stringify(stores)], {
            stdio: ['ignore', 'pipe', 'inherit'],
          })
          let out = ''
          child.stdout.on('data', d => (out += d))
          child.on('error', reject)
          child.on('close', () => resolve(out))
        }),
    ),
  )
}

describe('recall index in hook mode', () => {
  it('a missing index answers nothing at once; one background rebuild makes the next call answer', async () => {
    const repo = await sessionRepo()
    const stores = watch(storesOf(repo.ctx()))
    const t = Date.now()
    expect(await openIndex(stores, {mode: 'hook'})).toBeNull()
    expect(Date.now() - t).toBeLessThan(1500)
    expect(rebuildRunning(stores[0])).toBe(true)
    await waitForIndexRebuild(stores[0], 60_000)
    expect(fs.existsSync(lockFile(stores[0]))).toBe(false)
    expect(rebuildState(stores[0])).toEqual({spawned: 1})
    const warm = await promptRecall(repo.ctx(), {prompt: PROMPT, mode: 'hook'})
    expect(warm.rebuiltIndex).toBe(false)
    expect(ids(warm)).toEqual(EXPECTED)
    // The CLI's inline mode reads the same file and finds nothing to rebuild.
    expect((await promptRecall(repo.ctx(), {prompt: PROMPT})).rebuiltIndex).toBe(false)
  })

  it('concurrent hook calls start one rebuild, in one process or in several', async () => {
    const repo = await sessionRepo()
    const stores = watch(storesOf(repo.ctx()))
    expect(await Promise.all([openIndex(stores, {mode: 'hook'}), openIndex(stores, {mode: 'hook'})])).toEqual([
      null,
      null,
    ])
    await waitForIndexRebuild(stores[0], 60_000)
    expect(rebuildState(stores[0])).toEqual({spawned: 1})
    fs.rmSync(indexFileOf(repo))
    expect(await openInProcesses(stores, 3)).toEqual(['true', 'true', 'true'])
    await waitForIndexRebuild(stores[0], 60_000)
    expect(rebuildState(stores[0])).toEqual({spawned: 2})
    expect(ids(await promptRecall(repo.ctx(), {prompt: PROMPT, mode: 'hook'}))).toEqual(EXPECTED)
  })

  it('a lock held by a live process is respected; one of a dead process, or too old, is taken over', async () => {
    const repo = await sessionRepo()
    const stores = watch(storesOf(repo.ctx()))
    writeLock(stores[0], process.pid, Date.now())
    expect(await openIndex(stores, {mode: 'hook'})).toBeNull()
    expect(rebuildState(stores[0])).toEqual({spawned: 0})
    await expect(waitForIndexRebuild(stores[0], 100)).rejects.toThrow(/still running after 100 ms/)
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!
    for (const [pid, at, spawned] of [
      [dead, Date.now(), 1],
      [process.pid, Date.now() - REBUILD_MAX_AGE_MS - 1000, 2],
    ]) {
      fs.rmSync(indexFileOf(repo), {force: true})
      writeLock(stores[0], pid, at)
      expect(await openIndex(stores, {mode: 'hook'})).toBeNull()
      await waitForIndexRebuild(stores[0], 60_000)
      expect(rebuildState(stores[0])).toEqual({spawned})
      expect(fs.existsSync(indexFileOf(repo))).toBe(true)
    }
  })

  it('a corrupt index throws IndexCorruptError (the hook logs it and answers nothing) and is rebuilt in the background', async () => {
    const repo = await sessionRepo()
    const stores = watch(storesOf(repo.ctx()))
    const fresh = await promptRecall(repo.ctx(), {prompt: PROMPT})
    const freshCatalog = await useIndex(stores, ix => ix.catalog())
    const file = indexFileOf(repo)
    const bytes = fs.readFileSync(file)
    const corrupt = /^the recall index is corrupt \(.+\); it is rebuilt$/
    // Found at open: a short file, or a bad block in the stamps every open reads.
    for (const bad of [bytes.subarray(0, bytes.length >> 1), flipped(bytes, 'stamps')]) {
      fs.writeFileSync(file, bad)
      await expect(promptRecall(repo.ctx(), {prompt: PROMPT, mode: 'hook'})).rejects.toThrow(corrupt)
      await waitForIndexRebuild(stores[0], 60_000)
      expect(contentOf(fs.readFileSync(file))).toEqual(contentOf(bytes))
      const again = await promptRecall(repo.ctx(), {prompt: PROMPT, mode: 'hook'})
      expect([again.text, ids(again)]).toEqual([fresh.text, EXPECTED])
    }
    // Found only when the catalog is read: the open succeeds, the read removes the file.
    fs.writeFileSync(file, flipped(bytes, 'catalog'))
    await expect(useIndex(stores, ix => ix.catalog(), {mode: 'hook'})).rejects.toThrow(corrupt)
    await waitForIndexRebuild(stores[0], 60_000)
    expect(contentOf(fs.readFileSync(file))).toEqual(contentOf(bytes))
    expect(await useIndex(stores, ix => ix.catalog(), {mode: 'hook'})).toEqual(freshCatalog)
    expect(rebuildState(stores[0])).toEqual({spawned: 3})
    // An index of another version is no damage: it is rebuilt without a word.
    fs.writeFileSync(file, 'cairn-recall-index 4 120\n{}')
    expect(await openIndex(stores, {mode: 'hook'})).toBeNull()
  })

  it('a card file that fails to parse is skipped, and a hook-mode build logs it once', async () => {
    const repo = await sessionRepo()
    const stores = watch(storesOf(repo.ctx()))
    repo.write('.cairn/cards/guideline/git-commit-safety.md', '---\nid: [broken\n---\n')
    expect(await openIndex(stores, {mode: 'hook'})).toBeNull()
    await waitForIndexRebuild(stores[0], 60_000)
    const log = () => repo.read('.cairn/.local/hook-errors.log').trim().split('\n')
    expect(log()).toEqual([
      expect.stringMatching(
        /^\S+ \.cairn\/cards\/guideline\/git-commit-safety\.md cannot be loaded, so recall and the hooks leave it out: /,
      ),
    ])
    expect(ids(await promptRecall(repo.ctx(), {prompt: PROMPT, mode: 'hook'}))).toEqual(['release-tarball-smoke-test'])
    // Unchanged, it is logged no more, however often the index is opened or rebuilt; the CLI's inline builds never log.
    plantCard(path.join(repo.dir, '.cairn'), 'config-merge-narrow', {title: 'Merge config arrays again'})
    await promptRecall(repo.ctx(), {prompt: PROMPT, mode: 'hook'})
    fs.rmSync(indexFileOf(repo))
    await promptRecall(repo.ctx(), {prompt: PROMPT})
    expect(log()).toHaveLength(1)
  })

  it('a few changed cards are updated inline; many answer from the stale index while the rebuild runs', async () => {
    const repo = await sessionRepo()
    const stores = watch(storesOf(repo.ctx()))
    await promptRecall(repo.ctx(), {prompt: PROMPT})
    const project = path.join(repo.dir, '.cairn')
    plantCard(project, 'config-merge-narrow', {title: 'Merge config arrays', recall: {triggers: ['amber compass']}})
    const small = await promptRecall(repo.ctx(), {prompt: 'amber compass', mode: 'hook'})
    expect([small.rebuiltIndex, ids(small)]).toEqual([true, ['config-merge-narrow']])
    // 520 new files, 4 units each: past INLINE_WORK (2,000).
    for (let i = 0; i < 520; i++)
      plantCard(project, `quartz-lantern-card-${i}`, {recall: {triggers: [`quartz lantern ${i}`]}})
    const stale = await openIndex(stores, {mode: 'hook'})
    expect([stale?.stale, stale?.rebuilt, stale?.stats.n]).toEqual([true, false, 9])
    stale?.close()
    await waitForIndexRebuild(stores[0], 60_000)
    expect(rebuildState(stores[0])).toEqual({spawned: 1})
    expect(ids(await promptRecall(repo.ctx(), {prompt: 'quartz lantern 7', mode: 'hook'}))).toEqual([
      'quartz-lantern-card-7',
    ])
  })

  it('with a linked .cache/ nothing is kept: a small store is built in the hook, with no rebuild started', async () => {
    const repo = await sessionRepo()
    const stores = watch(storesOf(repo.ctx()))
    const elsewhere = fs.mkdtempSync(path.join(path.dirname(repo.dir), 'cache-'))
    fs.symlinkSync(elsewhere, path.join(repo.dir, '.cairn/.cache'))
    const r = await promptRecall(repo.ctx(), {prompt: PROMPT, mode: 'hook'})
    expect([r.rebuiltIndex, ids(r)]).toEqual([true, EXPECTED])
    expect(fs.readdirSync(elsewhere)).toEqual([])
  })

  it('a rebuild that fails is not started again until config.yaml or signals.yaml changes', async () => {
    const repo = await sessionRepo()
    const stores = watch(storesOf(repo.ctx()))
    const config = repo.read('.cairn/config.yaml')
    repo.write('.cairn/config.yaml', `${config}unknown_key: 1\n`)
    expect(await openIndex(stores, {mode: 'hook'})).toBeNull()
    await waitForIndexRebuild(stores[0], 60_000)
    const failed = rebuildState(stores[0])
    expect(failed).toMatchObject({spawned: 1, failed: {error: expect.stringContaining('unknown_key')}})
    expect(await openIndex(stores, {mode: 'hook'})).toBeNull()
    expect(rebuildState(stores[0])).toEqual(failed)
    repo.write('.cairn/config.yaml', config)
    expect(await openIndex(stores, {mode: 'hook'})).toBeNull()
    await waitForIndexRebuild(stores[0], 60_000)
    expect(rebuildState(stores[0])).toEqual({spawned: 2})
    expect(ids(await promptRecall(repo.ctx(), {prompt: PROMPT, mode: 'hook'}))).toEqual(EXPECTED)
  })
})
