import {spawnSync} from 'node:child_process'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {describe, expect, it} from 'vitest'
import {runChunk} from '../src/recall/build.js'
import {scanStores} from '../src/recall/fresh.js'
import {chunksInOrder} from '../src/recall/pool.js'
import {loadLexicon} from '../src/recall/lexicon.js'
import {ROOT} from './helpers.js'
import {sessionRepo, storesOf} from './recall-index-helpers.js'

/**
 * The rebuild's chunks of card files, run on a worker thread and here, against all run here. The
 * worker thread needs the compiled script (dist/recall/pool-worker.js): run `npm run
 * build` first. A chunk's batch is compared as plain data (typed arrays as arrays).
 */
const plain = (x: unknown): unknown =>
  JSON.parse(JSON.stringify(x, (_, v: unknown) => (ArrayBuffer.isView(v) ? [...(v as Uint8Array)] : v)))

/**
 * Runs in a child process on the compiled modules: every chunk of one file each, pooled and not.
 * The caller's first chunk holds it up for a while, so the worker thread, once started, takes the
 * chunks after it. Prints how many chunks the caller ran itself, and both results.
 */
const CHILD = `
const [build, fresh, pool, lexicon] = await Promise.all(['build', 'fresh', 'pool', 'lexicon'].map(m => import(process.argv[1] + '/' + m + '.js')))
const stores = JSON.parse(process.argv[2])
const {translator} = await lexicon.loadLexicon(stores[0])
const jobs = fresh.scanStores(stores).found.map(f => ({store: f.store, file: f.file}))
let own = 0
const run = chunk => {
  if (own++ === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000)
  return build.runChunk(stores, chunk, translator)
}
const plain = x => JSON.parse(JSON.stringify(x, (_, v) => (ArrayBuffer.isView(v) ? [...v] : v)))
const strip = ({transfer, ...chunk}) => chunk
const pooled = [...pool.chunksInOrder(stores, jobs, run, {pooled: true, chunk: 1})].map(strip)
const ran = own
const alone = [...pool.chunksInOrder(stores, jobs, chunk => build.runChunk(stores, chunk, translator), {pooled: false, chunk: 1})].map(strip)
process.stdout.write(JSON.stringify({chunks: jobs.length, ran, pooled: plain(pooled), alone: plain(alone)}))
`

/** CHILD in a node process started with these flags, on the session repo's 11 card files; what it prints. */
async function pooledRun(
  flags: string[] = [],
): Promise<{chunks: number; ran: number; pooled: unknown[]; alone: unknown[]}> {
  const repo = await sessionRepo()
  const stores = storesOf(repo.ctx())
  const dist = pathToFileURL(path.join(ROOT, 'dist', 'recall')).href
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', CHILD, dist, JSON.stringify(stores)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    timeout: 60_000,
  })
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
  return JSON.parse(r.stdout)
}

describe('recall index: parsing on a second core', () => {
  it('a worker thread gives, chunk for chunk, what the calling thread gives, and the process ends with it', async () => {
    const t = Date.now()
    const out = await pooledRun()
    // The session repo's card files: the caller ran its first chunk (and some more past the worker's
    // AHEAD window of 8, or while a loaded machine was still starting the worker), the worker the others.
    expect(out.chunks).toBe(11)
    expect(out.ran).toBeGreaterThanOrEqual(1)
    expect(out.ran).toBeLessThan(out.chunks)
    expect(out.pooled).toEqual(out.alone)
    // Nothing left running: the child ended well before the spawn's timeout.
    expect(Date.now() - t).toBeLessThan(30_000)
  })

  it('a process started with V8 flags, which a worker refuses, still parses on a worker thread', async () => {
    const out = await pooledRun(['--max-old-space-size=2048', '--max-semi-space-size=16'])
    // Had the worker not started, the caller would have run all 11 chunks itself.
    expect(out.chunks).toBe(11)
    expect(out.ran).toBeLessThan(out.chunks)
    expect(out.pooled).toEqual(out.alone)
  })

  it('without a worker script beside the module (these sources), a pooled run is the run here, every chunk', async () => {
    const repo = await sessionRepo()
    const stores = storesOf(repo.ctx())
    const {translator} = await loadLexicon(stores[0])
    const jobs = scanStores(stores).found.map(f => ({store: f.store, file: f.file}))
    let ran = 0
    const run = (chunk: readonly {store: number; file: string}[]) => {
      ran++
      const {transfer: _, ...out} = runChunk(stores, chunk, translator)
      return out
    }
    const pooled = [...chunksInOrder(stores, jobs, run, {pooled: true, chunk: 2})]
    expect(ran).toBe(Math.ceil(jobs.length / 2))
    const alone = [...chunksInOrder(stores, jobs, run, {pooled: false, chunk: 2})]
    expect(plain(pooled)).toEqual(plain(alone))
    // 11 card files, of which 10 are active cards with records.
    expect(pooled.flatMap(c => c.outcomes).map(o => o.at)).toEqual([0, 1, 0, 1, 0, undefined, 0, 1, 0, 1, 0])
    expect(jobs.length).toBe(11)
  })
})
