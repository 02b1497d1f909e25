import fs from 'node:fs'
import {fileURLToPath} from 'node:url'
import {receiveMessageOnPort, MessageChannel, Worker} from 'node:worker_threads'
import type {Store} from './layout.js'

/**
 * Parsing card files on a second core during a large rebuild. The files are cut into chunks that
 * the calling thread and one worker thread claim from a shared counter; the caller takes the
 * results in file order (rebuild folds records in order), parsing a chunk itself whenever the one
 * it needs next is not ready, so neither waits for long and the two stay balanced. The worker runs
 * at most AHEAD chunks ahead of what the caller has taken, so results never pile up in memory.
 *
 * Everything here is synchronous (rebuild is): the caller reads the worker's messages with
 * receiveMessageOnPort and sleeps on an Atomics word the worker bumps after each message.
 */

/** A card file: its store's number and its path, and what is carried over when it is unchanged (then it is not read). */
export interface Job {
  store: number
  file: string
  carried?: {halves?: {match: string; rank: string}; facts?: unknown; problem?: string; blob?: string}
}

/** What the worker is started with (recall-index-pool-worker.ts). */
export interface PoolData {
  stores: Store[]
  jobs: Job[]
  chunk: number
  control: SharedArrayBuffer
}

/** Slots of the control words: the next chunk to claim, chunks the caller has taken, messages sent, the worker's state. */
export const CLAIM = 0
export const TAKEN = 1
export const SENT = 2
export const STATE = 3
export const FAILED = -1
/** Chunks the worker may be ahead of the caller. */
export const AHEAD = 8

/**
 * Below this many files a worker costs more than it saves: starting one loads the card parser and
 * the lexicon again, about half a second of a core (measured at 1,000 cards, 3.2 s with one against
 * 2.2 s without). It is far above what a hook ever parses inline (INLINE_WORK
 * in recall-index.ts allows about 660 files), so a hook never starts a thread.
 */
export const POOL_MIN = 4000
const CHUNK = 64
/** How long the caller waits on the worker for one chunk, with nothing sent, before parsing it itself. */
const PATIENCE_MS = 10_000

const WORKER = new URL('./recall-index-pool-worker.js', import.meta.url)

/**
 * run(chunk) for each chunk of the jobs, in order. When pooled, and a worker script is beside this
 * module (a build, not the TypeScript sources), one worker thread runs chunks too (its run must give
 * what this one gives: recall-index-pool-worker.ts); if it cannot start or fails, the caller runs the rest.
 */
export function* chunksInOrder<T>(stores: readonly Store[], jobs: readonly Job[], run: (chunk: readonly Job[]) => T, options: {pooled: boolean; chunk?: number}): Generator<T> {
  const size = options.chunk ?? CHUNK
  const chunks = Math.ceil(jobs.length / size)
  const own = (k: number) => run(jobs.slice(k * size, (k + 1) * size))
  const pool = options.pooled && chunks > 1 ? startWorker(stores, jobs, size) : null
  if (!pool) {
    for (let k = 0; k < chunks; k++) yield own(k)
    return
  }
  const {worker, port, control} = pool
  const done = new Map<number, T>()
  try {
    for (let c = 0; c < chunks; c++) {
      Atomics.store(control, TAKEN, c)
      Atomics.notify(control, TAKEN)
      let waited = 0
      while (!done.has(c)) {
        for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
          const {k, out} = m.message as {k: number; out: T}
          if (k >= c && !done.has(k)) done.set(k, out)
        }
        if (done.has(c)) break
        const k = Atomics.add(control, CLAIM, 1)
        if (k < chunks) {
          done.set(k, own(k))
          continue
        }
        // Chunk c is the worker's: wait for its message, or run it here if the worker has failed or stalled.
        const sent = Atomics.load(control, SENT)
        if (Atomics.load(control, STATE) === FAILED || waited >= PATIENCE_MS) done.set(c, own(c))
        else if (Atomics.wait(control, SENT, sent, 100) === 'timed-out') waited += 100
      }
      const out = done.get(c)!
      done.delete(c)
      yield out
    }
  } finally {
    Atomics.store(control, CLAIM, chunks)
    Atomics.store(control, STATE, FAILED)
    Atomics.notify(control, TAKEN)
    port.close()
    void worker.terminate()
  }
}

function startWorker(stores: readonly Store[], jobs: readonly Job[], chunk: number) {
  if (!fs.existsSync(fileURLToPath(WORKER))) return null
  try {
    const control = new SharedArrayBuffer(4 * 4)
    const {port1, port2} = new MessageChannel()
    const workerData = {stores, jobs, chunk, control, port: port2}
    // The process's flags, but --input-type (a script given with -e) applies to no file.
    const execArgv = process.execArgv.filter(a => !a.startsWith('--input-type'))
    const worker = new Worker(WORKER, {workerData, transferList: [port2], execArgv, stdout: true, stderr: true})
    // The process never waits for the worker: it is stopped once the files are parsed.
    worker.unref()
    worker.on('error', () => Atomics.store(new Int32Array(control), STATE, FAILED))
    return {worker, port: port1, control: new Int32Array(control)}
  } catch {
    return null
  }
}
