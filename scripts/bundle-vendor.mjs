// zod and yaml load as many small files: zod as some ninety ES modules (every locale among them), yaml
// as some seventy CommonJS files, and Node's loader costs about a millisecond per file (resolve, read,
// compile). A write loads both on every call, and secretlint's three packages for its secret scan, so
// the build bundles each into the one file cairn imports it from, dist/domain/vendor/<name>.js, replacing
// the re-export tsc emitted there (src/domain/vendor/): about 110 ms of CPU less at each start of a write
// (issue 35). A bundle exports what the re-export did, from the versions package.json pins; source tests,
// which import src/, keep the packages themselves. Runs after bundle-hook.mjs, so the hook's bundle keeps
// the packages external, as before.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {build} from 'rolldown'

const dir = 'dist/domain/vendor'
const PACKAGES = ['zod', 'yaml', 'secretlint']
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-vendor-'))
try {
  for (const name of PACKAGES) {
    await build({
      input: path.join(dir, `${name}.js`),
      platform: 'node',
      logLevel: 'warn',
      output: {file: path.join(out, `${name}.js`), format: 'esm'},
    })
  }
  for (const name of PACKAGES) fs.copyFileSync(path.join(out, `${name}.js`), path.join(dir, `${name}.js`))
} finally {
  fs.rmSync(out, {recursive: true, force: true})
}
