// Writes oclif.manifest.json after a build, so the CLI reads command metadata from one file
// instead of importing every command module on each start (about a third of a call's time).
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {Config} from '@oclif/core'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const target = path.join(root, 'oclif.manifest.json')
fs.rmSync(target, {force: true})
const config = await Config.load(root)
const manifest = config.plugins.get(config.pjson.name).manifest
if (Object.keys(manifest.commands).length === 0)
  throw new Error('oclif found no commands in dist/commands; build first')
fs.writeFileSync(target, `${JSON.stringify(manifest)}\n`)
