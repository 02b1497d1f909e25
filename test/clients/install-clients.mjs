// Installs the agent clients the real-client tests drive, at the versions test/clients/versions.json pins (a version
// bump is one line there), each into its own folder of a cache outside the checkout, once:
//   ${CAIRN_CLIENTS_CACHE:-~/.cache/cairn-test-clients}/<package@version>/node_modules/.bin/<bin>
// Only the npm registry is reached. Prints the JSON map of client to executable.
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
export const VERSIONS = JSON.parse(fs.readFileSync(path.join(here, 'versions.json'), 'utf8'))
export const CACHE = process.env.CAIRN_CLIENTS_CACHE || path.join(os.homedir(), '.cache', 'cairn-test-clients')

/** The executable of one pinned client, installed first when the cache does not have it. */
export function clientBin(name) {
  const {package: spec, bin} = VERSIONS[name]
  const dir = path.join(CACHE, spec.replace(/[/@]/g, '_'))
  const exe = path.join(dir, 'node_modules', '.bin', bin)
  if (fs.existsSync(exe)) return exe
  fs.mkdirSync(dir, {recursive: true})
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private": true}\n')
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', dir, spec], {stdio: 'inherit'})
  if (!fs.existsSync(exe)) throw new Error(`${spec} installed no ${bin} at ${exe}`)
  return exe
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(Object.fromEntries(Object.keys(VERSIONS).map(n => [n, clientBin(n)])), null, 2))
}
