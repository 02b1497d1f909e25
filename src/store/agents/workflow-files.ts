import fs from 'node:fs'
import path from 'node:path'
import {removeOldFiles, TMP_MARK} from '../files/fsutil.js'
import {packageFile} from '../package-files.js'

/** The workflow templates and the identity of this installation of cairn, read from the package itself. */

/** templates/github/workflows of this installation of cairn. */
export const packageWorkflowsRoot = (): string => packageFile('templates/github/workflows')

/** Name and version from this installation's package.json: what a workflow must install to run this cairn. */
export function runningPackage(): {name: string; version: string} {
  const file = packageFile('package.json')
  const {name, version} = JSON.parse(fs.readFileSync(file, 'utf8')) as {name: string; version: string}
  return {name, version}
}

/** Each `*.yml` template under root, in name order. */
export function readWorkflowTemplates(root: string): {name: string; text: string}[] {
  return fs
    .readdirSync(root)
    .filter(name => name.endsWith('.yml'))
    .sort()
    .map(name => ({name, text: fs.readFileSync(path.join(root, name), 'utf8')}))
}

/** A temp file older than this was left by a write that was killed; a younger one may be another run's. */
const STALE_TEMP_MS = 60_000

/**
 * Removes the temp files killed runs left beside these workflow files (".<name>.cairn-tmp-..."),
 * once they are a minute old: a concurrent run's own temp file is younger and stays.
 */
export function removeStaleTemps(files: readonly string[], now: number): void {
  for (const dir of new Set(files.map(f => path.dirname(f)))) {
    const prefixes = files.filter(f => path.dirname(f) === dir).map(f => `.${path.basename(f)}${TMP_MARK}`)
    removeOldFiles(dir, name => prefixes.some(p => name.startsWith(p)), now, STALE_TEMP_MS)
  }
}
