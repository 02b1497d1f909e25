// The package.json a tarball carries, for `npm pack` and `npm publish`: the checkout's without its scripts.
// `prepare` builds cairn in a checkout (`npm ci`) and in a git install (npm runs it there), but a tarball ships
// built, and npm 11 lists a tarball's `prepare` as an install script the user has not allowed, a warning that
// reads like a failed build; the other scripts need the sources, which a tarball does not have.
//   node scripts/pack-manifest.mjs strip     (prepack) keep the checkout's file aside and write the stripped one
//   node scripts/pack-manifest.mjs restore   (postpack) put the checkout's file back
// A pack that failed in between leaves the copy aside; the next strip or restore puts it back first.
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const manifest = path.join(root, 'package.json')
const aside = path.join(root, '.package.json.checkout')

function writeAtomic(file, text) {
  const temp = `${file}.tmp-${process.pid}`
  fs.writeFileSync(temp, text)
  fs.renameSync(temp, file)
}

function restore() {
  if (fs.existsSync(aside)) fs.renameSync(aside, manifest)
}

const step = process.argv[2]
if (step === 'strip') {
  restore()
  const text = fs.readFileSync(manifest, 'utf8')
  const {scripts: _scripts, ...packed} = JSON.parse(text)
  writeAtomic(aside, text)
  writeAtomic(manifest, `${JSON.stringify(packed, null, 2)}\n`)
} else if (step === 'restore') {
  restore()
} else {
  console.error('Usage: node scripts/pack-manifest.mjs strip|restore.')
  process.exit(2)
}
