import fs from 'node:fs'
import {fileURLToPath} from 'node:url'
import {type MessagePort, receiveMessageOnPort, MessageChannel, Worker} from 'node:worker_threads'
import type {Store} from '../store/layout.js'

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

/** What the worker is started with (pool-worker.ts); its jobs come later, by a message. */
export interface PoolData {
  stores: Store[]
  control: SharedArrayBuffer
}

/** The jobs, once the caller has them: the worker's first message. */
export interface PoolJobs {
  jobs: readonly Job[]
  chunk: number
}

/**
 * A worker thread, started before its jobs are known: it loads the card parser and the lexicon
 * while the caller loads its own and reads the old index (startPool). `stop` ends it; stopping twice is harmless.
 */
export interface Pool {
  port: MessagePort
  control: Int32Array
  stop(): void
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
 * in open.ts allows about 660 files), so a hook never starts a thread.
 */
export const POOL_MIN = 4000
const CHUNK = 64
/** How long the caller waits on the worker for one chunk, with nothing sent, before parsing it itself. */
const PATIENCE_MS = 10_000

const WORKER = new URL('./pool-worker.js', import.meta.url)

/**
 * run(chunk) for each chunk of the jobs, in order. When pooled, one worker thread runs chunks too:
 * the one given (startPool), else one started here, if a worker script is beside this module (a
 * build, not the TypeScript sources); its run must give what this one gives
 * (pool-worker.ts). If it cannot start or fails, the caller runs the rest. A given
 * worker is stopped in any case, once the chunks are done or at once when they are not pooled.
 */
export function* chunksInOrder<T>(
  stores: readonly Store[],
  jobs: readonly Job[],
  run: (chunk: readonly Job[]) => T,
  options: {pooled: boolean; pool?: Pool | null; chunk?: number},
): Generator<T> {
  const size = options.chunk ?? CHUNK
  const chunks = Math.ceil(jobs.length / size)
  const own = (k: number) => run(jobs.slice(k * size, (k + 1) * size))
  const pooled = options.pooled && chunks > 1
  let pool = options.pool ?? null
  if (!pooled) pool?.stop()
  else pool ??= startPool(stores)
  if (!pooled || !pool) {
    for (let k = 0; k < chunks; k++) yield own(k)
    return
  }
  const {port, control} = pool
  const done = new Map<number, T>()
  try {
    port.postMessage({jobs, chunk: size} satisfies PoolJobs)
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
    pool.stop()
  }
}

/**
 * Starts the worker thread, with no jobs yet (chunksInOrder sends them), or null when there is no
 * worker script beside this module or it cannot start. The caller must stop it.
 */
export function startPool(stores: readonly Store[]): Pool | null {
  if (!fs.existsSync(fileURLToPath(WORKER))) return null
  try {
    const shared = new SharedArrayBuffer(4 * 4)
    const control = new Int32Array(shared)
    const open = (execArgv: string[]) => {
      const {port1, port2} = new MessageChannel()
      const workerData = {stores, control: shared, port: port2}
      return {
        port1,
        worker: new Worker(WORKER, {workerData, transferList: [port2], execArgv, stdout: true, stderr: true}),
      }
    }
    let started: ReturnType<typeof open>
    try {
      // The process's flags, but --input-type (a script given with -e) applies to no file.
      started = open(process.execArgv.filter(a => !a.startsWith('--input-type')))
    } catch (error) {
      // A worker refuses V8's flags (node --max-old-space-size=... cairn), which are the whole process's anyway.
      if ((error as {code?: string}).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error
      started = open([])
    }
    const {port1, worker} = started
    // The process never waits for the worker: it is stopped once the files are parsed.
    worker.unref()
    worker.on('error', () => Atomics.store(control, STATE, FAILED))
    let stopped = false
    const stop = () => {
      if (stopped) return
      stopped = true
      // No chunk is claimed past this: the worker sees it failed, and stops.
      Atomics.store(control, CLAIM, 2 ** 30)
      Atomics.store(control, STATE, FAILED)
      Atomics.notify(control, TAKEN)
      port1.close()
      void worker.terminate()
    }
    return {port: port1, control, stop}
  } catch {
    return null
  }
}
