import fs from 'node:fs'
import path from 'node:path'
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

export {removeStaleTemps} from '../files/fsutil.js'
