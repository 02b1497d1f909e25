// Benchmark runner: `node bench/run.js [name...]` runs bench/scenarios/<name>.js (all of them by
// default), prints a table and writes bench/results/latest.json.
//
// A scenario is any bench/scenarios/*.js file exporting `async function run()` that returns result
// rows {name, median_ms, runs_ms, peak_rss_mb, ...}; it may export `description`. Run `npm run
// build` first (`npm run bench` does): scenarios measure the compiled CLI.
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {cleanup, hasGnuTime, printTable, ROOT} from './lib.js'

const SCENARIOS = path.join(ROOT, 'bench', 'scenarios')
const RESULTS = path.join(ROOT, 'bench', 'results')

function discover() {
  return fs
    .readdirSync(SCENARIOS)
    .filter(f => f.endsWith('.js') && !f.startsWith('_') && !f.startsWith('.'))
    .sort()
    .map(f => ({name: f.slice(0, -3), file: path.join(SCENARIOS, f)}))
}

function gitInfo() {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {cwd: ROOT, encoding: 'utf8'}).trim()
    const dirty = execFileSync('git', ['status', '--porcelain'], {cwd: ROOT, encoding: 'utf8'}).trim() !== ''
    return {commit: sha, dirty}
  } catch {
    return {commit: null, dirty: null}
  }
}

async function main() {
  const args = process.argv.slice(2)
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(
      `usage: node bench/run.js [scenario...]\nscenarios: ${discover()
        .map(s => s.name)
        .join(', ')}\n`,
    )
    return
  }
  if (!fs.existsSync(path.join(ROOT, 'dist', 'commands')))
    throw new Error('dist/ is missing: run "npm run build" (or "npm run bench")')
  const all = discover()
  const unknown = args.filter(a => !all.some(s => s.name === a))
  if (unknown.length)
    throw new Error(`unknown scenario(s): ${unknown.join(', ')}; available: ${all.map(s => s.name).join(', ')}`)
  const selected = args.length ? all.filter(s => args.includes(s.name)) : all

  const rows = []
  let failed = false
  for (const s of selected) {
    const mod = await import(pathToFileURL(s.file).href)
    if (typeof mod.run !== 'function') {
      process.stderr.write(`skipping ${s.name}: it exports no run()\n`)
      continue
    }
    process.stderr.write(`${s.name}${mod.description ? `: ${mod.description}` : ''}\n`)
    const started = Date.now()
    try {
      for (const row of await mod.run()) rows.push({scenario: s.name, ...row})
    } catch (error) {
      failed = true
      process.stderr.write(`${s.name} FAILED: ${error?.stack ?? error}\n`)
      rows.push({
        scenario: s.name,
        name: s.name,
        median_ms: null,
        runs_ms: [],
        peak_rss_mb: null,
        error: String(error?.message ?? error),
      })
    } finally {
      cleanup()
    }
    process.stderr.write(`  (${((Date.now() - started) / 1000).toFixed(1)} s in total)\n`)
  }

  process.stdout.write('\n')
  printTable(rows)
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? null,
    total_mem_mb: Math.round(os.totalmem() / 2 ** 20),
    peak_rss_source: hasGnuTime() ? '/usr/bin/time -f %M' : null,
    ...gitInfo(),
    scenarios: selected.map(s => s.name),
    results: rows,
  }
  fs.mkdirSync(RESULTS, {recursive: true})
  const out = path.join(RESULTS, 'latest.json')
  fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`)
  process.stdout.write(`\nwrote ${path.relative(process.cwd(), out) || out}\n`)
  if (failed) process.exitCode = 1
}

main().catch(error => {
  process.stderr.write(`bench: ${error?.message ?? error}\n`)
  cleanup()
  process.exitCode = 1
})
