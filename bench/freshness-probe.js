// The freshness check of a warm prompt, timed in process (bench/scenarios/hook-scale.js runs it, one
// fresh process per run, as a hook is): `node bench/freshness-probe.js <repo dir>` loads the modules
// untimed, then times one openIndex(stores, {mode: 'hook'}) on an index that is up to date and proven
// (what a warm hook call does before it matches: one git ls-files per store against the proof,
// proof.ts, and the index's head), wall time, git's run included,
// and then the head read alone (openIndexFile), so the check is their difference. Prints JSON:
// {open_ms, open_cpu_ms, open_gc_ms, head_ms, cards}; {error} when the exported functions it needs
// have moved. It fails when the call was not warm (the index was rebuilt or found stale).
import fs from 'node:fs'
import {PerformanceObserver, performance} from 'node:perf_hooks'

const dist = new URL('../dist/', import.meta.url)
const cwd = process.argv[2]
const out = x => process.stdout.write(`${JSON.stringify(x)}\n`)

let mods
try {
  const files = ['context.js', 'store/layout.js', 'recall/open.js', 'recall/read.js']
  mods = await Promise.all(files.map(f => import(new URL(f, dist).href)))
} catch (error) {
  out({error: `cannot load the index modules: ${error.message}`})
  process.exit(0)
}
const [{createContext}, {storesToRead}, {openIndex, indexPath}, {openIndexFile}] = mods
const stores = storesToRead(createContext({cwd}))

const gcs = []
const observer = new PerformanceObserver(list => gcs.push(...list.getEntries()))
observer.observe({entryTypes: ['gc']})

const t0 = performance.now()
const c0 = process.cpuUsage()
const index = await openIndex(stores, {mode: 'hook'})
const c1 = process.cpuUsage(c0)
const t1 = performance.now()
if (!index) throw new Error('openIndex returned no index: the index is not built')
const state = {rebuilt: index.rebuilt, stale: index.stale}
const cards = index.stats?.n
index.close()
if (state.rebuilt || state.stale) throw new Error(`the call was not warm: ${JSON.stringify(state)}`)

const h0 = performance.now()
const head = openIndexFile(stores[0])
const h1 = performance.now()
if (head) fs.closeSync(head.fd)

await new Promise(resolve => setTimeout(resolve, 20)) // gc entries arrive asynchronously
observer.disconnect()
const gcMs = gcs.filter(e => e.startTime >= t0 && e.startTime < t1).reduce((n, e) => n + e.duration, 0)
out({open_ms: t1 - t0, open_cpu_ms: (c1.user + c1.system) / 1000, open_gc_ms: gcMs, head_ms: h1 - h0, cards})
