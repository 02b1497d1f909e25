import {parentPort, workerData} from 'node:worker_threads'
import {useIndex} from '../recall/index.js'
import {reacher} from './lint-reach.js'
import type {ReachAnswer, ReachJob} from './lint-reach-pool.js'

/**
 * The worker thread of lint-reach-pool.ts: it opens the caller's index, claims chunks of prompts from the
 * shared counter and posts whether each recalls its card, as the caller's reacher would. Any failure, or an
 * index other than the caller's, ends it; the caller answers what is left.
 */
const {stores, identity, projectKey, items, chunk, claim} = workerData as ReachJob
const counter = new Int32Array(claim)
const chunks = Math.ceil(items.length / chunk)
await useIndex(stores, async index => {
  if (index.identity() !== identity) return
  const reach = await reacher(index, projectKey)
  for (let k = Atomics.add(counter, 0, 1); k < chunks; k = Atomics.add(counter, 0, 1))
    parentPort!.postMessage({k, reached: reach(items.slice(k * chunk, (k + 1) * chunk))} satisfies ReachAnswer)
})
