import fs from 'node:fs'
import type {Store} from '../store/layout.js'
import {finishRebuild} from './background.js'
import {openIndex} from './open.js'
import {openIndexFile} from './read.js'

/**
 * The detached process a hook starts (background.ts): `node rebuild-worker.js
 * '{"stores":[...],"token":"...","key":"..."}'`. It brings the index up to date as the CLI does,
 * checks that a valid file was written, records the outcome and releases the lock.
 */
const {stores, token, key} = JSON.parse(process.argv[2] ?? '{}') as {stores: Store[]; token: string; key: string}
let error: string | undefined
try {
  ;(await openIndex(stores, {logSkipped: true})).close()
  const written = openIndexFile(stores[0])
  if (written) fs.closeSync(written.fd)
  else error = 'the index could not be written'
} catch (e) {
  error = e instanceof Error ? e.message : String(e)
}
finishRebuild(stores[0], token, key, error)
