import {type MessagePort, workerData} from 'node:worker_threads'
import {runChunk} from './build.js'
import {AHEAD, CLAIM, FAILED, type PoolData, type PoolJobs, SENT, STATE, TAKEN} from './pool.js'
import {loadLexicon} from './lexicon.js'

/**
 * The worker thread of pool.ts: it claims chunks of card files, parses them as the
 * rebuild would (runChunk, with the same lexicon) and posts each chunk's batch, its buffers moved, not copied. Any failure
 * marks it failed, and the calling thread parses what is left.
 */
const {stores, control: shared, port} = workerData as PoolData & {port: MessagePort}
const control = new Int32Array(shared)
try {
  // Started before the caller has its jobs: the lexicon loads meanwhile.
  const jobsSent = new Promise<PoolJobs>(resolve => port.once('message', resolve))
  const {translator} = await loadLexicon(stores[0])
  const {jobs, chunk} = await jobsSent
  const chunks = Math.ceil(jobs.length / chunk)
  for (;;) {
    // Not more than AHEAD chunks past what the caller has taken.
    const taken = Atomics.load(control, TAKEN)
    if (Atomics.load(control, STATE) === FAILED) break
    if (Atomics.load(control, CLAIM) - taken >= AHEAD) {
      Atomics.wait(control, TAKEN, taken, 100)
      continue
    }
    const k = Atomics.add(control, CLAIM, 1)
    if (k >= chunks) break
    const {transfer, ...out} = runChunk(stores, jobs.slice(k * chunk, (k + 1) * chunk), translator)
    port.postMessage({k, out}, transfer)
    Atomics.add(control, SENT, 1)
    Atomics.notify(control, SENT)
  }
} catch {
  Atomics.store(control, STATE, FAILED)
  Atomics.notify(control, SENT)
}
port.close()
