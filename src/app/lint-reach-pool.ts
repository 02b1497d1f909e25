import type {StoreKind} from '../domain/org.js'
import {Worker} from 'node:worker_threads'
import type {Store} from '../store/layout.js'

/** A card whose own prompt lint asks the index about: lint-reach.ts unreachableCards. */
export interface ReachItem {
  store: StoreKind
  id: string
  prompt: string
}

/** Whether each item's prompt recalls its card, in order (lint-reach.ts reacher). */
export type Reach = (items: readonly ReachItem[]) => boolean[]

/** What the worker (lint-reach-worker.ts) is started with: the index to open and the chunks to claim. */
export interface ReachJob {
  stores: readonly Store[]
  /** RecallIndex.identity of the caller's open index: the worker answers only on the same index. */
  identity: string
  projectKey: string | null
  items: readonly ReachItem[]
  chunk: number
  /** One Int32 word: the next chunk to claim, shared by the caller and the worker. */
  claim: SharedArrayBuffer
}

/** What the worker posts for each chunk it claimed. */
export interface ReachAnswer {
  k: number
  reached: boolean[]
}

/**
 * Below this many prompts a second thread costs more than it saves: starting one loads the matcher, opens
 * the index again and decodes its records, about 0.5 s of a core, while a prompt costs about 0.3 ms.
 */
export const REACH_POOL_MIN = 3000
/** Prompts per chunk: small enough that neither thread waits long for the other at the end. */
const CHUNK = 250

const WORKER = new URL('./lint-reach-worker.js', import.meta.url)

/**
 * reach over the items, by chunks that this thread and, for a large library, one worker thread claim from a
 * shared counter, so the matching of cold lint runs on two cores. The worker gives what reach gives (it runs
 * the same reacher on the same index); any chunk it does not answer, because it could not start, failed or
 * opened another index, is answered here: without a worker script beside this module (the TypeScript
 * sources, not a build) the worker fails as it starts, and every chunk is answered here. Tests set how
 * many prompts start a worker (min) and the chunk size.
 */
export async function reachInChunks(
  job: Omit<ReachJob, 'chunk' | 'claim'>,
  reach: Reach,
  options: {min?: number; chunk?: number} = {},
): Promise<boolean[]> {
  const {items} = job
  const chunk = options.chunk ?? CHUNK
  const chunks = Math.ceil(items.length / chunk)
  const out: (boolean[] | undefined)[] = Array.from({length: chunks})
  const own = (k: number) => reach(items.slice(k * chunk, (k + 1) * chunk))
  const claim = new SharedArrayBuffer(4)
  const counter = new Int32Array(claim)
  const helper = items.length >= (options.min ?? REACH_POOL_MIN) ? startWorker({...job, chunk, claim}) : null
  try {
    for (let k = Atomics.add(counter, 0, 1); k < chunks; k = Atomics.add(counter, 0, 1)) out[k] = own(k)
    // The worker's chunks: their answers, or its end (then any chunk it left is answered below).
    if (helper && out.includes(undefined)) await helper.answers(out)
  } finally {
    helper?.stop()
  }
  return out.flatMap((reached, k) => reached ?? own(k))
}

interface Helper {
  /** Resolves once every chunk of out is answered, or the worker has ended. */
  answers(out: (boolean[] | undefined)[]): Promise<void>
  stop(): void
}

function startWorker(job: ReachJob): Helper | null {
  const open = (execArgv: string[]) => new Worker(WORKER, {workerData: job, execArgv, stdout: true, stderr: true})
  let worker: Worker
  try {
    try {
      // The process's flags, but --input-type (a script given with -e) applies to no file.
      worker = open(process.execArgv.filter(a => !a.startsWith('--input-type')))
    } catch (error) {
      // A worker refuses V8's flags (node --max-old-space-size=... cairn), which are the whole process's anyway.
      if ((error as {code?: string}).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error
      worker = open([])
    }
  } catch {
    return null
  }
  const got = new Map<number, boolean[]>()
  let ended = false
  let wake = () => {}
  worker.on('message', ({k, reached}: ReachAnswer) => {
    got.set(k, reached)
    wake()
  })
  const end = () => {
    ended = true
    wake()
  }
  worker.once('error', end)
  worker.once('exit', end)
  return {
    async answers(out) {
      for (;;) {
        for (const [k, reached] of got) out[k] ??= reached
        if (ended || !out.includes(undefined)) return
        await new Promise<void>(resolve => (wake = resolve))
      }
    },
    stop() {
      // No chunk is claimed past this, and the thread ends at once.
      Atomics.store(new Int32Array(job.claim), 0, 2 ** 30)
      void worker.terminate()
    },
  }
}
